// The setup step of a worktree task, as both hosts run it: each command in the task's worktree, in
// the sandbox (the worktree's writable set, as for the agent's commands), with the agent's clean
// environment, and its command, exit code and output recorded in the task's log (`worktree_setup`).
import type { CommandSandbox } from '../sandbox/command-sandbox';
import { NodeTerminalPort } from '../ports/node-terminal-port';
import type { SetupStep } from './setup-source';

export const SETUP_KEY = 'worktree_setup';
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
  /** Records one step's result in the task's log. */
  record(value: Record<string, unknown>): Promise<unknown>;
  /** Says which step starts (stderr in the CLI, the output channel in the editor). */
  say(step: SetupStep): void;
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
      const r = await terminal.run(step.command, { timeoutMs: SETUP_TIMEOUT_MS });
      const exitCode = r.timedOut ? null : r.exitCode;
      await run.record({
        origin: step.origin,
        command: step.command,
        exit_code: exitCode,
        timed_out: r.timedOut,
        output: r.output.length > OUTPUT_KEPT ? `…${r.output.slice(-OUTPUT_KEPT)}` : r.output,
      });
      if (exitCode !== 0)
        throw new Error(
          `the setup step of ${step.origin} ${r.timedOut ? 'timed out' : `exited with ${exitCode}`}; the agent did not start. ` +
            `Its output is in the task's log; the task is kept (logbook discard it, or fix the step).`,
        );
    }
  } finally {
    terminal.dispose();
  }
}
