// What `show` reports: the derived state in a stable snake_case JSON shape, and as text.
import type { ActionEvent } from '../../../core/events';
import { type ConversationState, type ExecutionStatus, statusForReader } from '../../../core/state';
import { actionWhat } from './event-line';
import { resolveHint } from './in-doubt';
import { heldRisk } from './pending-risk';
import { type RemoteOrigin, remoteRisk } from '../remote/remote-risk';
import { pendingEditDiff } from './pending-diff';
import { printableLine } from '../../../core/text/printable';
import { formatCost, plural } from '../../../core/format/counts';

export interface PendingActionReport {
  id: string;
  tool: string;
  summary: string;
  /** The risk it is held at: the model's rating and the rules', the higher. */
  risk: string;
  /** The model's own security_risk. */
  model_risk: string;
  /** Why the rules rate it so (where a path leads, what a command does). */
  reasons: string[];
  tool_call_id: string;
  /**
   * A file edit's change as a unified diff against the file as it is now; null for other actions,
   * an edit that would fail, or a past state (`show --at`), whose files are not the ones now.
   */
  diff: string | null;
  /**
   * For an action an agent-server holds: the server's own rating and Logbook's (its rules, judged
   * against the working folder on the server's machine). `risk` and `reasons` are then Logbook's.
   */
  remote: { server: string; server_risk: string; logbook_risk: string } | null;
}

export interface StateReport {
  id: string;
  dir: string;
  status: string;
  /** Why `status` is not the log's own (the process that ran it is gone); null when it is. */
  interrupted: string | null;
  title: string | null;
  event_count: number;
  corrupt_records: number;
  iteration: number;
  created_at: string | null;
  updated_at: string | null;
  workspace: string | null;
  pending_actions: PendingActionReport[];
  /** Pending actions that started before a crash with no recorded result. */
  in_doubt: string[];
  /** plan: the agent only reads and answers with a plan; act: it may change things. */
  mode: ConversationState['mode'];
  tasks: ConversationState['tasks'];
  metrics: ConversationState['metrics'];
  /**
   * The latest error the log records; `current` is false when the conversation went on after it
   * (a tool call that failed, then more steps; an error, then a run that finished).
   */
  last_error: (NonNullable<ConversationState['lastError']> & { current: boolean }) | null;
  warnings: string[];
}

export function stateReport(
  state: ConversationState,
  /** The ActionEvents of the pending actions, by id. */
  actions: ReadonlyMap<string, ActionEvent>,
  extra: {
    id: string;
    dir: string;
    workspace: string | null;
    corrupt: number;
    diffs?: boolean;
    remote?: RemoteOrigin;
  },
): StateReport {
  return {
    id: extra.id,
    dir: extra.dir,
    status: state.status,
    interrupted: null,
    title: state.title,
    event_count: state.eventCount,
    corrupt_records: extra.corrupt,
    iteration: state.iteration,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    workspace: extra.workspace,
    pending_actions: state.pendingActions.map((p) => {
      const a = actions.get(p.actionId);
      const origin = extra.remote;
      const rr =
        a && origin ? remoteRisk(a as unknown as Record<string, unknown>, origin.working_dir) : undefined;
      const held = rr
        ? { risk: rr.logbook, modelRisk: rr.server, reasons: rr.reasons }
        : a
          ? heldRisk(a, extra.workspace, state.toolRatings)
          : undefined;
      return {
        id: p.actionId,
        tool: p.toolName,
        // The model's summary when it gave one; else what the action does (command, file...).
        summary: a ? (a.summary ?? actionWhat(a)) : '',
        risk: held?.risk ?? 'UNKNOWN',
        model_risk: held?.modelRisk ?? 'UNKNOWN',
        reasons: held?.reasons ?? [],
        tool_call_id: p.toolCallId,
        // A remote action's files are on the server's machine: no local diff of them.
        diff: a && extra.diffs && !origin ? pendingEditDiff(a, extra.workspace) : null,
        remote:
          rr && origin ? { server: origin.server, server_risk: rr.server, logbook_risk: rr.logbook } : null,
      };
    }),
    in_doubt: state.inDoubt,
    mode: state.mode,
    tasks: state.tasks,
    metrics: state.metrics,
    last_error: state.lastError ? { ...state.lastError, current: state.status === 'error' } : null,
    warnings: state.warnings,
  };
}

/** The report as a reader sees it: a log left `running` by a process that is gone is paused, interrupted. */
export function withWriterLiveness(r: StateReport, writerAlive: boolean): StateReport {
  const seen = statusForReader(r.status as ExecutionStatus, writerAlive);
  return { ...r, status: seen.status, interrupted: seen.interrupted };
}

/** The report as lines of text; the model's and tools' text (summaries, titles, errors) escaped. */
export function reportLines(r: StateReport): string[] {
  return reportText(r).map(printableLine);
}

function reportText(r: StateReport): string[] {
  const t = r.metrics.total;
  const lines = [
    `conversation ${r.id}${r.title ? `: ${r.title}` : ''}`,
    `  dir        ${r.dir}`,
    ...(r.workspace ? [`  workspace  ${r.workspace}`] : []),
    `  status     ${r.status}${r.interrupted ? ` (${r.interrupted})` : ''}`,
    `  mode       ${r.mode}${r.mode === 'plan' ? ' (the agent only reads and answers with a plan)' : ''}`,
    `  events     ${r.event_count}${r.corrupt_records ? ` (${r.corrupt_records} unreadable)` : ''}, ${plural(r.iteration, 'agent step')}`,
    `  tokens     ${t.promptTokens} prompt, ${t.completionTokens} completion, ${plural(t.calls, 'call')}, ${formatCost(t.cost)}`,
  ];
  if (r.last_error?.current) lines.push(`  last error ${r.last_error.kind}: ${r.last_error.message}`);
  else if (r.last_error)
    lines.push(
      `  past error ${r.last_error.kind}: ${r.last_error.message} (the conversation went on after it)`,
    );
  if (r.pending_actions.length) {
    lines.push('pending actions:');
    for (const p of r.pending_actions) {
      const doubt = r.in_doubt.includes(p.id) ? ' [started before a crash, result unknown]' : '';
      const why = p.reasons.length > 0 ? `: ${p.reasons.join('; ')}` : '';
      const risk = p.remote
        ? `risk (server) ${p.remote.server_risk}; risk (Logbook) ${p.remote.logbook_risk}${why}`
        : `risk ${p.risk}${why}`;
      lines.push(`  ${p.id}  ${p.tool}: ${p.summary} (${risk})${doubt}`);
      if (p.diff) for (const l of p.diff.split('\n')) lines.push(`    ${printableLine(l)}`);
    }
    if (r.in_doubt.length) lines.push(`decide on the actions in doubt: ${resolveHint(r.dir)}`);
  }
  if (r.tasks.length) {
    lines.push('tasks:');
    for (const task of r.tasks) lines.push(`  [${task.status}] ${task.title}`);
  }
  return lines;
}
