// Confirm / Reject for the pending batch (header.pendingActionIds), pinned above the composer so it
// is always in reach. Each intent names exactly that batch; the bar hides as soon as the user decides
// and returns only for a different batch (or if the host has not moved on after a while).
import { signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '../../../src/protocol/messages';
import { commandPrefix } from '../lib/command-prefix';
import { obj, str } from '../lib/fields';
import { t } from '../lib/text';
import { actionRow, header, version } from '../state/store';
import { send } from '../vscode-api';
import { toolIcon } from '../lib/tool-icons';
import { Button } from './Button';
import { Icon } from './Icon';
import { InlineInput } from './InlineInput';
import { RejectReasonInput } from './RejectReasonInput';

/** The batch the user already answered (ids joined), so its buttons do not come back. */
const decided = signal<string | null>(null);
const RETRY_AFTER_MS = 15_000;

type Mode = { t: 'ask' } | { t: 'reject' } | { t: 'allow'; actionId: string; prefix: string };

function describe(actionId: string): { tool: string; text: string; command?: string } {
  const e = actionRow(actionId)?.event;
  if (!e) return { tool: t('toolFallback'), text: t('anAction') };
  const action = obj(e.action);
  const tool = str(e.tool_name) ?? t('toolFallback');
  const command = tool === 'terminal' ? str(action?.command) : undefined;
  const text = command ?? str(e.summary) ?? str(action?.path) ?? tool;
  return { tool, text: text.length > 200 ? `${text.slice(0, 200)}…` : text, command };
}

export function ApprovalBar({ focusComposer }: { focusComposer: () => void }) {
  const h = header.value;
  void version.value; // the pending actions' details may arrive after the header
  const pending = h?.pendingActionIds ?? [];
  const key = pending.join('\n');
  const [mode, setMode] = useState<Mode>({ t: 'ask' });
  const rejectButton = useRef<HTMLButtonElement>(null);
  const refocusReject = useRef(false);
  // After "Cancel" the Reject button is back in the DOM: focus it before the next keystroke.
  useLayoutEffect(() => {
    if (refocusReject.current && mode.t === 'ask') {
      refocusReject.current = false;
      rejectButton.current?.focus();
    }
  });

  useEffect(() => setMode({ t: 'ask' }), [key]);
  useEffect(() => {
    if (decided.value !== key) return;
    const t = setTimeout(() => {
      if (decided.value === key) decided.value = null;
    }, RETRY_AFTER_MS);
    return () => clearTimeout(t);
  }, [key, decided.value]);

  if (!h || h.readOnly || pending.length === 0 || decided.value === key) return null;
  const conversationId = h.id;
  const done = () => {
    decided.value = key;
    focusComposer();
  };
  const items = pending.map((id) => ({ id, ...describe(id) }));
  // Logbook's allow rules hold no sway over what an agent-server asks: no "Always allow" there.
  const remote = h.model?.provider === 'remote';

  return (
    <section class="approval" aria-label={t('approvalNeeded')}>
      <div class="approval-title" role="status">
        <Icon name="shield" />
        <span>{pending.length === 1 ? t('allowThisAction') : t('allowTheseActions', pending.length)}</span>
      </div>
      <ul class="approval-list">
        {items.map((it) => (
          <li key={it.id}>
            <Icon name={toolIcon(it.tool)} />
            <code class="approval-text" title={it.text}>
              {it.text}
            </code>
            {it.command !== undefined && mode.t === 'ask' && !remote && (
              <button
                type="button"
                class="link-button"
                aria-label={t('alwaysAllowLike', it.text.slice(0, 80))}
                onClick={() =>
                  setMode({ t: 'allow', actionId: it.id, prefix: commandPrefix(it.command ?? '') })
                }
              >
                {t('alwaysAllow')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {mode.t === 'reject' ? (
        <RejectReasonInput
          conversationId={conversationId}
          actionIds={pending}
          placeholder={t('rejectReasonExample')}
          onSent={done}
          onCancel={() => {
            refocusReject.current = true;
            setMode({ t: 'ask' });
          }}
        />
      ) : mode.t === 'allow' ? (
        <InlineInput
          label={t('alwaysAllowPrefix')}
          initial={mode.prefix}
          submitLabel={t('allowAndRun')}
          submitIcon="check"
          required
          maxLength={LIMITS.commandPrefix}
          onSubmit={(prefix) => {
            send({
              type: 'alwaysAllow',
              conversationId,
              actionId: mode.actionId,
              commandPrefix: prefix.trim(),
            });
            done();
          }}
          onCancel={() => setMode({ t: 'ask' })}
        />
      ) : (
        <div class="approval-actions">
          <Button
            icon="check"
            onClick={() => {
              send({ type: 'approve', conversationId, actionIds: pending });
              done();
            }}
          >
            {t('confirm')}
          </Button>
          <Button
            kind="secondary"
            icon="close"
            buttonRef={rejectButton}
            onClick={() => setMode({ t: 'reject' })}
          >
            {t('rejectEllipsis')}
          </Button>
        </div>
      )}
    </section>
  );
}
