// The setup step of a worktree task, as both hosts run it: each command in the task's worktree, in
// the sandbox (the worktree's writable set, as for the agent's commands), with the agent's clean
// environment; each step recorded in the task's log as a terminal action of the user's with its
// observation (exit code and output), after the task's message and before the agent's first request.
import type { Conversation } from '../../../core/agent/conversation';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import { NodeTerminalPort } from '../ports/node-terminal-port';
import type { SetupStep } from './setup-source';

const SETUP_TIMEOUT_MS = 15 * 60_000;
const OUTPUT_KEPT = 8000;

export interface SetupRun {
  worktree: string;
  steps: readonly SetupStep[];
  sandbox: CommandSandbox;
  /** Names of the user's environment passed on (`terminal.passEnvironment`). */
  passEnvironment: readonly string[];
  /** Values never shown to a step (the model's key). */
  secretValues: readonly string[];
  /** The task's conversation, which records each step as an action and its observation. */
  conversation: Pick<Conversation, 'runHostCommand'>;
  /** Says which step starts (stderr in the CLI, the output channel in the editor). */
  say(step: SetupStep): void;
  /** A continued task's worktree: the agent goes on after the step, it does not start. */
  continued?: boolean;
}

/** Runs the steps in order; throws on the first that fails (the task is kept, to look at or discard). */
export async function runSetupSteps(run: SetupRun): Promise<void> {
  if (run.steps.length === 0) return;
  const terminal = new NodeTerminalPort({
    cwd: run.worktree,
    passEnvironment: [...run.passEnvironment],
    secretValues: [...run.secretValues],
    sandbox: { sandbox: run.sandbox, workspaces: [run.worktree], readOnly: () => false },
  });
  try {
    for (const step of run.steps) {
      run.say(step);
      const r = await run.conversation.runHostCommand(
        {
          command: step.command,
          summary: `Worktree setup (${step.origin})`,
          note: `[The worktree's setup step from ${step.origin}, run by Logbook in the sandbox before the agent ${run.continued ? 'went on in this new worktree' : 'started'}.]`,
        },
        async () => {
          const ran = await terminal.run(step.command, { timeoutMs: SETUP_TIMEOUT_MS });
          const output = ran.output.length > OUTPUT_KEPT ? `…${ran.output.slice(-OUTPUT_KEPT)}` : ran.output;
          return {
            output,
            exitCode: ran.timedOut ? null : ran.exitCode,
            timedOut: ran.timedOut,
            cwd: run.worktree,
          };
        },
      );
      const exitCode = r.exitCode;
      if (exitCode !== 0)
        throw new Error(
          `the setup step of ${step.origin} ${r.timedOut ? 'timed out' : `exited with ${exitCode}`}; the agent did not ${run.continued ? 'go on' : 'start'}. ` +
            `Its output is in the task's log; the task is kept (logbook discard it, or fix the step).`,
        );
    }
  } finally {
    terminal.dispose();
  }
}
