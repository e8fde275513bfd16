// What the process exit code tells a script about the conversation.
import type { ExecutionStatus } from '../../../core/state';

export const EXIT = {
  /** The agent finished (or the command did what it was asked). */
  ok: 0,
  /** Bad usage, a missing directory, a locked conversation, an I/O error... */
  failure: 1,
  /** The agent waits for `approve` or `reject`. */
  waiting: 2,
  /** The agent stopped on an error (LLM down, iteration or budget limit) or got stuck. */
  agentError: 3,
  /** Interrupted with Ctrl+C; the conversation is paused and can be continued. */
  interrupted: 130,
} as const;

/** What `logbook verify` exits with: each finding has its own code, so a script can tell them apart. */
export const VERIFY_EXIT = {
  /** every event verified, signed by you or a signer on your trust list */
  verified: 0,
  /** an event changed, removed, inserted, reordered, spliced from another conversation, or damaged */
  broken: 1,
  /** intact, but some events were never signed when written (an older conversation) */
  unsigned: 3,
  /** intact, but signed events recorded outside the folder are gone: the log was cut back */
  truncated: 4,
  /** intact, but signed by a key that is neither yours nor on your trust list */
  unknownSigner: 5,
} as const;

/** A mistake in how the command was called: the message says what to do instead. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function exitCodeFor(status: ExecutionStatus): number {
  switch (status) {
    case 'finished':
      return EXIT.ok;
    case 'waiting_for_confirmation':
      return EXIT.waiting;
    case 'error':
    case 'stuck':
      return EXIT.agentError;
    case 'paused':
      return EXIT.interrupted;
    default:
      // idle/running after a run means the loop stopped without saying why: not a success.
      return EXIT.failure;
  }
}
