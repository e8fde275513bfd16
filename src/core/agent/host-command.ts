// A command the host runs for the conversation before the agent starts (a worktree task's setup
// step), recorded as a terminal action and its observation: `show`, the chat and an export list it
// like any command, its summary says what it is, and a crash while it runs leaves the action in
// doubt like any other. Its source is the user (their settings, or a repository file they
// accepted, chose it), never the agent.
import { newEventId } from '../events';
import { ACTION_STARTED_KEY } from '../state';
import type { ConversationLog } from './conversation-journal';

const TOOL = 'terminal';
/** What the call ids of such commands start with: a list tells a task's setup by it. */
const CALL_PREFIX = 'host_';

export function isHostCommandCall(toolCallId: string): boolean {
  return toolCallId.startsWith(CALL_PREFIX);
}

export interface HostCommand {
  command: string;
  /** What the log and the chat name it by, e.g. "Worktree setup (worktrees.setup)". */
  summary: string;
  /** Said to the model before the output: who ran the command and why (the model did not). */
  note: string;
}

export interface HostCommandResult {
  output: string;
  /** null: it did not end (it timed out and was stopped) */
  exitCode: number | null;
  timedOut: boolean;
  /** where it ran */
  cwd: string;
}

/**
 * Records the action, runs the command, records what it gave. A run that throws is recorded as a
 * failed observation, then the error goes on: nothing is left without its result.
 */
export async function runHostCommand(
  log: Pick<ConversationLog, 'append'>,
  cmd: HostCommand,
  run: () => Promise<HostCommandResult>,
): Promise<HostCommandResult> {
  const callId = `${CALL_PREFIX}${newEventId()}`;
  const args = { command: cmd.command, is_input: false, reset: false };
  const action = await log.append(
    'ActionEvent',
    {
      source: 'user',
      action: { kind: 'TerminalAction', ...args, timeout: null },
      tool_name: TOOL,
      tool_call_id: callId,
      tool_call: { id: callId, name: TOOL, arguments: JSON.stringify(args), origin: 'completion' },
      llm_response_id: callId,
      summary: cmd.summary,
      reasoning_content: null,
    },
    true,
  );
  // Started, as any action the dispatcher runs: a crash before its result leaves it in doubt, never run again unasked.
  await log.append(
    'ConversationStateUpdateEvent',
    { key: ACTION_STARTED_KEY, value: { action_id: action.id } },
    true,
  );
  const answer = (
    text: string,
    exitCode: number | null,
    timedOut: boolean,
    cwd: string | null,
    isError: boolean,
  ) =>
    log.append(
      'ObservationEvent',
      {
        action_id: action.id,
        tool_name: TOOL,
        tool_call_id: callId,
        observation: {
          kind: 'TerminalObservation',
          content: [{ type: 'text', text: `${cmd.note}\n${text}` }],
          is_error: isError,
          command: cmd.command,
          exit_code: exitCode,
          timeout: timedOut,
          metadata: { exit_code: exitCode ?? -1, working_dir: cwd, prefix: cmd.note, suffix: '' },
        },
      },
      true,
    );
  let result: HostCommandResult;
  try {
    result = await run();
  } catch (err) {
    await answer(
      `It could not run: ${err instanceof Error ? err.message : String(err)}`,
      null,
      false,
      null,
      true,
    );
    throw err;
  }
  const ended = result.timedOut ? '[It timed out and was stopped.]' : `[Exit code ${result.exitCode}]`;
  const body = result.output === '' ? '(no output)' : result.output.replace(/\n$/, '');
  await answer(`${body}\n${ended}`, result.exitCode, result.timedOut, result.cwd, result.exitCode !== 0);
  return result;
}
