// The setup step of `logbook run --worktree`: decided before the worktree is made (an unaccepted
// repository setup file is asked about at a terminal, refused elsewhere), run after the
// conversation opens, in the task's worktree, in the sandbox, with the agent's clean environment;
// each step recorded in the task's log as a terminal action of the user's, with its observation
// (exit code and output), after the task's message and before the agent's first request.
import { printableLine } from '../../../core/text/printable';
import type { Conversation } from '../../../core/agent/conversation';
import { llmSecrets } from '../../../core/secrets';
import type { LlmSettings } from '../../../core/llm';
import type { CliSettings } from './cli-settings';
import type { CliIo } from './io';
import { cliSandbox } from './sandbox-option';
import { runSetupSteps } from '../worktrees/setup-run';
import { acceptSetup, repositorySetup, type SetupStep, setupAccepted } from '../worktrees/setup-source';

/** The steps to run, asking about an unaccepted repository file first; throws when it is not accepted. */
export async function setupSteps(io: CliIo, settings: CliSettings, repo: string): Promise<SetupStep[]> {
  const steps: SetupStep[] = [];
  const own = settings.get<string | null>('worktrees.setup')?.trim();
  if (own) steps.push({ origin: 'worktrees.setup', command: own });
  const file = repositorySetup(repo);
  if (!file) return steps;
  if (!setupAccepted(io.env, repo, file)) {
    const shown = file.command
      .split('\n')
      .map((l) => printableLine(`  ${l}`))
      .join('\n');
    if (!process.stdin.isTTY || !io.ask)
      throw new Error(
        `This repository's ${file.origin} would run in the task's worktree before the agent (in the sandbox):\n${shown}\n` +
          'Read it, then run `logbook tasks --accept-setup` here to accept it as it is (a change asks again); nothing was made.',
      );
    io.err(
      `This repository's ${file.origin} would run in the task's worktree before the agent (in the sandbox):\n${shown}`,
    );
    const answer = await io.ask('Run it (now and until it changes)? [y/N] ');
    if (answer?.trim().toLowerCase() !== 'y')
      throw new Error(
        `${file.origin} was not accepted, so no task was made. Accept it with \`logbook tasks --accept-setup\`.`,
      );
    acceptSetup(io.env, repo, file);
  }
  steps.push({ origin: file.origin, command: file.command });
  return steps;
}

/** Runs the steps in the worktree, each recorded; throws on the first that fails (the task is kept). */
export async function runSetup(
  io: CliIo,
  settings: CliSettings,
  llm: Pick<LlmSettings, 'apiKey' | 'extraHeaders'>,
  worktree: string,
  steps: readonly SetupStep[],
  conversation: Pick<Conversation, 'runHostCommand'>,
  continued = false,
): Promise<void> {
  if (steps.length === 0) return;
  const sandbox = cliSandbox(settings, io.env);
  try {
    await runSetupSteps({
      worktree,
      steps,
      sandbox,
      passEnvironment: settings.get<string[]>('terminal.passEnvironment'),
      secretValues: llmSecrets(llm).map((s) => s.value),
      conversation,
      continued,
      say: (step) =>
        io.err(printableLine(`setup (${step.origin}): ${step.command.trim().split('\n').join('; ')}`)),
    });
  } finally {
    await sandbox.dispose(); // its network proxy would keep the process alive
  }
}
