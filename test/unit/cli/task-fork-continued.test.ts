// A task `logbook fork` continues works like a task: its setup step runs in its own worktree (in
// the sandbox, recorded in its log, never writing the source's worktree or the main tree), a
// restore to a point it copied from the source puts the files back in its worktree, and a task
// whose checkpoints the editor keeps (its log folder notes where) can be continued at a terminal.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkpointAt } from '../../../src/core/checkpoints/timeline';
import type { Event } from '../../../src/core/events';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson } from './fixtures';
import { finishCall, gitIn, replaceCall, treeHashes, TWENTY_LINES } from './worktree-fixtures';
import { finishedWorktreeTask } from './worktree-task-run';

type Task = { name: string; log: string; worktree: string; branch: string };

describe('logbook fork: the continued task works like a task', function () {
  this.timeout(180_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  /** A task that edited line 2, then line 18, in two turns. */
  function finishedTask(name: string, extraEnv: Record<string, string> = {}) {
    return finishedWorktreeTask(
      fx,
      outsideFolder('task-fork-cont-'),
      name,
      `fork-cont-${name}`,
      [
        { reply: { toolCalls: [replaceCall('call_a', 'line 2\n', 'line 2, first\n')] } },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [replaceCall('call_b', 'line 18\n', 'line 18, second\n')] },
        },
        { match: { lastRole: 'tool' }, reply: { toolCalls: [finishCall()] } },
      ],
      extraEnv,
    );
  }

  const tasks = async (repo: string, env: Record<string, string>) =>
    (JSON.parse((await runCli(['tasks', '--json'], { cwd: repo, env })).stdout) as { tasks: Task[] }).tasks;
  const BOTH = TWENTY_LINES.replace('line 2\n', 'line 2, first\n').replace('line 18\n', 'line 18, second\n');

  it('runs the setup step in the new worktree, recorded in its signed log', async () => {
    const { repo, env } = await finishedTask('setup');
    const [source] = await tasks(repo, env);
    const sourceBefore = treeHashes(source!.worktree);
    const mainBefore = treeHashes(repo);
    const withSetup = { ...env, LOGBOOK_WORKTREES_SETUP: 'echo setup-ran > setup.txt' };
    const forked = await runCli(['fork', 'setup'], { cwd: repo, env: withSetup });
    assert.equal(forked.code, 0, printed(forked));
    assert.match(forked.stderr, /setup \(worktrees\.setup\): echo setup-ran > setup\.txt/);
    const f = (await tasks(repo, env)).find((t) => t.name === 'setup-2')!;
    assert.equal(readFileSync(join(f.worktree, 'setup.txt'), 'utf8'), 'setup-ran\n');
    const events = await readLogJson(f.log);
    const step = events.find(
      (e) => e.kind === 'ActionEvent' && e.summary === 'Worktree setup (worktrees.setup)',
    );
    const answer = events.find((e) => e.kind === 'ObservationEvent' && e.action_id === step?.id) as
      { observation?: { exit_code?: number } } | undefined;
    assert.equal(answer?.observation?.exit_code, 0, "the setup step is not in the continued task's log");
    // After the copied events: the fork's record comes before it.
    const forkedAt = events.findIndex((e) => e.key === 'forked_from');
    assert.ok(forkedAt >= 0 && forkedAt < events.indexOf(step!), 'the setup step is not after the fork');
    const verified = await runCli(['verify', f.log], { cwd: repo, env });
    assert.equal(verified.code, 0, printed(verified));
    assert.deepEqual(treeHashes(source!.worktree), sourceBefore, 'the setup wrote the source task');
    assert.deepEqual(treeHashes(repo), mainBefore, 'the setup wrote the main working tree');
  });

  it("a setup step that writes the source's worktree or the main tree fails in the sandbox; both are byte-identical", async () => {
    const { repo, env } = await finishedTask('hostile');
    const [source] = await tasks(repo, env);
    const sourceBefore = treeHashes(source!.worktree);
    const mainBefore = treeHashes(repo);
    const escape = {
      ...env,
      LOGBOOK_WORKTREES_SETUP:
        `echo pwned > ${join(source!.worktree, 'a.txt')}; echo pwned > ${join(source!.worktree, 'planted.txt')}; ` +
        `echo pwned > ${join(repo, 'a.txt')}; echo pwned > ${join(repo, 'planted.txt')}`,
    };
    const forked = await runCli(['fork', 'hostile'], { cwd: repo, env: escape });
    assert.equal(forked.code, 1, printed(forked));
    assert.match(forked.stderr, /the setup step of worktrees\.setup exited with 1; the agent did not go on/);
    assert.deepEqual(treeHashes(source!.worktree), sourceBefore, 'the setup wrote the source task');
    assert.deepEqual(treeHashes(repo), mainBefore, 'the setup wrote the main working tree');
    // The task is kept, with the failed step in its log, to look at or discard.
    const f = (await tasks(repo, env)).find((t) => t.name === 'hostile-2')!;
    assert.equal(readFileSync(join(f.worktree, 'a.txt'), 'utf8'), BOTH);
  });

  it('restores a point copied from the source in the new worktree only', async () => {
    const { repo, env } = await finishedTask('rest');
    const [source] = await tasks(repo, env);
    const events = await readLogJson(source!.log);
    const first = events.find((e) => e.kind === 'ActionEvent' && e.tool_call_id === 'call_a')!;
    const forked = await runCli(['fork', 'rest'], { cwd: repo, env });
    assert.equal(forked.code, 0, printed(forked));
    const f = (await tasks(repo, env)).find((t) => t.name === 'rest-2')!;
    assert.equal(readFileSync(join(f.worktree, 'a.txt'), 'utf8'), BOTH);
    const sourceBefore = treeHashes(source!.worktree);
    const mainBefore = treeHashes(repo);
    const restored = await runCli(['restore', f.log, '--at', first.id as string, '--yes'], {
      cwd: repo,
      env,
    });
    assert.equal(restored.code, 0, printed(restored));
    assert.equal(readFileSync(join(f.worktree, 'a.txt'), 'utf8'), TWENTY_LINES);
    assert.deepEqual(treeHashes(source!.worktree), sourceBefore, 'the restore wrote the source task');
    assert.deepEqual(treeHashes(repo), mainBefore, 'the restore wrote the main working tree');
  });

  it("continues a task whose checkpoints the editor keeps, where the task's log folder says", async () => {
    const base = outsideFolder('task-fork-editor-');
    const editorRoot = join(base, 'editor-storage', 'checkpoints');
    // The task's checkpoints where the editor would keep them, not where `logbook fork` looks by itself.
    const { repo, env } = await finishedTask('ed', { LOGBOOK_CHECKPOINTS_DIR: editorRoot });
    const plain: Record<string, string> = { ...env };
    delete plain.LOGBOOK_CHECKPOINTS_DIR;
    const [source] = await tasks(repo, plain);
    const events = await readLogJson(source!.log);
    const second = events.find((e) => e.kind === 'ActionEvent' && e.tool_call_id === 'call_b')!;
    const unnoted = await runCli(['fork', 'ed', '--at', second.id as string], { cwd: repo, env: plain });
    assert.equal(unnoted.code, 1, printed(unnoted));
    // The note the editor writes in the task's log folder (task-checkpoint-stores.ts).
    writeFileSync(join(source!.log, 'editor-checkpoints.json'), JSON.stringify({ root: editorRoot }));
    const forked = await runCli(['fork', 'ed', '--at', second.id as string], { cwd: repo, env: plain });
    assert.equal(forked.code, 0, printed(forked));
    const f = (await tasks(repo, plain)).find((t) => t.name === 'ed-2')!;
    assert.equal(
      readFileSync(join(f.worktree, 'a.txt'), 'utf8'),
      TWENTY_LINES.replace('line 2\n', 'line 2, first\n'),
    );
    assert.equal(gitIn(f.worktree, 'status', '--porcelain').trim(), 'M a.txt');
    // The new task's log notes the editor's checkpoints too, and its copied points went into both
    // stores: the editor's (read here as a CLI run pointed at it reads it) and the CLI's.
    assert.deepEqual(JSON.parse(readFileSync(join(f.log, 'editor-checkpoints.json'), 'utf8')), {
      root: editorRoot,
    });
    const first = events.find((e) => e.kind === 'ActionEvent' && e.tool_call_id === 'call_a')!;
    const atFirst = checkpointAt(events as unknown as Event[], first.id as string);
    const newId = (JSON.parse(readFileSync(join(f.log, 'session.json'), 'utf8')) as { id: string }).id;
    const editorStore = new GitCheckpointStore({
      workspace: f.worktree,
      storeDir: storeDirFor(editorRoot, f.worktree),
    });
    assert.ok(atFirst && (await editorStore.held(newId)).includes(atFirst.value.checkpoint));
    const restored = await runCli(['restore', f.log, '--at', first.id as string, '--yes'], {
      cwd: repo,
      env: plain,
    });
    assert.equal(restored.code, 0, printed(restored));
    assert.equal(readFileSync(join(f.worktree, 'a.txt'), 'utf8'), TWENTY_LINES);
    assert.ok(!existsSync(join(repo, 'planted.txt')));
  });
});
