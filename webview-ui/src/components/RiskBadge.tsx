// The security risk of an action. Color sits on the border and icon only, the text stays in the
// foreground color so it is readable in every theme.
import { Icon } from './Icon';
import { t } from '../lib/text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';

const RISKS = new Set(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN']);

function levelOf(risk: string | undefined): string {
  return risk && RISKS.has(risk) ? risk : 'UNKNOWN';
}

const LEVEL_WORD: Record<string, WebviewTextKey> = {
  LOW: 'riskLow',
  MEDIUM: 'riskMedium',
  HIGH: 'riskHigh',
  UNKNOWN: 'riskUnknown',
};

/** A level in the display language ("LOW" in English). */
export function levelWord(level: string): string {
  return t(LEVEL_WORD[level] ?? 'riskUnknown');
}

function riskIcon(level: string): string {
  return level === 'HIGH' ? 'warning' : level === 'MEDIUM' ? 'info' : level === 'LOW' ? 'shield' : 'question';
}

/** The risk the model gave an action. */
export function RiskBadge({ risk }: { risk: string | undefined }) {
  const level = levelOf(risk);
  return (
    <span class={`badge risk risk-${level.toLowerCase()}`} title={t('riskTitle', levelWord(level))}>
      <Icon name={riskIcon(level)} />
      {levelWord(level)}
    </span>
  );
}

/**
 * The risk that counts once Logbook's rules had their say, when it differs from the model's: one
 * line that names whose each rating is, "MEDIUM by Logbook's rules: runs package scripts (the
 * model said LOW)". The card shows no other badge, before or after the action ran. On an
 * agent-server the other rating is the server's (its action's security_risk): "(the server said …)".
 */
export function RiskLine({
  risk,
  reason,
  modelRisk,
  server,
}: {
  risk: string;
  reason: string;
  modelRisk?: string;
  server?: boolean;
}) {
  const level = levelOf(risk);
  const model = modelRisk && RISKS.has(modelRisk) ? modelRisk : undefined;
  const other = model ? levelWord(model) : t('riskLineWithoutRisk');
  return (
    <div
      class={`risk-line risk-${level.toLowerCase()}`}
      title={
        server
          ? t('riskLineTitleServer', levelWord(level), other)
          : t('riskLineTitle', levelWord(level), other)
      }
    >
      <Icon name={riskIcon(level)} />
      <span>
        <span class="risk-level">{levelWord(level)}</span> <span class="risk-whose">{t('riskByRules')}</span>
        {reason ? `: ${reason}` : ''}{' '}
        <span class="risk-model">
          {server
            ? t('riskServerSaid', model ? levelWord(model) : levelWord('UNKNOWN'))
            : model
              ? t('riskModelSaid', levelWord(model))
              : t('riskModelSaidNothing')}
        </span>
      </span>
    </div>
  );
}

/**
 * An action or plan waiting for the user's decision. On a narrow card only the shield shows (the
 * card's border and the approval bar say the rest); the words stay for screen readers and the tooltip.
 */
export function PendingBadge() {
  return (
    <span class="badge pending-badge" title={t('awaitingApproval')}>
      <Icon name="shield" />
      <span class="pending-label">{t('awaitingApproval')}</span>
    </span>
  );
}
