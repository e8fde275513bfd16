// `logbook review` of a task a hostile model wrote, through the real CLI, real git and the scripted
// model, in a folder the sandbox could reach (not under /tmp): a file named like a git pathspec
// (`*.txt`) is rejected alone, never as a pattern that would also take back the task's other
// change; a file whose text carries terminal escapes is listed without them; plan mode writes
// nothing, so there is nothing to take back. A running task (a `logbook run`, or a window's step in
// flight) and a discarded one are refused, their branch untouched.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, type HeldLock } from '../../../src/core/log';
import { TaskStepGuard } from '../../../src/host/node/worktrees/task-steps';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';
import { createCall, finishCall, gitIn, makeRepo } from '../cli/worktree-fixtures';

const ESCAPES = 'title\x1b]0;pwned\x07 and clear\x1b[2J\n';

describe('hostile model: a task reviewed per hunk from the CLI (issue 43)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const bases: string[] = [];
  const held: { release(): void }[] = [];
  afterEach(async () => {
    for (const h of held.splice(0).reverse()) h.release();
    await fx.cleanup();
    for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
  });

  async function task(name: string, mode: 'act' | 'plan') {
    const base = outsideFolder('task-review-cli-');
    bases.push(base);
    const repo = makeRepo(join(base, 'repo'), { 'notes.txt': 'notes\n' });
    const env = {
      ...(await fx.startLlm({
        name: 'review-names',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_a',
                  name: 'file_editor',
                  arguments: {
                    command: 'str_replace',
                    path: 'notes.txt',
                    old_str: 'notes\n',
                    new_str: 'notes, edited\n',
                    security_risk: 'LOW',
                    summary: 'edit notes',
                  },
                },
                createCall('call_b', '*.txt', 'a file named like a pattern\n'),
                createCall('call_c', 'shout.md', ESCAPES),
              ],
            },
          },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    const r = await runCli(
      ['run', '--worktree', name, '--mode', mode, '--confirm', 'never', '--no-input', 'edit notes'],
      { cwd: repo, env },
    );
    assert.equal(r.code, 0, printed(r));
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [t] = (JSON.parse(list.stdout) as { tasks: { log: string; worktree: string }[] }).tasks;
    return { repo, env, log: t!.log, worktree: t!.worktree };
  }

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: a file named like a pathspec is rejected alone; escapes are not printed`, async () => {
      const t = await task(`names-${mode}`, mode);
      const listed = await runCli(['review', `names-${mode}`], { cwd: t.repo, env: t.env });
      assert.equal(listed.code, 0, printed(listed));
      assert.doesNotMatch(listed.stdout + listed.stderr, /\x1b|\x07/, 'a terminal escape reached the output');
      const r = await runCli(['review', `names-${mode}`, '--reject-file', '*.txt'], {
        cwd: t.repo,
        env: t.env,
      });
      if (mode === 'plan') {
        // Plan mode wrote nothing: no file to take back, and the listing says so.
        assert.match(listed.stdout, /0 hunk\(s\) in 0 file\(s\)/);
        assert.equal(r.code, 1, printed(r));
        assert.match(r.stderr, /"\*\.txt" is not one of the files/);
        return;
      }
      // Each file's diff is of that file alone: `*.txt` does not list notes.txt's hunk again.
      assert.match(listed.stdout, /3 hunk\(s\) in 3 file\(s\)/);
      assert.match(listed.stdout, /^shout\.md$/m);
      assert.equal(r.code, 0, printed(r));
      const branch = `logbook/names-${mode}`;
      assert.equal(gitIn(t.repo, 'show', '--format=', '--name-status', branch).trim(), 'D\t*.txt');
      const applied = await runCli(['apply', `names-${mode}`], { cwd: t.repo, env: t.env });
      assert.equal(applied.code, 0, printed(applied));
      assert.equal(readFileSync(join(t.repo, 'notes.txt'), 'utf8'), 'notes, edited\n');
      assert.ok(!existsSync(join(t.repo, '*.txt')), 'the rejected file was applied');
    });
  }

  it('refuses a running task, by a logbook run or a window step in flight, and a discarded one', async () => {
    const t = await task('busy', 'act');
    const listed = await runCli(['review', 'busy'], { cwd: t.repo, env: t.env });
    const digest = /digest ([0-9a-f]{12})/.exec(listed.stdout)![1]!;
    const tip = gitIn(t.repo, 'rev-parse', 'logbook/busy');
    const refused = async () => {
      for (const args of [[], ['--reject', '1', '--digest', digest], ['--reject-file', 'notes.txt']]) {
        const r = await runCli(['review', 'busy', ...args], { cwd: t.repo, env: t.env });
        assert.equal(r.code, 1, printed(r));
        assert.match(r.stderr, /task busy is running/);
      }
      assert.equal(
        gitIn(t.repo, 'rev-parse', 'logbook/busy'),
        tip,
        'the branch changed under a running task',
      );
    };

    const run = acquireLock(t.log, undefined, 'logbook run');
    assert.ok(run.acquired);
    await refused();
    run.lock.release();

    // A window holds the conversation open: refused while its step runs, reviewed between steps.
    const writer = acquireLock(t.log, undefined, 'an editor window');
    assert.ok(writer.acquired);
    held.push(writer.lock);
    const guard = new TaskStepGuard(t.log, 'an editor window');
    guard.hold();
    held.push({ release: () => guard.dispose() });
    const step: HeldLock | undefined = guard.step();
    assert.ok(step);
    await refused();
    step.release();
    const between = await runCli(['review', 'busy', '--reject', '1', '--digest', digest], {
      cwd: t.repo,
      env: t.env,
    });
    assert.equal(between.code, 0, printed(between));
    for (const h of held.splice(0).reverse()) h.release();

    const discarded = await runCli(['discard', 'busy'], { cwd: t.repo, env: t.env });
    assert.equal(discarded.code, 0, printed(discarded));
    const after = await runCli(['review', 'busy'], { cwd: t.repo, env: t.env });
    assert.equal(after.code, 1, printed(after));
    assert.match(after.stderr, /task busy was discarded/);
  });
});
