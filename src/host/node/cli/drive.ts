// Runs a conversation to its next stop and turns the result into an exit code, for run, approve,
// reject and resolve alike. Ctrl+C, SIGTERM and SIGHUP interrupt the agent: the command in the
// shell is stopped (its whole process group, when the session closes), and the log records the
// result and the pause, so nothing is left in doubt. A second signal quits at once.
import { constants } from 'node:os';
import type { Conversation } from '../../../core/agent/conversation';
import type { ExecutionStatus } from '../../../core/state';
import type { NodeSession } from '../node-session';
import { exitCodeFor } from './exit-codes';
import { note, type OutputMode } from './event-printer';
import type { CliIo, StopSignal } from './io';
import { readSessionInfo } from './session-file';
import type { NodeChildRunner } from '../agents/child-runner';
import { actionWhat } from './event-line';
import { heldRiskLine } from './pending-risk';
import { printableLine } from '../../../core/text/printable';
import { askInPlace } from './ask-in-place';
import { decideInTree } from '../agents/decide-in-tree';
import { pendingEditDiff } from './pending-diff';

export async function driveToStop(
  io: CliIo,
  mode: OutputMode,
  session: Pick<NodeSession, 'conversation' | 'stopCommand'> & Partial<Pick<NodeSession, 'addAllowRule'>>,
  convDir: string,
  /** The delegated agents: one that waits for the user is named with its actions (or asked about). */
  children?: NodeChildRunner,
  /** Ask in place when actions wait (a person at a terminal), in this workspace. */
  inPlace?: { workspace: string },
): Promise<number> {
  const { conversation } = session;
  let interrupting: Promise<void> | undefined;
  let stoppedBy: StopSignal | undefined;
  let onStop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (onStop = resolve));
  const removeHandler = io.onInterrupt((signal) => {
    onStop();
    // The session's exit hook still kills the shell's process group.
    if (interrupting) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    io.err(
      signal === 'SIGINT'
        ? 'Interrupting the agent (Ctrl+C again to quit at once)...'
        : `Received ${signal}: interrupting the agent and stopping its command...`,
    );
    interrupting = stop(session);
  });
  try {
    for (;;) {
      await conversation.run();
      // run() settles before interrupt() has recorded the pause: wait for it, then read the log's status.
      await interrupting;
      if (!inPlace || stoppedBy || conversation.status !== 'waiting_for_confirmation') break;
      const ask = (agent: Conversation, who?: string): Promise<boolean> =>
        askInPlace(
          io,
          {
            conversation: agent,
            workspace: inPlace.workspace,
            addAllowRule: (r) => session.addAllowRule?.(r),
            ...(who ? { who } : {}),
          },
          stopped,
        );
      let answered: boolean;
      if (conversation.awaitingConfirmation().length > 0) answered = await ask(conversation);
      else {
        // A delegated agent waits (at any depth): asked as the main one is, then the main run
        // carries the answer down the chain.
        let unanswered = false;
        const decided =
          children !== undefined &&
          (await decideInTree(conversation, children, async (child) => {
            if (unanswered || child.status !== 'waiting_for_confirmation') return false;
            if (child.awaitingConfirmation().length === 0) return false;
            if (await ask(child, delegatedName(children, child))) return true;
            unanswered = true;
            return false;
          }));
        answered = decided && !unanswered;
      }
      if (!answered || stoppedBy) break;
    }
    await interrupting;
  } finally {
    removeHandler();
  }
  const status: ExecutionStatus = conversation.status;
  const workspace = inPlace?.workspace ?? readSessionInfo(convDir)?.workspace;
  for (const line of outcomeLines(status, conversation, convDir, children, workspace))
    note(io, mode, printableLine(line));
  return stoppedBy && status === 'paused' ? signalExitCode(stoppedBy) : exitCodeFor(status);
}

/**
 * The command first, with Ctrl+C to its process group, while the tool still waits for it: its
 * observation then says how it ended. Then the agent, which records the pause.
 */
async function stop(session: Pick<NodeSession, 'conversation' | 'stopCommand'>): Promise<void> {
  await session.stopCommand().catch(() => undefined);
  await session.conversation.interrupt();
}

/** 128 + the signal's number, as shells report it: 130 for Ctrl+C, 143 for SIGTERM, 129 for SIGHUP. */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

function outcomeLines(
  status: ExecutionStatus,
  c: Conversation,
  dir: string,
  children?: Pick<NodeChildRunner, 'waiting'>,
  workspace?: string,
): string[] {
  const quoted = shellQuote(dir);
  switch (status) {
    case 'finished':
      return c.state.mode === 'plan' && c.state.tasks.length > 0 ? planReadyLines(c, dir) : ['Finished.'];
    case 'waiting_for_confirmation': {
      const held = c.awaitingConfirmation();
      if (held.length === 0 && children?.waiting.size) return childWaitingLines(children, quoted);
      const n = held.length;
      // As the gate rated them, from where the shell is now.
      const risks = new Map(c.heldRisks().map((d) => [d.actionId, d]));
      return [
        `Waiting for confirmation of ${n} action${n === 1 ? '' : 's'}:`,
        ...held.flatMap((a) => {
          const d = risks.get(a.id);
          const line = heldRiskLine(a.summary ?? actionWhat(a), d?.risk ?? 'UNKNOWN', [
            ...(d?.riskReasons ?? []),
            ...(d?.notUndoable ? [d.notUndoable] : []),
          ]);
          // The change an edit would make, so the answer is not given blind.
          const diff = workspace ? pendingEditDiff(a, workspace) : null;
          return [line, ...(diff ? diff.split('\n').map((l) => `    ${l}`) : [])];
        }),
        'Continue with:',
        `  logbook approve ${quoted}`,
        `  logbook reject ${quoted} --reason "..."`,
      ];
    }
    case 'error':
      return [`Stopped with an error: ${c.state.lastError?.message ?? 'unknown error'}`];
    case 'stuck':
      return ['Stopped: the agent is stuck repeating itself.'];
    case 'paused':
      return ['Paused.'];
    default:
      return [`Stopped with status ${status}.`];
  }
}

/** A delegated agent waits: its actions, and that approve or reject on the parent answers them. */
function childWaitingLines(children: Pick<NodeChildRunner, 'waiting'>, quoted: string): string[] {
  const lines: string[] = [];
  for (const w of children.waiting.values()) {
    const n = w.actions.length;
    const risks = new Map(w.risks.map((d) => [d.actionId, d]));
    lines.push(
      `The delegated agent ${w.branch} (${w.folder}) waits for confirmation of ${n} action${n === 1 ? '' : 's'}:`,
    );
    for (const a of w.actions) {
      const d = risks.get(a.id);
      lines.push('  ' + heldRiskLine(a.summary ?? actionWhat(a), d?.risk ?? 'UNKNOWN', d?.riskReasons ?? []));
    }
  }
  return [
    ...lines,
    'Continue with:',
    `  logbook approve ${quoted}`,
    `  logbook reject ${quoted} --reason "..."`,
  ];
}

/** Plan mode ended with a plan: how to approve it, or ask for changes, from the shell. */
function planReadyLines(c: Conversation, dir: string): string[] {
  const n = c.state.tasks.length;
  const ws = readSessionInfo(dir)?.workspace;
  const base = `logbook run${ws ? ` --workspace ${shellQuote(ws)}` : ''} --store ${shellQuote(dir)}`;
  return [
    `Plan ready (${n} step${n === 1 ? '' : 's'}, plan mode: nothing was changed). Approve it and carry it out with:`,
    `  ${base} --mode act`,
    'or ask for changes with:',
    `  ${base} --task "..."`,
  ];
}

/** Quotes a path for the hint lines only when the shell would need it. */
export function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** "The delegated agent main.lead.1 (its folder)" for the child whose actions wait. */
function delegatedName(children: Pick<NodeChildRunner, 'waiting'>, child: Conversation): string {
  const ids = new Set(child.awaitingConfirmation().map((a) => a.id));
  for (const w of children.waiting.values())
    if (w.actions.some((a) => ids.has(a.id))) return `The delegated agent ${w.branch} (${w.folder})`;
  return 'A delegated agent';
}
