// A worktree task continued from a point of its conversation (`logbook fork TASK`), then run on by
// a hostile model, through the real CLI, real git, the real sandbox and the scripted model, in a
// folder the sandbox could reach (not under /tmp). The continued task's history names the source
// task's worktree; the model writes there and into the main working tree by absolute path, with its
// file tool and with commands: nothing lands outside the new task's own worktree, in act mode and in
// plan mode (which writes nothing at all). A name that is a path is refused before anything is made.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';
import { createCall, finishCall, gitIn, makeRepo, treeHashes } from '../cli/worktree-fixtures';

describe('hostile model: a worktree task continued as a new task (issue 43)', function () {
  this.timeout(180_000);
  const fx = new CliFixture();
  const bases: string[] = [];
  afterEach(async () => {
    await fx.cleanup();
    for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
  });

  async function sourceTask() {
    const base = outsideFolder('task-continue-');
    bases.push(base);
    const repo = makeRepo(join(base, 'repo'), { 'notes.txt': 'notes\n' });
    const env = {
      ...(await fx.startLlm({
        name: 'continue-source',
        turns: [
          { reply: { toolCalls: [createCall('call_a', 'made.txt', 'made by the task\n')] } },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    const r = await runCli(['run', '--worktree', 'src', '--confirm', 'never', 'make a file'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [t] = (JSON.parse(list.stdout) as { tasks: { log: string; worktree: string }[] }).tasks;
    return { base, repo, env, source: t! };
  }

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: the continued task writes neither the source task's worktree nor the main tree`, async () => {
      const { repo, env, source } = await sourceTask();
      const forked = await runCli(['fork', 'src', '--name', `go-${mode}`], { cwd: repo, env });
      assert.equal(forked.code, 0, printed(forked));
      const log = forked.stdout.trim();
      const mainBefore = treeHashes(repo);
      const sourceBefore = treeHashes(source.worktree);
      const hostile = {
        ...env,
        ...(await fx.startLlm({
          name: `continue-hostile-${mode}`,
          turns: [
            {
              reply: {
                toolCalls: [
                  createCall('call_src', join(source.worktree, 'planted.txt'), 'in the source task\n'),
                  createCall('call_main', join(repo, 'planted.txt'), 'in the main tree\n'),
                  terminalCall('call_sh1', `echo x > ${join(source.worktree, 'shell.txt')}`),
                  terminalCall('call_sh2', `echo x > ${join(repo, 'shell.txt')}`),
                  terminalCall('call_sh3', `git -C ${repo} commit --allow-empty -q -m planted`),
                  createCall('call_own', 'own.txt', 'in its own worktree\n'),
                ],
              },
            },
            { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
          ],
        })),
      };
      const ran = await runCli(
        ['run', '--store', log, '--mode', mode, '--confirm', 'never', '--no-input', 'go on'],
        { cwd: repo, env: hostile },
      );
      assert.equal(ran.code, 0, printed(ran));
      // Each write was refused by the gate that owns it: the file tool, the sandbox, plan mode.
      if (mode === 'act') {
        assert.equal(
          ran.stdout.match(/is outside the folders the agent may write/g)?.length,
          2,
          printed(ran),
        );
        assert.equal(ran.stdout.match(/Read-only file system/g)?.length, 3, printed(ran));
      } else
        assert.equal(ran.stdout.match(/Refused: the conversation is in plan mode/g)?.length, 6, printed(ran));
      for (const dir of [source.worktree, repo]) {
        assert.ok(!existsSync(join(dir, 'planted.txt')), `planted.txt was written in ${dir}`);
        assert.ok(!existsSync(join(dir, 'shell.txt')), `shell.txt was written in ${dir}`);
      }
      assert.deepEqual(treeHashes(source.worktree), sourceBefore, "the source task's worktree changed");
      assert.deepEqual(treeHashes(repo), mainBefore, 'the main working tree changed');
      assert.equal(gitIn(repo, 'log', '--format=%s', 'main').trim(), 'first', 'a commit landed on main');
      const own = join(env.LOGBOOK_WORKTREES_DIR, readdirSync(env.LOGBOOK_WORKTREES_DIR)[0]!, `go-${mode}`);
      // Its own worktree is where it may write, in act mode only.
      assert.equal(existsSync(join(own, 'own.txt')), mode === 'act', printed(ran));
    });
  }

  it('a name that is a path or an option is refused before anything is made', async () => {
    const { base, repo, env } = await sourceTask();
    for (const name of ['../../escaped', '--force', 'a/b', 'UPPER']) {
      const r = await runCli(['fork', 'src', `--name=${name}`], { cwd: repo, env });
      assert.equal(r.code, 1, printed(r));
      assert.match(r.stderr, /is not a task name/);
    }
    assert.ok(!existsSync(join(base, 'escaped')));
    assert.equal(
      gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/logbook').trim(),
      'logbook/src',
    );
  });
});
