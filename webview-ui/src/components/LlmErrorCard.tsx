// A run that stopped because the model call failed after its retries: what happened, the endpoint,
// the setting that fixes it, and Retry / Open Settings while it is the conversation's current error.
import { llmFailureHelp } from '../lib/llm-failure';
import { str } from '../lib/fields';
import { header, rows, type Row, version } from '../state/store';
import { send } from '../vscode-api';
import { Button } from './Button';
import { Icon } from './Icon';
import { t } from '../lib/text';

/** Only the newest error of a conversation still in error can be retried from its card. */
function isCurrentError(row: Row): boolean {
  void version.value; // re-check when rows arrive
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.event.kind === 'ConversationErrorEvent') return rows[i] === row;
  }
  return false;
}

export function LlmErrorCard({ row }: { row: Row }) {
  const code = str(row.event['code']) ?? '';
  const detail = str(row.event['detail']) ?? '';
  const help = llmFailureHelp(code, detail);
  const h = header.value;
  const actionable = h !== null && !h.readOnly && h.status === 'error' && isCurrentError(row);
  return (
    <div class="llm-error" role="group" aria-label={help.title}>
      <div class="llm-error-title">
        <Icon name="error" />
        <span>{help.title}</span>
      </div>
      <p class="llm-error-detail">{detail.slice(0, 2_000)}</p>
      <p class="llm-error-hint">
        {help.hint} <code>{help.setting}</code>
      </p>
      {actionable && (
        <div class="llm-error-actions">
          <Button icon="refresh" onClick={() => send({ type: 'resume', conversationId: h.id })}>
            {t('retry')}
          </Button>
          {help.apiKey && (
            <Button kind="secondary" icon="key" onClick={() => send({ type: 'setApiKey' })}>
              {t('setApiKey')}
            </Button>
          )}
          <Button
            kind="secondary"
            icon="settings-gear"
            onClick={() => send({ type: 'openSettings', setting: help.setting })}
          >
            {t('openSettings')}
          </Button>
        </div>
      )}
    </div>
  );
}
