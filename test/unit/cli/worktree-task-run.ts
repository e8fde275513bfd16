// A worktree task run to its end through the real CLI, for the tests of what comes after it (review,
// decisions, fork). Apart from worktree-fixtures.ts, which the host tests load without the CLI.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Turn } from '../../support/llm-server';
import { printed, runCli } from './cli-runner';
import type { CliFixture } from './fixtures';
import { makeRepo, TWENTY_LINES } from './worktree-fixtures';

/**
 * A repository under `base` holding a.txt (TWENTY_LINES), and worktree task `name` run to its end
 * on it with the scripted model's `turns` (scenario `scenario`), never asking to confirm.
 */
export async function finishedWorktreeTask(
  fx: CliFixture,
  base: string,
  name: string,
  scenario: string,
  turns: Turn[],
  extraEnv: Record<string, string> = {},
) {
  const repo = makeRepo(join(base, 'repo'), { 'a.txt': TWENTY_LINES });
  const env = {
    ...(await fx.startLlm({ name: scenario, turns })),
    LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    ...extraEnv,
  };
  const r = await runCli(['run', '--worktree', name, 'edit a.txt', '--confirm', 'never'], { cwd: repo, env });
  assert.equal(r.code, 0, printed(r));
  return { repo, env, base };
}
