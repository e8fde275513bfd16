// In a module of its own so the report and the descriptions can name the sandbox's state without
// importing the sandbox that decides it.
import type { L10n } from '../../../core/text/l10n';
import type { SocketFilterMissing } from './unix-socket-filter';

/** How commands run now; what the chat, `logbook run` and the diagnostics say. */
export type SandboxState =
  | {
      kind: 'on';
      bwrap: string;
      version: string;
      /** Set where commands can still reach Unix sockets outside: why (see unix-socket-filter.ts). */
      socketFilterMissing?: SocketFilterMissing;
      /** The user turned the filter off (`logbook.sandbox.allowUnixSockets`): commands make sockets freely. */
      socketsAllowed?: true;
    }
  | { kind: 'off' }
  | {
      kind: 'unavailable';
      required: boolean;
      /** In English, as the log records it. */
      problem: string;
      fix: string;
      /** The same in a host's words (the editor's language). */
      say?: (l10n: L10n) => { problem: string; fix: string };
    };
