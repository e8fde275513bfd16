// In a module of its own so the report and the descriptions can name the sandbox's state without
// importing the sandbox that decides it.
/** How commands run now; what the chat, `logbook run` and the diagnostics say. */
export type SandboxState =
  | { kind: 'on'; bwrap: string; version: string }
  | { kind: 'off' }
  | { kind: 'unavailable'; required: boolean; problem: string; fix: string };
