// What the user decided about a worktree task's change: a hunk or a file accepted as it is or taken
// back, the rest applied, the task discarded. Each decision is recorded in the task's own signed log, as a
// ConversationStateUpdateEvent under TASK_DECISION_KEY, beside the commit it made on the branch,
// so the log alone says what became of the task's work and where that was decided. This module
// imports nothing: the CLI, the editor and the webview read the same record.

export const TASK_DECISION_KEY = 'task_decision';

export type TaskDecisionKind =
  'accept_hunk' | 'accept_file' | 'reject_hunk' | 'reject_file' | 'apply' | 'discard';

export interface TaskDecision {
  decision: TaskDecisionKind;
  task: string;
  branch: string;
  /** Where it was decided: `logbook review`/`apply`/`discard`, or the editor. */
  via: 'cli' | 'editor';
  /** The file a review decision is about (relative to the worktree). */
  path?: string;
  /** The hunk's header line (`@@ -3,2 +3,4 @@`), as the review listed it. */
  hunk?: string;
  /**
   * The rejection's commit on the branch, apply's merge commit, or the branch's commit an
   * acceptance was made on (an acceptance changes nothing: this says which version was accepted).
   */
  commit?: string;
  /** What apply did: merged, found nothing to bring, or stopped on conflicts. */
  outcome?: 'merged' | 'nothing' | 'conflict';
  /** The working tree apply merged into. */
  into?: string;
  /** The files apply merged, or those it stopped on. */
  files?: string[];
  /** The decision in words, as the chat shows it (taskDecisionText when it was recorded). */
  summary?: string;
}

const KINDS: readonly string[] = [
  'accept_hunk',
  'accept_file',
  'reject_hunk',
  'reject_file',
  'apply',
  'discard',
];

export function isTaskDecision(v: unknown): v is TaskDecision {
  if (!v || typeof v !== 'object') return false;
  const d = v as Record<string, unknown>;
  return KINDS.includes(String(d.decision)) && typeof d.task === 'string' && typeof d.branch === 'string';
}

/** The decision in one English sentence: `logbook show` prints it, the record keeps it for the chat. */
export function taskDecisionText(d: TaskDecision): string {
  const by = d.via === 'cli' ? 'at the terminal' : 'in the editor';
  const commit = d.commit ? ` (commit ${d.commit.slice(0, 10)})` : '';
  switch (d.decision) {
    case 'accept_hunk':
      return `You accepted a hunk of ${d.path ?? '?'}${d.hunk ? ` ${d.hunk}` : ''} ${by}${at(d)}`;
    case 'accept_file':
      return `You accepted every change to ${d.path ?? '?'} ${by}${at(d)}`;
    case 'reject_hunk':
      return `You rejected a hunk of ${d.path ?? '?'}${d.hunk ? ` ${d.hunk}` : ''} ${by}${commit}`;
    case 'reject_file':
      return `You rejected every change to ${d.path ?? '?'} ${by}${commit}`;
    case 'apply':
      return d.outcome === 'conflict'
        ? `You applied ${d.branch} ${by}; it stopped on conflicts in ${(d.files ?? []).join(', ')}`
        : d.outcome === 'nothing'
          ? `You applied ${d.branch} ${by}; it held nothing new`
          : `You applied ${d.branch} ${by}: ${(d.files ?? []).length} file(s) merged${commit}`;
    case 'discard':
      return `You discarded task ${d.task} ${by}: its worktree and branch are removed, this log is kept`;
  }
}

/** The branch's commit an acceptance was made on, in words. */
function at(d: TaskDecision): string {
  return d.commit ? ` (as on commit ${d.commit.slice(0, 10)})` : '';
}

/** `d` with its summary, as it is recorded. */
export function withSummary(d: TaskDecision): TaskDecision {
  return { ...d, summary: taskDecisionText(d) };
}
