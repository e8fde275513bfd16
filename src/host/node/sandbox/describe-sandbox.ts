// The words for how commands run: one place, so the chat, `logbook run` and the diagnostics
// command say the same thing.
import type { SandboxNotice } from '../../../core/state';
import type { SandboxState } from './sandbox-state';

export interface SandboxDescription {
  /** One line: what holds the boundary. */
  headline: string;
  /** What to do about it, when something is wrong. */
  fix?: string;
  /** Whether this is a warning the user should see once, prominently. */
  warn: boolean;
}

export function describeSandbox(state: SandboxState): SandboxDescription {
  switch (state.kind) {
    case 'on':
      return {
        headline: `Commands run in a sandbox (${state.version}): only the workspace is writable, secrets are hidden, the network is closed but for allowed hosts.`,
        warn: false,
      };
    case 'off':
      return {
        headline:
          'The sandbox is off (logbook.sandbox.mode is "off"): commands run with your permissions, and every command asks first.',
        warn: true,
      };
    case 'unavailable':
      return state.required
        ? {
            headline: `No command can run: logbook.sandbox.mode is "required" and no sandbox can start. ${state.problem}`,
            fix: state.fix,
            warn: true,
          }
        : {
            headline: `Commands run without a sandbox, so every command asks first. ${state.problem}`,
            fix: state.fix,
            warn: true,
          };
  }
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
