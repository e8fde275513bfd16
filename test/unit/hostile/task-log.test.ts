// Decisions on a worktree task recorded in its signed log, against a window that holds the log
// open, a file in the log's DECISIONS folder that is no decision, a path laden with escapes, and a
// task run in plan mode. The window is played by this process with the locks a window takes (its
// writer lock and HELD); the CLI is the real one. The repository lies outside /tmp.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../../../src/core/log';
import { DECISIONS_DIR } from '../../../src/host/node/worktrees/task-decision-queue';
import { TaskStepGuard } from '../../../src/host/node/worktrees/task-steps';
import type { ScriptedToolCall } from '../../support/llm-server/scenario';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';
import { createCall, finishCall, makeRepo } from '../cli/worktree-fixtures';

interface Shown {
  task_decisions: { decision: string; path?: string }[];
}

describe('hostile: decisions on a task recorded in its log', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const held: { release(): void }[] = [];
  afterEach(() => {
    for (const h of held.splice(0)) h.release();
    fx.cleanup();
  });

  async function finishedTask(
    name: string,
    file: string,
    mode: 'act' | 'plan' = 'act',
    files: Record<string, string> = { 'README.md': '# project\n' },
    call: ScriptedToolCall = createCall('call_new', file, 'by the task\n'),
  ) {
    const base = outsideFolder('task-log-');
    const repo = makeRepo(join(base, 'repo'), files);
    const env = {
      ...(await fx.startLlm({
        name: `task-log-${name}`,
        turns: [
          { reply: { toolCalls: [call] } },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    const r = await runCli(['run', '--worktree', name, 'Add a file', '--confirm', 'never', '--mode', mode], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [task] = (JSON.parse(list.stdout) as { tasks: { worktree: string; log: string }[] }).tasks;
    return { repo, env, log: task!.log, worktree: task!.worktree };
  }

  async function decisions(t: { repo: string; env: Record<string, string> }, name: string): Promise<Shown> {
    const shown = await runCli(['show', name, '--json'], { cwd: t.repo, env: t.env });
    assert.equal(shown.code, 0, printed(shown));
    return JSON.parse(shown.stdout) as Shown;
  }

  function holdOpen(log: string): () => void {
    const writer = acquireLock(log, undefined, 'an editor window');
    assert.ok(writer.acquired, 'the log is locked already');
    const guard = new TaskStepGuard(log, 'an editor window');
    guard.hold();
    const release = () => {
      guard.dispose();
      writer.lock.release();
    };
    held.push({ release });
    return release;
  }

  it('held open by a window: the CLI leaves its decision for the window, and nothing queued is lost', async () => {
    const t = await finishedTask('held', 'added.txt');
    const letGo = holdOpen(t.log);
    const rejected = await runCli(['review', 'held', '--reject-file', 'added.txt'], {
      cwd: t.repo,
      env: t.env,
    });
    assert.equal(rejected.code, 0, printed(rejected));
    assert.match(rejected.stderr, /the window that holds its conversation records this in its log/);
    assert.equal(readdirSync(join(t.log, DECISIONS_DIR)).filter((n) => n.endsWith('.json')).length, 1);
    letGo();
    assert.deepEqual((await decisions(t, 'held')).task_decisions, [], 'the CLI wrote a log a window holds');
    // The window closed before it appended: the next decision recorded appends it first, in order.
    const discarded = await runCli(['discard', 'held'], { cwd: t.repo, env: t.env });
    assert.equal(discarded.code, 0, printed(discarded));
    assert.deepEqual(
      (await decisions(t, 'held')).task_decisions.map((d) => [d.decision, d.path]),
      [
        ['reject_file', 'added.txt'],
        ['discard', undefined],
      ],
    );
    assert.deepEqual(readdirSync(join(t.log, DECISIONS_DIR)), []);
  });

  it('a file in DECISIONS that is no decision is dropped, never appended', async () => {
    const t = await finishedTask('forged', 'added.txt');
    const dir = join(t.log, DECISIONS_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, '000000000000001-forged.json'),
      JSON.stringify([{ decision: 'merge_everything', task: 1 }]),
    );
    writeFileSync(join(dir, '000000000000002-broken.json'), '{not json');
    const discarded = await runCli(['discard', 'forged'], { cwd: t.repo, env: t.env });
    assert.equal(discarded.code, 0, printed(discarded));
    assert.deepEqual(
      (await decisions(t, 'forged')).task_decisions.map((d) => d.decision),
      ['discard'],
    );
    const verified = await runCli(['verify', t.log], { cwd: t.repo, env: t.env });
    assert.equal(verified.code, 0, printed(verified));
  });

  it('a rejected hunk whose header carries terminal escapes is shown escaped by logbook show', async () => {
    // git names the hunk after the nearest line before it that starts with a letter: the escapes.
    const text =
      'title\x1b]0;pwned\x07\n' + Array.from({ length: 20 }, (_, i) => `  filler ${i + 1}\n`).join('');
    const edit = {
      id: 'call_edit',
      name: 'file_editor',
      arguments: {
        command: 'str_replace',
        path: 'a.txt',
        old_str: '  filler 18\n',
        new_str: '  filler 18, edited\n',
        security_risk: 'LOW',
      },
    };
    const t = await finishedTask('escapes', 'a.txt', 'act', { 'a.txt': text }, edit);
    const listed = await runCli(['review', 'escapes'], { cwd: t.repo, env: t.env });
    const digest = /digest ([0-9a-f]{12})/.exec(listed.stdout)?.[1] ?? '';
    const rejected = await runCli(['review', 'escapes', '--reject', '1', '--digest', digest], {
      cwd: t.repo,
      env: t.env,
    });
    assert.equal(rejected.code, 0, printed(rejected));
    const hunk = (await decisions(t, 'escapes')).task_decisions[0] as { hunk?: string };
    assert.match(hunk.hunk ?? '', /\x1b\]0;pwned/, 'the record keeps the header as git gave it');
    const shown = await runCli(['show', 'escapes'], { cwd: t.repo, env: t.env });
    assert.equal(shown.code, 0, printed(shown));
    assert.doesNotMatch(shown.stdout, /\x1b|\x07/, 'a terminal escape reached the output');
    assert.match(shown.stdout, /\[task\] You rejected a hunk of a\.txt @@ .*pwned.* at the terminal/);
  });

  it('a task run in plan mode: its discard is recorded, though the task wrote nothing', async () => {
    const t = await finishedTask('planned', 'added.txt', 'plan');
    assert.ok(!existsSync(join(t.worktree, 'added.txt')), 'plan mode wrote a file');
    const discarded = await runCli(['discard', 'planned'], { cwd: t.repo, env: t.env });
    assert.equal(discarded.code, 0, printed(discarded));
    assert.deepEqual(
      (await decisions(t, 'planned')).task_decisions.map((d) => d.decision),
      ['discard'],
    );
  });
});
