// A restore never loses a file that existed before the agent's first action: the real CLI against
// the scripted model, an agent whose command overwrites an ignored settings.local.json, deletes an ignored
// build folder and an untracked file, and creates one. Restoring the first checkpoint puts every
// file back as it was (ignored ones included); undoing that restore brings back what was created.
import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lostFiles, snapshotFiles } from '../../../src/host/node/checkpoints/restore-loss';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';

const DAMAGE = 'echo agent > settings.local.json && rm -rf dist notes.txt && echo made > later.txt';

function seed(ws: string): void {
  mkdirSync(join(ws, 'dist'), { recursive: true });
  writeFileSync(join(ws, '.gitignore'), 'settings.local.json\ndist/\n');
  writeFileSync(join(ws, 'settings.local.json'), '{"mine":1}\n');
  writeFileSync(join(ws, 'dist', 'app.js'), 'built\n');
  writeFileSync(join(ws, 'notes.txt'), 'untracked notes\n');
  writeFileSync(join(ws, 'tracked.txt'), 'tracked\n');
  execSync(
    'git init -q && git add tracked.txt .gitignore && git -c user.name=U -c user.email=u@example.com commit -qm seed',
    {
      cwd: ws,
      env: { PATH: process.env.PATH ?? '', HOME: ws, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'pipe',
    },
  );
}

describe('hostile: checkpoints cover what the agent may touch', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const script = {
    name: 'checkpoint-cover',
    turns: [
      { reply: { toolCalls: [terminalCall('call_damage', DAMAGE)] } },
      {
        match: { lastRole: 'tool' as const },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  };

  it('act: ignored and untracked files the agent overwrote or deleted come back, and the restore is undone whole', async () => {
    const env = await fx.startLlm(script);
    const root = fx.tmp();
    const ws = join(root, 'ws');
    seed(ws);
    const before = snapshotFiles(ws);
    const conv = join(root, 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'clean up', '--confirm', 'never', '--store', conv],
      {
        env,
      },
    );
    assert.equal(run.code, 0, printed(run));
    assert.equal(readFileSync(join(ws, 'settings.local.json'), 'utf8'), 'agent\n', printed(run));
    const damaged = snapshotFiles(ws);
    assert.deepEqual(lostFiles(before, damaged), {
      gone: ['dist/app.js', 'notes.txt'],
      changed: ['settings.local.json'],
    });

    const list = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as { id: string }[];
    const restored = await runCli(['restore', conv, '--at', list[0]!.id, '--yes']);
    assert.equal(restored.code, 0, printed(restored));
    assert.deepEqual(lostFiles(before, snapshotFiles(ws)), { gone: [], changed: [] });

    // The restore deleted later.txt, made after the checkpoint: the checkpoint before it holds it.
    const after = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as {
      id: string;
      reason: string;
    }[];
    const undo = await runCli([
      'restore',
      conv,
      '--at',
      after.find((e) => e.reason === 'restore')!.id,
      '--yes',
    ]);
    assert.equal(undo.code, 0, printed(undo));
    assert.deepEqual(lostFiles(damaged, snapshotFiles(ws)), { gone: [], changed: [] });
  });

  it('plan: the same command does not run, and nothing is lost', async () => {
    const env = await fx.startLlm(script);
    const root = fx.tmp();
    const ws = join(root, 'ws');
    seed(ws);
    const before = snapshotFiles(ws);
    const run = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--mode',
        'plan',
        '--task',
        'clean up',
        '--confirm',
        'never',
        '--store',
        join(root, 'conv'),
      ],
      { env },
    );
    assert.equal(run.code, 0, printed(run));
    assert.deepEqual(lostFiles(before, snapshotFiles(ws)), { gone: [], changed: [] });
  });
});
