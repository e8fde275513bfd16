// A worktree task's setup step, now one module both hosts run (the chat's tasks and the CLI's):
// whatever the step's command tries, it writes its worktree and nothing of the main working tree,
// its git configuration, hooks or branches. Through the real CLI and bubblewrap; the repository
// lies outside /tmp (the sandbox replaces /tmp, so a write there would prove nothing).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { finishCall, gitIn, makeRepo } from '../cli/worktree-fixtures';

describe('hostile: a worktree task setup step stays in its worktree', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('writes the worktree, and nothing of the main tree, its .git config, hooks or branches', async () => {
    const base = outsideFolder('task-setup-');
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n' });
    const env = {
      ...(await fx.startLlm({ name: 'setup-escape', turns: [{ reply: { toolCalls: [finishCall()] } }] })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
      LOGBOOK_WORKTREES_SETUP: [
        'echo in > in-worktree.txt',
        `echo out > ${join(repo, 'escaped.txt')}`,
        `echo out >> ${join(repo, 'README.md')}`,
        `echo 'touch ${join(base, 'hooked')}' > ${join(repo, '.git', 'hooks', 'pre-commit')}`,
        `git config --file ${join(repo, '.git', 'config')} core.hooksPath ${base}`,
        'git branch other',
        'exit 0',
      ].join('; '),
    };
    const config = readFileSync(join(repo, '.git', 'config'), 'utf8');
    const r = await runCli(['run', '--worktree', 'escape', 'Look around', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [task] = (JSON.parse(list.stdout) as { tasks: { worktree: string; log: string }[] }).tasks;
    const setup = (await readLogJson(task!.log)).find(
      (e) => e.kind === 'ActionEvent' && e.summary === 'Worktree setup (worktrees.setup)',
    );
    assert.ok(setup, 'the setup step was not recorded');
    assert.deepEqual(
      {
        inWorktree: existsSync(join(task!.worktree, 'in-worktree.txt')),
        escaped: existsSync(join(repo, 'escaped.txt')),
        readme: readFileSync(join(repo, 'README.md'), 'utf8'),
        hook: existsSync(join(repo, '.git', 'hooks', 'pre-commit')),
        config: readFileSync(join(repo, '.git', 'config'), 'utf8') === config,
        branch: gitIn(repo, 'branch', '--list', 'other').trim(),
      },
      { inWorktree: true, escaped: false, readme: '# project\n', hook: false, config: true, branch: '' },
    );
  });
});
