// `logbook fork` on a worktree task's conversation, through the real CLI, real git and the scripted
// model: a new task on a branch and worktree of its own, holding the source's files at that point
// and its conversation up to it; the source task, its branch and worktree, and the main working
// tree untouched; `logbook run --store` goes on in the new task's worktree; apply brings its change.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson } from './fixtures';
import { finishCall, gitIn, replaceCall, treeHashes, TWENTY_LINES } from './worktree-fixtures';
import { finishedWorktreeTask } from './worktree-task-run';

type Task = { name: string; log: string; worktree: string; branch: string; base: string; status: string };

describe('logbook fork of a worktree task: continued as a new task', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  /** A task that edited line 2, then line 18, in two turns. */
  async function finishedTask(name: string) {
    return finishedWorktreeTask(fx, outsideFolder('task-fork-'), name, `fork-${name}`, [
      { reply: { toolCalls: [replaceCall('call_a', 'line 2\n', 'line 2, first\n')] } },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [replaceCall('call_b', 'line 18\n', 'line 18, second\n')] },
      },
      { match: { lastRole: 'tool' }, reply: { toolCalls: [finishCall()] } },
    ]);
  }

  const tasks = async (repo: string, env: Record<string, string>) =>
    (JSON.parse((await runCli(['tasks', '--json'], { cwd: repo, env })).stdout) as { tasks: Task[] }).tasks;

  it('forks at an action: the files before it, the conversation up to it; the source untouched', async () => {
    const { repo, env } = await finishedTask('src');
    const [source] = await tasks(repo, env);
    const events = await readLogJson(source!.log);
    const second = events.find((e) => e.kind === 'ActionEvent' && e.tool_call_id === 'call_b')!;
    const mainBefore = treeHashes(repo);
    const sourceBefore = treeHashes(source!.worktree);
    const sourceTip = gitIn(repo, 'rev-parse', source!.branch).trim();

    const forked = await runCli(['fork', 'src', '--at', second.id as string], { cwd: repo, env });
    assert.equal(forked.code, 0, printed(forked));
    assert.match(forked.stderr, /task src-2: continued from task src at event/);

    const all = await tasks(repo, env);
    assert.deepEqual(
      all.map((t) => t.name),
      ['src', 'src-2'],
    );
    const f = all[1]!;
    assert.equal(forked.stdout.trim(), f.log);
    assert.equal(f.base, source!.base, 'the continued task starts from the same base');
    assert.equal(f.branch, 'logbook/src-2');
    // The files as they were before the second edit, as uncommitted work against the base.
    assert.equal(
      readFileSync(join(f.worktree, 'a.txt'), 'utf8'),
      TWENTY_LINES.replace('line 2\n', 'line 2, first\n'),
    );
    assert.equal(gitIn(f.worktree, 'status', '--porcelain').trim(), 'M a.txt');
    assert.equal(gitIn(f.worktree, 'rev-parse', 'HEAD').trim(), source!.base);
    // The source and the main tree are as they were.
    assert.deepEqual(treeHashes(source!.worktree), sourceBefore);
    assert.equal(gitIn(repo, 'rev-parse', source!.branch).trim(), sourceTip);
    assert.deepEqual(treeHashes(repo), mainBefore);

    // The conversation up to that action (it waits to be decided again), signed, pointing at the source.
    const copied = await readLogJson(f.log);
    assert.ok(copied.some((e) => e.id === second.id));
    assert.ok(!copied.some((e) => e.kind === 'ObservationEvent' && e.tool_call_id === 'call_b'));
    assert.ok(
      copied.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'forked_from'),
      'the fork says where it came from',
    );
    const verified = await runCli(['verify', f.log], { cwd: repo, env });
    assert.equal(verified.code, 0, printed(verified));
    const session = JSON.parse(readFileSync(join(f.log, 'session.json'), 'utf8')) as { workspace: string };
    assert.equal(session.workspace, f.worktree);
  });

  it('goes on with run --store in the new worktree only; apply brings the continued change', async () => {
    const { repo, env } = await finishedTask('go');
    const [source] = await tasks(repo, env);
    const events = await readLogJson(source!.log);
    const firstSeen = events.find((e) => e.kind === 'ObservationEvent' && e.tool_call_id === 'call_a')!;
    const forked = await runCli(['fork', source!.log, '--at', firstSeen.id as string, '--name', 'other'], {
      cwd: repo,
      env,
    });
    assert.equal(forked.code, 0, printed(forked));
    const sourceBefore = treeHashes(source!.worktree);
    const mainBefore = treeHashes(repo);
    const goOn = {
      ...env,
      ...(await fx.startLlm({
        name: 'fork-go-on',
        turns: [
          { reply: { toolCalls: [replaceCall('call_c', 'line 10\n', 'line 10, other\n')] } },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
    };
    const log = forked.stdout.trim();
    const ran = await runCli(['run', '--store', log, 'edit line 10 instead', '--confirm', 'never'], {
      cwd: repo,
      env: goOn,
    });
    assert.equal(ran.code, 0, printed(ran));
    const other = (await tasks(repo, env)).find((t) => t.name === 'other')!;
    assert.equal(
      readFileSync(join(other.worktree, 'a.txt'), 'utf8'),
      TWENTY_LINES.replace('line 2\n', 'line 2, first\n').replace('line 10\n', 'line 10, other\n'),
    );
    assert.deepEqual(treeHashes(source!.worktree), sourceBefore, 'the source task changed');
    assert.deepEqual(treeHashes(repo), mainBefore, 'the main tree changed');
    const applied = await runCli(['apply', 'other'], { cwd: repo, env });
    assert.equal(applied.code, 0, printed(applied));
    assert.equal(
      readFileSync(join(repo, 'a.txt'), 'utf8'),
      TWENTY_LINES.replace('line 2\n', 'line 2, first\n').replace('line 10\n', 'line 10, other\n'),
    );
  });

  it('refuses a taken name, an unknown event and a missing checkpoint, leaving nothing behind', async () => {
    const { repo, env } = await finishedTask('ref');
    const taken = await runCli(['fork', 'ref', '--name', 'ref'], { cwd: repo, env });
    assert.equal(taken.code, 1, printed(taken));
    assert.match(taken.stderr, /a task named "ref" exists already/);
    const unknown = await runCli(['fork', 'ref', '--at', 'no-such-event'], { cwd: repo, env });
    assert.equal(unknown.code, 1, printed(unknown));
    const bad = await runCli(['fork', 'ref', '--name', 'Not A Name'], { cwd: repo, env });
    assert.equal(bad.code, 1, printed(bad));
    // The checkpoint that holds the files is not where this run looks: what was made is undone.
    const elsewhere = { ...env, LOGBOOK_CHECKPOINTS_DIR: join(env.LOGBOOK_WORKTREES_DIR!, '..', 'empty') };
    const lost = await runCli(['fork', 'ref'], { cwd: repo, env: elsewhere });
    assert.equal(lost.code, 1, printed(lost));
    assert.match(
      lost.stderr,
      /the files at that point could not be put in task ref-2's worktree, so it was not made: Checkpoint/,
    );
    assert.deepEqual(
      (await tasks(repo, env)).map((t) => t.name),
      ['ref'],
    );
    assert.equal(
      gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/logbook').trim(),
      'logbook/ref',
    );
    assert.ok(!existsSync(join(env.LOGBOOK_WORKTREES_DIR!, 'ref-2')));
  });
});
