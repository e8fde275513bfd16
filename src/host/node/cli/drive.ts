// Runs a conversation to its next stop and turns the result into an exit code, for run, approve
// and reject alike. Ctrl+C interrupts the agent (the log records it as paused); a second one quits.
import type { Conversation } from '../../../core/agent/conversation';
import type { ExecutionStatus } from '../../../core/state';
import { EXIT, exitCodeFor } from './exit-codes';
import { note, type OutputMode } from './event-printer';
import type { CliIo } from './io';

export async function driveToStop(
  io: CliIo,
  mode: OutputMode,
  conversation: Conversation,
  convDir: string,
): Promise<number> {
  let interrupting: Promise<void> | undefined;
  const removeHandler = io.onInterrupt(() => {
    if (interrupting) process.exit(EXIT.interrupted);
    io.err('Interrupting the agent (Ctrl+C again to quit at once)...');
    interrupting = conversation.interrupt();
  });
  try {
    await conversation.run();
    // run() settles before interrupt() has recorded the pause: wait for it, then read the log's status.
    await interrupting;
  } finally {
    removeHandler();
  }
  const status: ExecutionStatus = conversation.status;
  for (const line of outcomeLines(status, conversation, convDir)) note(io, mode, line);
  return exitCodeFor(status);
}

function outcomeLines(status: ExecutionStatus, c: Conversation, dir: string): string[] {
  const quoted = shellQuote(dir);
  switch (status) {
    case 'finished':
      return ['Finished.'];
    case 'waiting_for_confirmation': {
      const n = c.awaitingConfirmation().length;
      return [
        `Waiting for confirmation of ${n} action${n === 1 ? '' : 's'}. Continue with:`,
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

/** Quotes a path for the hint lines only when the shell would need it. */
function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
