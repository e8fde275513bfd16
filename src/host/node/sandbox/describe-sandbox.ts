// The words for how commands run: one place, so the chat, `logbook run` and the diagnostics
// command say the same thing.
import type { SandboxNotice } from '../../../core/state';
import type { SandboxState } from './sandbox-state';
import type { SocketFilterMissing } from './unix-socket-filter';
import { ENGLISH, type L10n } from '../../../core/text/l10n';

export interface SandboxDescription {
  /** One line: what holds the boundary. */
  headline: string;
  /** What to do about it, when something is wrong. */
  fix?: string;
  /** Whether this is a warning the user should see once, prominently. */
  warn: boolean;
}

/** `l10n`: the host's words, for what a person reads (the log's notice is always English). */
export function describeSandbox(state: SandboxState, l10n: L10n = ENGLISH): SandboxDescription {
  switch (state.kind) {
    case 'on': {
      const headline = l10n.t(
        'Commands run in a sandbox ({0}): only the workspace is writable, secrets are hidden, the network is closed but for allowed hosts.',
        state.version,
      );
      const missing = state.socketFilterMissing;
      if (state.socketsAllowed) return { headline: `${headline} ${socketsAllowed(l10n)}`, warn: false };
      if (!missing) return { headline, warn: false };
      // Said once, prominently: a boundary the user may count on is not there.
      return {
        headline: `${headline} ${unfilteredSockets(missing, l10n)}`,
        ...('nested' in missing
          ? {
              fix: l10n.t(
                'Update bubblewrap, and check that user namespaces can nest (user.max_user_namespaces must allow more than one per sandbox).',
              ),
            }
          : {}),
        warn: true,
      };
    }
    case 'off':
      return {
        headline: l10n.t(
          'The sandbox is off (logbook.sandbox.mode is "off"): commands run with your permissions, and every command asks first.',
        ),
        warn: true,
      };
    case 'unavailable': {
      // The probe's own words in the host's language; the log's notice keeps the English.
      const { problem, fix } = state.say?.(l10n) ?? state;
      return state.required
        ? {
            headline: l10n.t(
              'No command can run: logbook.sandbox.mode is "required" and no sandbox can start. {0}',
              problem,
            ),
            fix,
            warn: true,
          }
        : {
            headline: l10n.t('Commands run without a sandbox, so every command asks first. {0}', problem),
            fix,
            warn: true,
          };
    }
  }
}

/** Why commands can reach Unix sockets outside the sandbox here. */
export function unfilteredSockets(missing: SocketFilterMissing, l10n: L10n = ENGLISH): string {
  return 'arch' in missing
    ? l10n.t(
        'Commands can still connect to Unix sockets outside the sandbox: Logbook has no seccomp filter for {0}.',
        missing.arch,
      )
    : l10n.t(
        'Commands can still connect to Unix sockets outside the sandbox: the nested bubblewrap that applies the seccomp filter did not start ({0}).',
        missing.nested,
      );
}

/** The notice the log records (a `sandbox` update), in the same words. */
export function sandboxNotice(state: SandboxState): SandboxNotice {
  const text = describeSandbox(state);
  return {
    state: state.kind,
    ...(state.kind === 'unavailable' ? { required: state.required } : {}),
    message: text.headline,
    ...(text.fix ? { fix: text.fix } : {}),
  };
}

/** What commands can reach where the user turned the Unix socket filter off. */
export function socketsAllowed(l10n: L10n = ENGLISH): string {
  return l10n.t(
    'Unix sockets are not filtered (logbook.sandbox.allowUnixSockets): a command can make its own, and connect to any listening socket it can see.',
  );
}
