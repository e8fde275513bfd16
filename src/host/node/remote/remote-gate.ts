// Logbook's boundary on the actions an agent-server holds. Unless confirmation is off, the server is
// told to hold every action (AlwaysConfirm), and Logbook decides on each one as it would locally:
// what its rules would let run unasked is approved, the rest is asked about. In plan mode, what would
// write or run is rejected, with the reason the model reads, by the rules local plan mode applies;
// what only reads passes, or is asked about, by the user's confirmation settings.
import type { ConfirmationMode } from '../../../core/agent/settings';
import { writeReason } from '../../../core/agent/plan-mode';
import { analyzeAction, needsConfirmation, ruleAnalyzer } from '../../../core/security';
import { printableLine } from '../../../core/text/printable';
import type { AgentMode } from '../../../core/state';
import type { CliSettings } from '../cli/cli-settings';
import { argumentsOf } from './remote-risk';

export interface RemoteGate {
  mode: AgentMode;
  confirmation: ConfirmationMode;
  allowRules: readonly string[];
  /** The working folder on the server's machine: the actions' paths are judged against it. */
  workingDir: string;
}

/** The user's confirmation mode, as the settings give it. */
export function remoteConfirmation(settings: CliSettings): ConfirmationMode {
  return settings.get<ConfirmationMode>('confirmation.mode');
}

export function remoteGate(settings: CliSettings, mode: AgentMode, workingDir: string): RemoteGate {
  return {
    mode,
    confirmation: remoteConfirmation(settings),
    allowRules: settings.get<string[]>('confirmation.allowRules'),
    workingDir,
  };
}

export type GateVerdict =
  { kind: 'reject'; reason: string; line: string } | { kind: 'accept'; line: string } | { kind: 'ask' };

/** The server's own tools that only read, as the SDK defines them. */
const READ_ONLY_TOOLS = new Set(['think', 'finish']);

/** The server's repository settings are not on this machine: a git command's are not known. */
const SERVER_GIT_CONFIG = () => "the repository's git configuration on the server is not read from here";

/** Why plan mode refuses this held action, or null when it only reads. */
export function remotePlanRefusal(
  action: Readonly<Record<string, unknown>>,
  workingDir: string,
): string | null {
  const name = typeof action.tool_name === 'string' ? action.tool_name : '';
  const spec = { name: name || 'an unnamed tool', readOnly: READ_ONLY_TOOLS.has(name) };
  return writeReason(spec, argumentsOf(action), [workingDir], undefined, SERVER_GIT_CONFIG);
}

/** Whether the user's settings would ask about this action, were it local. */
function wouldAsk(action: Readonly<Record<string, unknown>>, gate: RemoteGate): boolean {
  const name = typeof action.tool_name === 'string' ? action.tool_name : '';
  const args = argumentsOf(action);
  if (READ_ONLY_TOOLS.has(name)) return false;
  // A tool Logbook did not give the server's agent (its rules know only these two) is asked about.
  if (name !== 'terminal' && name !== 'file_editor') return gate.confirmation !== 'never';
  const analysis = analyzeAction(name, args, [gate.workingDir], {
    analyzers: [ruleAnalyzer],
    gitConfigRunsPrograms: SERVER_GIT_CONFIG,
  });
  const [decision] = needsConfirmation(
    { mode: gate.confirmation, allowRules: gate.allowRules, roots: [gate.workingDir] },
    [{ toolName: name, readOnly: false, args, analysis }],
  );
  return decision?.confirm ?? true;
}

/**
 * What Logbook answers for the actions the server holds now (it answers them all at once): in plan
 * mode, one that writes or runs rejects them all; otherwise the user is asked, unless no action
 * would be asked about were it local (then Logbook approves them).
 */
export function gateHeld(held: readonly Readonly<Record<string, unknown>>[], gate: RemoteGate): GateVerdict {
  if (gate.mode !== 'plan') {
    // The server holds every action (see confirmationPolicy): what Logbook's rules would let run
    // here unasked runs there unasked, the rest is the user's to answer.
    if (held.some((a) => wouldAsk(a, gate))) return { kind: 'ask' };
    return { kind: 'accept', line: `approved ${held.length} action(s) Logbook's rules let run unasked` };
  }
  for (const action of held) {
    const why = remotePlanRefusal(action, gate.workingDir);
    if (why === null) continue;
    const name = typeof action.tool_name === 'string' ? action.tool_name : 'tool';
    const reason =
      `Refused by Logbook: the conversation is in plan mode, where you may only read. This ${name} call was not run: ${why}. ` +
      'Keep investigating with commands that only read, then answer with your plan (the steps, what each changes and how to check it) and finish, for the user to approve.';
    return { kind: 'reject', reason, line: printableLine(`plan mode: rejected ${name}: ${why}`) };
  }
  if (held.some((a) => wouldAsk(a, gate))) return { kind: 'ask' };
  return { kind: 'accept', line: `plan mode: approved ${held.length} action(s) that only read` };
}
