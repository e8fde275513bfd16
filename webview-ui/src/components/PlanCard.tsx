// A task_tracker plan as a checklist. The newest plan of a conversation in plan mode can be
// approved (the conversation switches to act mode with the plan as the next message) or edited
// first, item by item; "Request changes" goes to the message box, where the agent keeps planning.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { LIMITS, type PlanItem } from '../../../src/protocol/messages';
import { arr, contentText, obj, splitThink, str } from '../lib/fields';
import { header, latestPlanId, ranSince, version, type Row } from '../state/store';
import { send } from '../vscode-api';
import { Button } from './Button';
import { Icon } from './Icon';
import { IconButton } from './IconButton';
import { Markdown } from './Markdown';
import { PendingBadge } from './RiskBadge';
import { count, t, tn } from '../lib/text';

type Status = NonNullable<PlanItem['status']>;
interface Task extends PlanItem {
  status: Status;
}

const LOOK: Record<string, { icon: string; label: string }> = {
  done: { icon: 'pass-filled', label: t('planDone') },
  in_progress: { icon: 'circle-large-filled', label: t('planInProgress') },
  todo: { icon: 'circle-large-outline', label: t('planToDo') },
  not_done: { icon: 'circle-large-outline', label: t('planNotDone') },
};

/** Statuses in which the agent is carrying a plan out now. */
const WORKING = new Set(['running', 'waiting_for_confirmation', 'paused']);

/**
 * A step's mark as the log says it stands now: "in progress" only on the newest plan while the
 * agent acts on it; in plan mode nothing runs (to do), and once the run ended an unfinished step
 * is not done (never "in progress" under a finished task).
 */
function shownStatus(status: Status, live: boolean, planMode: boolean): keyof typeof LOOK {
  if (status !== 'in_progress' || live) return status;
  return planMode ? 'todo' : 'not_done';
}

/** Edits survive the row scrolling out of view (rows of the virtual list unmount). */
const drafts = new Map<string, PlanItem[]>();

export function tasksOf(action: unknown): Task[] {
  return arr(obj(action)?.task_list).flatMap((t) => {
    const o = obj(t);
    const title = str(o?.title)?.trim();
    const status = str(o?.status);
    const known: Status = status === 'done' || status === 'in_progress' ? status : 'todo';
    return title ? [{ title, notes: str(o?.notes) ?? '', status: known }] : [];
  });
}

export function PlanCard({ row, tools }: { row: Row; rev: number; tools?: ComponentChildren }) {
  const e = row.event;
  const tasks = tasksOf(e.action);
  const h = header.value;
  const { visible: thought } = splitThink(contentText(e.thought));
  const latest = latestPlanId.value === e.id;
  const live = latest && h !== null && (h.mode ?? 'act') === 'act' && WORKING.has(h.status);
  const approvable =
    h !== null &&
    h.mode === 'plan' &&
    !h.readOnly &&
    h.status !== 'running' &&
    latestPlanId.value === e.id &&
    tasks.length > 0;
  const [draft, setDraftState] = useState<PlanItem[] | undefined>(() => drafts.get(e.id));
  const setDraft = (next: PlanItem[] | undefined) => {
    if (next) drafts.set(e.id, next);
    else drafts.delete(e.id);
    setDraftState(next);
  };
  const editing = approvable && draft !== undefined;
  void version.value; // a later action's result can mark a step done
  const ran = ranSince(e.id);
  const failed = obj(row.result?.observation)?.is_error === true || row.result?.kind === 'AgentErrorEvent';
  const done = tasks.filter((t) => t.status === 'done' || ran.has(t.title.toLowerCase())).length;

  const approve = () => {
    const items = (draft ?? tasks)
      .map((t) => ({
        title: t.title.trim().slice(0, LIMITS.planTitle),
        notes: t.notes.slice(0, LIMITS.planNotes),
        // Only "done" is worth carrying: the agent need not redo what it did while planning.
        ...(t.status === 'done' ? { status: t.status } : {}),
      }))
      .filter((t) => t.title !== '')
      .slice(0, LIMITS.planItems);
    if (!h || items.length === 0) return;
    send({ type: 'approvePlan', conversationId: h.id, tasks: items });
    setDraft(undefined);
  };
  const update = (i: number, patch: Partial<PlanItem>) =>
    setDraft((draft ?? []).map((t, j) => (j === i ? { ...t, ...patch } : t)));

  // A plan a later one replaced is history: its head only, the newest plan shows where things stand.
  if (!latest) {
    return (
      <div class="card plan-card superseded">
        {thought && <Markdown class="thought" text={thought.slice(0, 100_000)} />}
        <div class="card-head">
          <Icon name="checklist" class="tool-icon" />
          <span class="tool-name">{t('plan')}</span>
          <span class="summary" title={t('planLaterReplaced')}>
            {t('planDoneUpdatedBelow', count(done), count(tasks.length))}
          </span>
          {tools}
        </div>
      </div>
    );
  }

  return (
    <div class={`card plan-card${approvable ? ' pending' : ''}`}>
      {thought && <Markdown class="thought" text={thought.slice(0, 100_000)} />}
      <div class="card-head">
        <Icon name="checklist" class="tool-icon" />
        <span class="tool-name">{t('plan')}</span>
        <span class="summary">
          {done > 0
            ? tn(tasks.length, 'planStepsDoneOne', 'planStepsDoneMany', count(done))
            : tn(tasks.length, 'planStepsOne', 'planStepsMany')}
        </span>
        {tools}
        {approvable && (
          <span class="card-badges">
            <PendingBadge />
          </span>
        )}
      </div>
      {editing ? (
        <ol class="plan-items editing" aria-label={t('planStepsEditing')}>
          {draft!.map((step, i) => (
            <li key={i} class="plan-item">
              <div class="plan-edit">
                <input
                  class="plan-title-input"
                  aria-label={t('planStepTitle', i + 1)}
                  maxLength={LIMITS.planTitle}
                  value={step.title}
                  onInput={(ev) => update(i, { title: ev.currentTarget.value })}
                />
                <textarea
                  class="plan-notes-input"
                  aria-label={t('planStepNotes', i + 1)}
                  rows={1}
                  maxLength={LIMITS.planNotes}
                  value={step.notes}
                  onInput={(ev) => update(i, { notes: ev.currentTarget.value })}
                />
              </div>
              <IconButton
                icon="trash"
                label={t('planRemoveStep', i + 1)}
                onClick={() => setDraft(draft!.filter((_, j) => j !== i))}
              />
            </li>
          ))}
        </ol>
      ) : (
        <ol class="plan-items" aria-label={t('planSteps')}>
          {tasks.map((task, i) => {
            // A step whose action ran is done, whatever mark the plan last gave it.
            const ranHere = task.status !== 'done' && ran.has(task.title.toLowerCase());
            const status = ranHere ? 'done' : shownStatus(task.status, live, h?.mode === 'plan');
            const look = LOOK[status] ?? LOOK.todo!;
            return (
              <li key={i} class={`plan-item status-${status}`} data-status={status}>
                <Icon name={look.icon} class="plan-mark" />
                <span class="plan-text">
                  <span class="plan-title">
                    {task.title}
                    <span class="sr-only"> ({look.label})</span>
                  </span>
                  {task.notes.trim() && <span class="plan-notes">{task.notes.trim()}</span>}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {failed && <div class="result-note">{t('planNotAccepted')}</div>}
      {approvable && (
        <div class="plan-actions">
          <Button icon="check" onClick={approve} disabled={editing && draft!.every((t) => !t.title.trim())}>
            {t('approvePlan')}
          </Button>
          {editing ? (
            <>
              <Button
                kind="secondary"
                icon="add"
                onClick={() => setDraft([...draft!, { title: '', notes: '' }])}
                disabled={draft!.length >= LIMITS.planItems}
              >
                {t('addStep')}
              </Button>
              <Button kind="secondary" onClick={() => setDraft(undefined)}>
                {t('discardEdits')}
              </Button>
            </>
          ) : (
            <>
              <Button
                kind="secondary"
                icon="edit"
                onClick={() =>
                  setDraft(tasks.map((t) => ({ title: t.title, notes: t.notes, status: t.status })))
                }
              >
                {t('edit')}
              </Button>
              <Button
                kind="secondary"
                icon="comment"
                onClick={() => document.querySelector<HTMLTextAreaElement>('.composer-input')?.focus()}
              >
                {t('requestChanges')}
              </Button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
