// The security risk of an action. Color sits on the border and icon only, the text stays in the
// foreground color so it is readable in every theme.
import { Icon } from './Icon';

const RISKS = new Set(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN']);

function levelOf(risk: string | undefined): string {
  return risk && RISKS.has(risk) ? risk : 'UNKNOWN';
}

function riskIcon(level: string): string {
  return level === 'HIGH' ? 'warning' : level === 'MEDIUM' ? 'info' : level === 'LOW' ? 'shield' : 'question';
}

/** The risk the model gave an action. */
export function RiskBadge({ risk }: { risk: string | undefined }) {
  const level = levelOf(risk);
  return (
    <span class={`badge risk risk-${level.toLowerCase()}`} title={`Security risk: ${level.toLowerCase()}`}>
      <Icon name={riskIcon(level)} />
      {level}
    </span>
  );
}

/** The risk that counts once the rules had their say, with their reason: "MEDIUM: runs package scripts". */
export function RiskLine({ risk, reason, modelRisk }: { risk: string; reason: string; modelRisk?: string }) {
  const level = levelOf(risk);
  return (
    <div
      class={`risk-line risk-${level.toLowerCase()}`}
      title={`The model rated it ${modelRisk ? modelRisk : 'without a risk'}; the rules rate it ${level}.`}
    >
      <Icon name={riskIcon(level)} />
      <span>
        <span class="risk-level">{level}:</span> {reason}
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
    <span class="badge pending-badge" title="Awaiting approval">
      <Icon name="shield" />
      <span class="pending-label">Awaiting approval</span>
    </span>
  );
}
