// The log's `sandbox` update when commands are not contained (the user turned the sandbox off, or
// none can start here): what that means, the fix, and the diagnostics. Said once, where it was
// recorded; the quiet "on" line is Notice's.
import { str } from '../lib/fields';
import type { Row } from '../state/store';
import { send } from '../vscode-api';
import { Button } from './Button';
import { Icon } from './Icon';
import { t } from '../lib/text';

/** Whether a row is a `sandbox` update that warns (any state but "on"). */
export function isSandboxWarning(row: Row): boolean {
  const e = row.event;
  if (e.kind !== 'ConversationStateUpdateEvent' || str(e.key) !== 'sandbox') return false;
  return str((e.value as Record<string, unknown> | null)?.['state']) !== 'on';
}

export function SandboxWarning({ row }: { row: Row }) {
  const value = (row.event.value ?? {}) as Record<string, unknown>;
  const required = value['required'] === true;
  const title = required ? t('sandboxRequired') : t('sandboxOff');
  const fix = str(value['fix']);
  return (
    <div class="sandbox-warning" role="group" aria-label={title}>
      <div class="sandbox-warning-title">
        <Icon name="shield" />
        <span>{title}</span>
      </div>
      <p class="sandbox-warning-text">{(str(value['message']) ?? '').slice(0, 2_000)}</p>
      {fix && (
        <p class="sandbox-warning-text">
          <span class="sandbox-warning-label">{t('sandboxFix')}</span>
          {fix.slice(0, 2_000)}
        </p>
      )}
      <div class="sandbox-warning-actions">
        <Button kind="secondary" icon="info" onClick={() => send({ type: 'showSandboxStatus' })}>
          {t('showSandboxStatus')}
        </Button>
      </div>
    </div>
  );
}
