// Under a `delegate` card: each agent it handed a task to, as the header lists them. The head says
// which agent, its branch, the model it runs on, its state and cost, and the task; its steps (tool calls with their
// results, its messages) open below it, collapsed until asked for, and follow it live. A child that
// waits for the user shows its own Confirm / Reject, which answer exactly its batch. A child's own
// `delegate` steps nest their agents the same way; a child with an agent waiting below it opens
// by itself, so the question deep down is in sight.
import { useState } from 'preact/hooks';
import type { ChildAgent } from '../../../src/protocol/messages';
import { contentText, obj, str } from '../lib/fields';
import { formatCost, statusLook } from '../lib/format';
import { childOpenKey, childSteps, childVersion, type ChildStep, waitsBelow } from '../state/children';
import { header, isOpen, toggleOpen, version } from '../state/store';
import { send } from '../vscode-api';
import { toolIcon } from '../lib/tool-icons';
import { Button } from './Button';
import { Icon } from './Icon';
import { RejectReasonInput } from './RejectReasonInput';
import { RiskBadge } from './RiskBadge';
import { count, t } from '../lib/text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';

/** Whether the header lists agents for this `delegate` call (its card then shows them, not its raw arguments). */
export function hasDelegatedAgents(actionId: string): boolean {
  return (header.value?.children ?? []).some((c) => c.parentEventId === actionId);
}

export function DelegatedAgents({ actionId }: { actionId: string }) {
  const h = header.value;
  const children = (h?.children ?? []).filter((c) => c.parentEventId === actionId);
  if (!h || !children.length) return null;
  return (
    <ul class="delegated" aria-label={t('delegatedAgents')}>
      {children.map((c) => (
        <DelegatedAgent key={c.conversationId} child={c} conversationId={h.id} readOnly={h.readOnly} />
      ))}
    </ul>
  );
}

function DelegatedAgent({
  child,
  conversationId,
  readOnly,
}: {
  child: ChildAgent;
  conversationId: string;
  readOnly: boolean;
}) {
  void childVersion.value;
  void version.value; // toggling it open
  const steps = childSteps(child.conversationId);
  const asksBelow = waitsBelow(child.conversationId, header.value?.children ?? []);
  const waits = child.pendingActionIds.length > 0 || asksBelow;
  const look = statusLook(waits ? 'waiting_for_confirmation' : child.status);
  const openId = childOpenKey(child.conversationId);
  const open = isOpen(openId, asksBelow);
  const bodyId = `${openId}:steps`;
  return (
    <li
      class={`delegated-agent${waits ? ' pending' : ''}`}
      data-branch={child.branch}
      data-child={child.conversationId}
    >
      <button
        type="button"
        class="delegated-head"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => toggleOpen(openId, undefined, asksBelow)}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        <Icon name="hubot" />
        <span class="delegated-name">{child.agentName}</span>
        <span class="delegated-where">
          <span class="delegated-branch">{child.branch}</span>
          {child.model && <span class="delegated-model">{child.model}</span>}
        </span>
        <span class={`delegated-status tone-${look.tone}`}>
          <Icon name={look.icon} spin={look.tone === 'busy'} />
          <span class="delegated-status-label">{look.label}</span>
        </span>
        <span class="delegated-cost" title={t('agentTokens', count(child.tokens))}>
          {formatCost(child.cost)}
        </span>
      </button>
      <div class="delegated-task" title={child.task}>
        {child.task}
      </div>
      {child.narrowed?.map((n) => (
        <div class="delegated-narrowed" key={n}>
          {`${child.agentName} ${n}`}
        </div>
      ))}
      {open && (
        <ol class="delegated-steps" id={bodyId} aria-label={t('stepsOf', child.branch)}>
          {steps.length ? (
            steps.map((s) => <Step key={s.event.id} step={s} child={child} />)
          ) : (
            <li class="muted">{t('noStepsYet')}</li>
          )}
        </ol>
      )}
      {!readOnly && child.pendingActionIds.length > 0 && (
        <ChildApproval child={child} conversationId={conversationId} steps={steps} />
      )}
    </li>
  );
}

function Step({ step, child }: { step: ChildStep; child: ChildAgent }) {
  const e = step.event;
  if (e.kind !== 'ActionEvent') {
    const text = e.kind === 'MessageEvent' ? contentText(obj(e.llm_message)?.content) : str(e.error);
    return <li class="delegated-step message">{(text ?? '').slice(0, 2_000)}</li>;
  }
  const tool = str(e.tool_name) ?? t('toolFallback');
  // The agents this child delegated to, under its delegate step.
  if (tool === 'delegate' && hasDelegatedAgents(e.id))
    return (
      <li class="delegated-nested" aria-label={t('agentsDelegatedBy', child.branch)}>
        <DelegatedAgents actionId={e.id} />
      </li>
    );
  const pending = child.pendingActionIds.includes(e.id);
  const risk = child.pendingRisks.find((r) => r.actionId === e.id)?.risk ?? str(e.security_risk);
  const r = step.result;
  const outcome = !r
    ? pending
      ? 'waiting'
      : 'running'
    : r.kind === 'UserRejectObservation'
      ? 'rejected'
      : r.kind === 'AgentErrorEvent' || obj(r.observation)?.is_error === true
        ? 'error'
        : 'done';
  return (
    <li class={`delegated-step${pending ? ' pending' : ''}`} data-outcome={outcome}>
      <Icon name={toolIcon(tool)} />
      <span class="delegated-tool">{tool}</span>
      <span class="delegated-what" title={describe(e)}>
        {describe(e)}
      </span>
      {pending && <RiskBadge risk={risk} />}
      <span class={`delegated-outcome outcome-${outcome}`} title={t(OUTCOME_WORDS[outcome])}>
        <Icon name={OUTCOME_ICONS[outcome]} spin={outcome === 'running'} />
        <span class="delegated-outcome-label">{t(OUTCOME_WORDS[outcome])}</span>
      </span>
    </li>
  );
}

const OUTCOME_ICONS = {
  waiting: 'shield',
  running: 'loading',
  rejected: 'close',
  error: 'error',
  done: 'pass',
} as const;

const OUTCOME_WORDS: Record<keyof typeof OUTCOME_ICONS, WebviewTextKey> = {
  waiting: 'outcomeWaiting',
  running: 'outcomeRunning',
  rejected: 'outcomeRejected',
  error: 'outcomeError',
  done: 'outcomeDone',
};

function describe(e: ChildStep['event']): string {
  const a = obj(e.action);
  return (
    str(a?.command && str(e.tool_name) === 'terminal' ? a.command : undefined) ??
    str(e.summary) ??
    str(a?.path) ??
    str(a?.message) ??
    ''
  );
}

/** Confirm / Reject for exactly the child's waiting batch. */
function ChildApproval({
  child,
  conversationId,
  steps,
}: {
  child: ChildAgent;
  conversationId: string;
  steps: ChildStep[];
}) {
  const [rejecting, setRejecting] = useState(false);
  const [sentFor, setSentFor] = useState<string | null>(null);
  const key = child.pendingActionIds.join('\n');
  if (sentFor === key) return null;
  const actionIds = child.pendingActionIds;
  const what = actionIds
    .map((id) => steps.find((s) => s.event.id === id))
    .map((s) => (s ? `${str(s.event.tool_name) ?? t('toolFallback')} ${describe(s.event)}` : t('anAction')))
    .join(', ');
  return (
    <div class="delegated-approval" role="group" aria-label={t('childAsksToRun', child.branch, what)}>
      <span class="delegated-ask">
        <Icon name="shield" /> {t('childAsks', child.agentName)} <code>{what.slice(0, 200)}</code>
      </span>
      {rejecting ? (
        <RejectReasonInput
          conversationId={conversationId}
          actionIds={actionIds}
          placeholder={t('childRejectExample')}
          onSent={() => setSentFor(key)}
          onCancel={() => setRejecting(false)}
        />
      ) : (
        <div class="approval-actions">
          <Button
            icon="check"
            label={t('confirmChild', child.branch)}
            onClick={() => {
              send({ type: 'approve', conversationId, actionIds });
              setSentFor(key);
            }}
          >
            {t('confirm')}
          </Button>
          <Button
            kind="secondary"
            icon="close"
            label={t('rejectChild', child.branch)}
            onClick={() => setRejecting(true)}
          >
            {t('rejectEllipsis')}
          </Button>
        </div>
      )}
    </div>
  );
}
