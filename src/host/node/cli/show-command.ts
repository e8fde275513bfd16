// `logbook show`: the state derived from a conversation's log, read without taking its lock, from
// the newest snapshot plus the events after it (read-state.ts). With --at ID: the state right after
// that event (state-at.ts), as it was then.
import { type HookRunRecord } from '../../../core/hooks/hook-runner';
import { printableLine } from '../../../core/text/printable';
import { hookRunsLines, recordedHookRuns } from './hooks-report';
import { hasLiveWriter } from '../../../core/log';
import { chainSigners } from '../../../core/signing';
import { nonEmpty, parseCommandArgs } from './args';
import { readStateAt } from './state-at';
import { indexNote } from './event-ref';
import {
  assertConversationDir,
  conversationId,
  conversationWorkspace,
  openReadOnly,
} from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { type ReadState, readState } from './read-state';
import { withLostEvents, withLostLines } from './lost-report';
import { reportLines, stateReport, withWriterLiveness } from './state-report';
import { type RemoteOrigin, readRemoteOrigin } from '../remote/remote-risk';
import { agentsLines, agentsReport } from './agents-report';
import { recordedTaskDecisions, taskDecisionLines } from './task-decisions-report';
import type { TaskDecision } from '../../../core/worktrees/task-decision';

export async function showCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('show', argv, {
    json: { type: 'boolean' },
    at: { type: 'string' },
    index: { type: 'string' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.show);
    return EXIT.ok;
  }
  const { dir, dirArg } = conversationDirArg('show', positionals, io);
  const byIndex = nonEmpty('show', 'index', values.index);
  if (byIndex !== undefined && values.at !== undefined)
    throw new UsageError('logbook show: give --at ID or --index N, not both.');
  if (byIndex !== undefined && !/^\d+$/.test(byIndex.trim()))
    throw new UsageError(`logbook show: --index takes an event index (0, 1, ...), not "${byIndex}".`);
  const at = byIndex !== undefined ? `#${byIndex.trim()}` : nonEmpty('show', 'at', values.at);
  assertConversationDir(dir);
  const id = conversationId(dir);
  if (at !== undefined) return showAt(io, dir, dirArg, id, at, values.json === true);
  // Before reading: a run that ends while we read is then reported as it ended, not as interrupted.
  const writerAlive = hasLiveWriter(dir);
  const store = await openReadOnly(dir);
  let read: ReadState;
  let hookRuns: HookRunRecord[];
  let hookFrom: number;
  let decisions: TaskDecision[];
  try {
    read = await readState(store, id);
    hookFrom = read.fromSnapshot ?? 0;
    hookRuns = await recordedHookRuns(store, hookFrom);
    decisions = await recordedTaskDecisions(store, hookFrom);
  } finally {
    await store.close();
  }
  const report = stateReport(read.state, read.actions, {
    id,
    dir,
    workspace: conversationWorkspace(dir),
    corrupt: read.corrupt,
    diffs: true,
    ...remoteOf(dir),
  });
  const seen = withLostEvents(withWriterLiveness(report, writerAlive), store, dir);
  // Who signed it, as signatures.log names them; `logbook verify` checks the signatures.
  const signers = chainSigners(dir);
  const agents = await agentsReport(dir);
  if (values.json)
    io.out(JSON.stringify({ ...seen, signers, agents, hook_runs: hookRuns, task_decisions: decisions }));
  else {
    const lines = withLostLines(reportLines(seen), seen);
    const at = lines.findIndex((l) => l.startsWith('  tokens'));
    lines.splice(at + 1, 0, `  signed by  ${signers.length > 0 ? signers.join(', ') : 'nobody (unsigned)'}`);
    lines.push(...agentsLines(agents));
    lines.push(...hookRunsLines(hookRuns, hookFrom).map(printableLine));
    lines.push(...taskDecisionLines(decisions, hookFrom).map(printableLine));
    for (const line of lines) io.out(line);
  }
  return EXIT.ok;
}

/** The state right after one event: what the log said then (no liveness, no losses found since). */
async function showAt(
  io: CliIo,
  dir: string,
  dirArg: string,
  id: string,
  ref: string,
  json: boolean,
): Promise<number> {
  const store = await openReadOnly(dir);
  let read;
  try {
    read = await readStateAt(store, id, ref, dirArg);
  } finally {
    await store.close();
  }
  const report = stateReport(read.state, read.actions, {
    id,
    dir,
    workspace: conversationWorkspace(dir),
    corrupt: read.corrupt,
    ...remoteOf(dir),
  });
  // A bare number was read as an index: said on stderr, so --json output stays one document.
  const note = indexNote(ref, read.ref);
  if (note) io.err(note);
  if (json) {
    io.out(JSON.stringify({ ...report, at: { ...read.at, read_as: read.ref.readAs } }));
    return EXIT.ok;
  }
  const lines = reportLines(report);
  lines.splice(1, 0, `  at event   ${read.at.index} (${read.at.id}, ${read.at.timestamp})`);
  for (const line of lines) io.out(line);
  return EXIT.ok;
}

/** A remote conversation's origin (its held actions are rated against the server's folder). */
function remoteOf(dir: string): { remote?: RemoteOrigin } {
  const remote = readRemoteOrigin(dir);
  return remote ? { remote } : {};
}
