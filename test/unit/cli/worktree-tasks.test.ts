// Worktree tasks through the real CLI, real git and the scripted model: run --worktree makes a
// branch and worktree outside the working tree and works there; tasks lists them; apply merges
// (committing the task's uncommitted work first, refusing over the user's changes); discard keeps
// the log; --carry copies the uncommitted change; --prune offers cleanup and does it when told.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson } from './fixtures';
import { createCall, finishCall, gitIn, makeRepo, treeHashes } from './worktree-fixtures';

type Json = Record<string, unknown>;

describe('logbook run --worktree, tasks, apply, discard', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function setUp(turns: { path: string; text: string }[] = [{ path: 'hello.txt', text: 'hello\n' }]) {
    const base = fx.tmp('logbook-wt-');
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n', 'src/a.txt': 'a\n' });
    const data = join(base, 'data');
    const env = {
      ...(await fx.startLlm({
        name: 'worktree-task',
        turns: [
          ...turns.map((t, i) => ({ reply: { toolCalls: [createCall(`call_${i}`, t.path, t.text)] } })),
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: data,
    };
    return { base, repo, data, env };
  }

  const tasks = async (repo: string, env: Record<string, string>): Promise<Json[]> => {
    const r = await runCli(['tasks', '--json'], { cwd: repo, env });
    assert.equal(r.code, 0, printed(r));
    return (JSON.parse(r.stdout) as { tasks: Json[] }).tasks;
  };

  it('runs the task in its own worktree on logbook/NAME; the working tree is untouched; tasks lists it finished', async () => {
    const { repo, data, env } = await setUp();
    const before = treeHashes(repo);
    const r = await runCli(['run', '--worktree', 'greet', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stderr, /task greet: branch logbook\/greet from [0-9a-f]{10}, worktree /);
    assert.deepEqual(treeHashes(repo), before, 'the working tree changed');
    const [task, ...more] = await tasks(repo, env);
    assert.equal(more.length, 0);
    assert.equal(task!.name, 'greet');
    assert.equal(task!.status, 'finished');
    assert.equal(task!.waiting_for_you, true);
    assert.equal(task!.branch, 'logbook/greet');
    assert.equal(task!.files_changed, 1);
    const worktree = task!.worktree as string;
    assert.ok(worktree.startsWith(data), worktree);
    assert.equal(readFileSync(join(worktree, 'hello.txt'), 'utf8'), 'hello\n');
    assert.ok(!(worktree + '/').startsWith(repo + '/'));
    assert.match(gitIn(repo, 'worktree', 'list'), /\[logbook\/greet\]/);
    // show takes the task's name for its log.
    const shown = await runCli(['show', 'greet', '--json'], { cwd: repo, env });
    assert.equal(shown.code, 0, printed(shown));
    assert.equal((JSON.parse(shown.stdout) as Json).workspace, worktree);
    const text = await runCli(['tasks'], { cwd: repo, env });
    assert.match(text.stdout, /\* +greet +finished +logbook\/greet +1 /);
  });

  it('a task waiting for confirmation is marked; approve takes its name and finishes it in its worktree', async () => {
    const { repo, env } = await setUp();
    const r = await runCli(
      ['run', '--worktree', 'ask', 'Write a greeting', '--confirm', 'always', '--no-input'],
      {
        cwd: repo,
        env,
      },
    );
    assert.equal(r.code, 2, printed(r));
    const [waiting] = await tasks(repo, env);
    assert.equal(waiting!.status, 'waiting');
    assert.equal(waiting!.waiting_for_you, true);
    const done = await runCli(['approve', 'ask', '--no-input'], { cwd: repo, env });
    assert.equal(done.code, 0, printed(done));
    const [task] = await tasks(repo, env);
    assert.equal(task!.status, 'finished');
    assert.equal(readFileSync(join(task!.worktree as string, 'hello.txt'), 'utf8'), 'hello\n');
    assert.ok(!existsSync(join(repo, 'hello.txt')));
  });

  it('names a task from its first words and a short id when no name is given', async () => {
    const { repo, env } = await setUp();
    const r = await runCli(['run', '--worktree', 'Write a greeting, please!', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const [task] = await tasks(repo, env);
    assert.match(task!.name as string, /^write-a-greeting-please-[0-9a-f]{6}$/);
  });

  it('refuses a bad name and a name taken, and creates nothing for them', async () => {
    const { repo, data, env } = await setUp();
    const bad = await runCli(['run', '--worktree=../x', 'task'], { cwd: repo, env });
    assert.equal(bad.code, 1, printed(bad));
    assert.match(bad.stderr, /"\.\.\/x" is not a task name/);
    assert.ok(!existsSync(data));
    gitIn(repo, 'branch', 'logbook/taken');
    const taken = await runCli(['run', '--worktree', 'taken', 'task'], { cwd: repo, env });
    assert.equal(taken.code, 1, printed(taken));
    assert.match(taken.stderr, /the branch logbook\/taken exists already/);
    assert.deepEqual(await tasks(repo, env), []);
  });

  it("apply commits the task's uncommitted work on its branch, then merges it; refuses over uncommitted changes unless --force", async () => {
    const { repo, env } = await setUp();
    assert.equal(
      (
        await runCli(['run', '--worktree', 'greet', 'Write a greeting', '--confirm', 'never'], {
          cwd: repo,
          env,
        })
      ).code,
      0,
    );
    writeFileSync(join(repo, 'README.md'), '# project, edited\n');
    const refused = await runCli(['apply', 'greet'], { cwd: repo, env });
    assert.equal(refused.code, 1, printed(refused));
    assert.match(
      refused.stderr,
      /has uncommitted changes \(1 file\(s\)\); commit or stash them first, or pass --force/,
    );
    assert.ok(!existsSync(join(repo, 'hello.txt')));
    const forced = await runCli(['apply', 'greet', '--force'], { cwd: repo, env });
    assert.equal(forced.code, 0, printed(forced));
    assert.match(forced.stdout, /committed its uncommitted work on logbook\/greet first/);
    assert.match(forced.stdout, /merged logbook\/greet into .* \(1 file\(s\), commit [0-9a-f]{10}\)/);
    assert.equal(readFileSync(join(repo, 'hello.txt'), 'utf8'), 'hello\n');
    assert.equal(
      readFileSync(join(repo, 'README.md'), 'utf8'),
      '# project, edited\n',
      "the user's change went",
    );
    // By parent, not by `git log`'s order, which is the commit time's and ties within a second.
    const subject = (rev: string) => gitIn(repo, 'log', '-1', '--format=%s', rev).trim();
    assert.equal(subject('HEAD'), 'Merge Logbook task greet (logbook/greet)');
    assert.equal(subject('HEAD^1'), 'first');
    assert.equal(subject('HEAD^2'), "Logbook task greet: the task's uncommitted work");
    const [task] = await tasks(repo, env);
    assert.equal(task!.status, 'applied');
  });

  it('discard removes the worktree and branch and keeps the log, which show still reads', async () => {
    const { repo, env } = await setUp();
    assert.equal(
      (
        await runCli(['run', '--worktree', 'greet', 'Write a greeting', '--confirm', 'never'], {
          cwd: repo,
          env,
        })
      ).code,
      0,
    );
    const [before] = await tasks(repo, env);
    const r = await runCli(['discard', 'greet'], { cwd: repo, env });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stdout, /removed worktree and branch logbook\/greet; the log is kept in /);
    assert.ok(!existsSync(before!.worktree as string));
    assert.equal(gitIn(repo, 'branch', '--list', 'logbook/*'), '');
    assert.ok(existsSync(join(before!.log as string, 'session.json')));
    const [after] = await tasks(repo, env);
    assert.equal(after!.status, 'discarded');
    const shown = await runCli(['show', 'greet', '--json'], { cwd: repo, env });
    assert.equal(shown.code, 0, printed(shown));
    assert.equal((JSON.parse(shown.stdout) as Json).status, 'finished');
  });

  it('--carry copies staged, unstaged and untracked changes into the worktree; the working tree stays byte-identical', async () => {
    const { repo, env } = await setUp();
    writeFileSync(join(repo, 'src/a.txt'), 'a changed\n');
    writeFileSync(join(repo, 'README.md'), '# staged\n');
    gitIn(repo, 'add', 'README.md');
    writeFileSync(join(repo, 'notes.txt'), 'untracked\n');
    const before = treeHashes(repo);
    const r = await runCli(
      ['run', '--worktree', 'carried', '--carry', 'Write a greeting', '--confirm', 'never'],
      { cwd: repo, env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stderr, /carried your uncommitted change over \(2 tracked, 1 untracked file\(s\)\)/);
    assert.deepEqual(treeHashes(repo), before, 'the working tree changed');
    const [task] = await tasks(repo, env);
    const wt = task!.worktree as string;
    assert.equal(readFileSync(join(wt, 'src/a.txt'), 'utf8'), 'a changed\n');
    assert.equal(readFileSync(join(wt, 'README.md'), 'utf8'), '# staged\n');
    assert.equal(readFileSync(join(wt, 'notes.txt'), 'utf8'), 'untracked\n');
  });

  it('a task whose worktree folder is gone is listed missing; --prune shows the cleanup and does it only with --yes', async () => {
    const { repo, env } = await setUp();
    assert.equal(
      (
        await runCli(['run', '--worktree', 'gone', 'Write a greeting', '--confirm', 'never'], {
          cwd: repo,
          env,
        })
      ).code,
      0,
    );
    const [task] = await tasks(repo, env);
    rmSync(task!.worktree as string, { recursive: true, force: true });
    assert.equal((await tasks(repo, env))[0]!.status, 'missing');
    const offered = await runCli(['tasks', '--prune'], { cwd: repo, env });
    assert.equal(offered.code, 0, printed(offered));
    assert.match(offered.stdout, /git worktree prune: .*gone/);
    assert.match(offered.stdout, /task gone: worktree gone, nothing on logbook\/gone: marked discarded/);
    assert.match(offered.stdout, /Nothing was changed/);
    assert.match(gitIn(repo, 'worktree', 'list', '--porcelain'), /prunable/);
    assert.equal((await tasks(repo, env))[0]!.status, 'missing');
    const done = await runCli(['tasks', '--prune', '--yes'], { cwd: repo, env });
    assert.equal(done.code, 0, printed(done));
    assert.doesNotMatch(gitIn(repo, 'worktree', 'list', '--porcelain'), /prunable/);
    assert.equal((await tasks(repo, env))[0]!.status, 'discarded');
    assert.ok(existsSync(task!.log as string), 'the log went');
  });

  it("runs worktrees.setup in the worktree before the agent and records it in the task's log", async () => {
    const { repo, env } = await setUp();
    const before = treeHashes(repo);
    const r = await runCli(['run', '--worktree', 'setup', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env: { ...env, LOGBOOK_WORKTREES_SETUP: 'echo setup-ran > setup.txt; pwd' },
    });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stderr, /setup \(worktrees\.setup\): echo setup-ran > setup\.txt; pwd/);
    const [task] = await tasks(repo, env);
    assert.equal(readFileSync(join(task!.worktree as string, 'setup.txt'), 'utf8'), 'setup-ran\n');
    assert.deepEqual(treeHashes(repo), before);
    const events = await readLogJson(task!.log as string);
    const setup = events.filter((e) => e.kind === 'ActionEvent' && e.source === 'user');
    assert.equal(setup.length, 1);
    assert.equal(setup[0]!.summary, 'Worktree setup (worktrees.setup)');
    const value = events.find((e) => e.action_id === setup[0]!.id)!.observation as Json;
    assert.equal(value.exit_code, 0);
    assert.ok(JSON.stringify(value.content).includes(task!.worktree as string));
  });

  it('a failing setup step stops the task before the agent; the task and its log are kept', async () => {
    const { repo, env } = await setUp();
    const r = await runCli(['run', '--worktree', 'broken', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env: { ...env, LOGBOOK_WORKTREES_SETUP: 'echo no-deps; exit 3' },
    });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /the setup step of worktrees\.setup exited with 3; the agent did not start/);
    assert.equal(fx.llm!.remainingTurns(), 2, 'the model was asked');
    const [task] = await tasks(repo, env);
    assert.equal(task!.name, 'broken');
    const value = (await readLogJson(task!.log as string)).find((e) => e.kind === 'ObservationEvent')!
      .observation as Json;
    assert.equal(value.exit_code, 3);
    assert.match(JSON.stringify(value.content), /no-deps/);
  });

  it("the repository's .logbook/worktree-setup runs only once accepted, and is asked about again when it changes", async () => {
    const { repo, env } = await setUp();
    mkdirSync(join(repo, '.logbook'), { recursive: true });
    writeFileSync(join(repo, '.logbook/worktree-setup'), 'echo from-repo > repo-setup.txt\n');
    gitIn(repo, 'add', '.logbook/worktree-setup');
    gitIn(repo, 'commit', '--quiet', '-m', 'setup');
    const refused = await runCli(['run', '--worktree', 'one', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(refused.code, 1, printed(refused));
    assert.match(refused.stderr, /echo from-repo > repo-setup\.txt/);
    assert.match(refused.stderr, /logbook tasks --accept-setup/);
    assert.deepEqual(await tasks(repo, env), [], 'a task was made');

    const accepted = await runCli(['tasks', '--accept-setup'], { cwd: repo, env });
    assert.equal(accepted.code, 0, printed(accepted));
    assert.match(accepted.stdout, /echo from-repo/);
    const ran = await runCli(['run', '--worktree', 'two', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(ran.code, 0, printed(ran));
    const [task] = await tasks(repo, env);
    assert.equal(readFileSync(join(task!.worktree as string, 'repo-setup.txt'), 'utf8'), 'from-repo\n');

    writeFileSync(join(repo, '.logbook/worktree-setup'), 'echo changed\n');
    gitIn(repo, 'commit', '--quiet', '-am', 'changed setup');
    const again = await runCli(['run', '--worktree', 'three', 'Write a greeting', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(again.code, 1, printed(again));
    assert.match(again.stderr, /echo changed/);
  });
});
