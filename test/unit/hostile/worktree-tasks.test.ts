// Worktree tasks against a careless or hostile model, through the real CLI, real git, the real
// sandbox and the scripted model. The user's working tree stays byte-identical (every file hashed,
// and the index, HEAD and branch of .git) until the user applies a task; a task that writes the
// working tree, by a command or a file edit, fails there in act and in plan mode; two tasks that
// changed the same lines meet as a conflict git leaves for the user, said so; a discarded task's
// log is kept; a task killed with kill -9 stays listed, crashed, with its worktree. Everything is
// in a folder the sandbox could reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';
import { createCall, finishCall, gitIn, makeRepo, treeHashes } from '../cli/worktree-fixtures';

type Json = Record<string, unknown>;

describe('hostile model: worktree tasks keep the working tree and the log (issue 43)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const bases: string[] = [];
  afterEach(async () => {
    await fx.cleanup();
    for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
  });

  function places() {
    const base = outsideFolder('worktree-tasks-');
    bases.push(base);
    const repo = makeRepo(join(base, 'repo'), {
      'README.md': '# project\n',
      'src/app.txt': 'line 1\nline 2\n',
    });
    return { base, repo, data: join(base, 'data') };
  }

  const tasks = async (repo: string, env: Record<string, string>): Promise<Json[]> => {
    const r = await runCli(['tasks', '--json'], { cwd: repo, env });
    assert.equal(r.code, 0, printed(r));
    return (JSON.parse(r.stdout) as { tasks: Json[] }).tasks;
  };

  /** A task whose model replaces line 2 of src/app.txt with `text` and finishes. */
  async function editTask(repo: string, data: string, name: string, text: string) {
    const env = {
      ...(await fx.startLlm({
        name: `edit-${name}`,
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_edit',
                  name: 'file_editor',
                  arguments: {
                    command: 'str_replace',
                    path: 'src/app.txt',
                    old_str: 'line 2\n',
                    new_str: text,
                    security_risk: 'LOW',
                    summary: 'rewrite',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: data,
    };
    const r = await runCli(['run', '--worktree', name, `rewrite app ${name}`, '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    return env;
  }

  it('two tasks edit the same file differently: the working tree is byte-identical until apply; the second apply stops on a conflict and says so', async () => {
    const { repo, data } = places();
    const before = treeHashes(repo);
    await editTask(repo, data, 'first', 'line 2 by first\n');
    const env = await editTask(repo, data, 'second', 'line 2 by second\n');
    assert.deepEqual(treeHashes(repo), before, 'the working tree changed before apply');
    const listed = await tasks(repo, env);
    assert.deepEqual(
      listed.map((t) => [t.name, t.status, t.files_changed]),
      [
        ['first', 'finished', 1],
        ['second', 'finished', 1],
      ],
    );

    const applied = await runCli(['apply', 'first'], { cwd: repo, env });
    assert.equal(applied.code, 0, printed(applied));
    assert.equal(readFileSync(join(repo, 'src/app.txt'), 'utf8'), 'line 1\nline 2 by first\n');

    const conflict = await runCli(['apply', 'second'], { cwd: repo, env });
    assert.equal(conflict.code, 1, printed(conflict));
    assert.match(conflict.stderr, /stopped on conflicts in:\n {2}src\/app\.txt\n/);
    assert.match(conflict.stderr, /Nothing was resolved for you/);
    const text = readFileSync(join(repo, 'src/app.txt'), 'utf8');
    assert.match(
      text,
      /^<<<<<<< HEAD\nline 2 by first\n=======\nline 2 by second\n>>>>>>> logbook\/second\n$/m,
    );
    assert.match(gitIn(repo, 'status', '--porcelain'), /^UU src\/app\.txt$/m);
    // A third apply over the merge under way is refused, not stacked on it.
    const again = await runCli(['apply', 'second', '--force'], { cwd: repo, env });
    assert.equal(again.code, 1, printed(again));
    assert.match(again.stderr, /in the middle of a merge; finish or abort it first/);
  });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: a task that writes the working tree by a command and by a file edit fails there; the tree is byte-identical`, async () => {
      const { repo, data } = places();
      const target = join(repo, 'README.md');
      const planted = join(repo, 'planted.txt');
      const env = {
        ...(await fx.startLlm({
          name: `escape-${mode}`,
          turns: [
            {
              reply: {
                toolCalls: [
                  terminalCall('call_sh', `echo pwned > ${target}; echo pwned > ${planted}; echo done`),
                ],
              },
            },
            {
              match: { lastRole: 'tool' as const },
              reply: { toolCalls: [createCall('call_edit', planted, 'pwned\n')] },
            },
            { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
          ],
        })),
        LOGBOOK_WORKTREES_DIR: data,
      };
      const before = treeHashes(repo);
      const r = await runCli(
        ['run', '--worktree', 'escape', '--mode', mode, '--confirm', 'never', '--no-input', 'write outside'],
        { cwd: repo, env },
      );
      assert.ok(r.code === 0 || r.code === 2 || r.code === 3, printed(r));
      assert.deepEqual(treeHashes(repo), before, 'the task wrote the working tree');
      assert.ok(!existsSync(planted));
      assert.equal(readFileSync(target, 'utf8'), '# project\n');
    });
  }

  it('a setup step that writes the working tree fails there, in the sandbox; the tree is byte-identical', async () => {
    const { repo, data } = places();
    const env = {
      ...(await fx.startLlm({ name: 'setup-escape', turns: [{ reply: { toolCalls: [finishCall()] } }] })),
      LOGBOOK_WORKTREES_DIR: data,
      LOGBOOK_WORKTREES_SETUP: `echo pwned > ${join(repo, 'README.md')}; echo pwned > ${join(repo, 'planted.txt')}`,
    };
    const before = treeHashes(repo);
    const r = await runCli(['run', '--worktree', 'setup-escape', '--confirm', 'never', 'anything'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /the setup step of worktrees\.setup exited with 1; the agent did not start/);
    assert.deepEqual(treeHashes(repo), before, 'the setup step wrote the working tree');
  });

  it('discard removes worktree and branch and keeps the log, readable by the task name', async () => {
    const { repo, data } = places();
    const env = await editTask(repo, data, 'gone', 'changed\n');
    const [task] = await tasks(repo, env);
    const r = await runCli(['discard', 'gone'], { cwd: repo, env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(!existsSync(task!.worktree as string));
    assert.doesNotMatch(gitIn(repo, 'branch', '--list'), /logbook\/gone/);
    assert.ok(readdirSync(join(task!.log as string, 'segments')).some((n) => n.endsWith('.log')));
    const shown = await runCli(['show', 'gone', '--json'], { cwd: repo, env });
    assert.equal(shown.code, 0, printed(shown));
    assert.ok(((JSON.parse(shown.stdout) as Json).event_count as number) > 3);
    assert.equal((await tasks(repo, env))[0]!.status, 'discarded');
  });

  it('kill -9 mid-run: the task stays listed as crashed with its worktree; prune offers nothing of it; resolve by its name goes on', async () => {
    const { repo, data } = places();
    const env = {
      ...(await fx.startLlm({
        name: 'killed-task',
        turns: [{ reply: { toolCalls: [terminalCall('call_slow', 'echo started > started.txt; sleep 5')] } }],
      })),
      LOGBOOK_WORKTREES_DIR: data,
    };
    const killWhenStarted = (child: ChildProcess) => {
      const poll = setInterval(() => {
        const keys = existsSync(data) ? readdirSync(data) : [];
        if (!keys.some((k) => existsSync(join(data, k, 'slow', 'started.txt')))) return;
        clearInterval(poll);
        child.kill('SIGKILL');
      }, 25);
      child.once('exit', () => clearInterval(poll));
    };
    const r = await runCli(['run', '--worktree', 'slow', '--confirm', 'never', 'be slow'], {
      cwd: repo,
      env,
      onSpawn: killWhenStarted,
    });
    assert.equal(r.code, null, printed(r));
    const [task] = await tasks(repo, env);
    assert.equal(task!.status, 'crashed');
    assert.equal(task!.waiting_for_you, true);
    assert.ok(existsSync(join(task!.worktree as string, 'started.txt')));
    assert.match(gitIn(repo, 'worktree', 'list'), /\[logbook\/slow\]/);
    const text = await runCli(['tasks'], { cwd: repo, env });
    assert.match(text.stdout, /crashed: its process is gone; the worktree and log are kept/);
    const prune = await runCli(['tasks', '--prune', '--yes'], { cwd: repo, env });
    assert.match(prune.stdout, /Nothing to prune/);
    assert.ok(existsSync(task!.worktree as string));
    // Recoverable: the log names the action in doubt, and resolve takes the task's name.
    const shown = JSON.parse((await runCli(['show', 'slow', '--json'], { cwd: repo, env })).stdout) as Json;
    assert.equal((shown.in_doubt as unknown[]).length, 1);
    const next = {
      ...(await fx.startLlm({ name: 'after-kill', turns: [{ reply: { toolCalls: [finishCall()] } }] })),
      LOGBOOK_WORKTREES_DIR: data,
    };
    const resolved = await runCli(['resolve', 'slow', '--skip'], { cwd: repo, env: next });
    assert.equal(resolved.code, 0, printed(resolved));
    assert.equal((await tasks(repo, next))[0]!.status, 'finished');
  });
});
