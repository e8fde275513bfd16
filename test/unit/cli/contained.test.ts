// The default mode as `logbook run` users meet it: with the sandbox running and checkpoints on, a
// command that stays in the sandbox and a checkpoint can undo runs without a question, and the run
// says why beside it; one that could lose a file no checkpoint holds still asks, naming the file.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, terminalCall } from './fixtures';

describe('logbook run: contained commands in the default mode', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const scenario = (name: string, command: string) =>
    fx.startLlm({
      name,
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_c', command, 'MEDIUM')] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
      ],
    });

  /** A workspace whose dependencies folder is ignored (rebuildable), as most projects have. */
  function workspace(): string {
    const ws = fx.tmp();
    writeFileSync(join(ws, '.gitignore'), 'node_modules/\n*.csv\n');
    mkdirSync(join(ws, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(ws, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    writeFileSync(join(ws, 'app.js'), 'console.log(1);\n');
    return ws;
  }

  const WRITE = `node -e "require('fs').writeFileSync('made.txt', 'x')"`;

  it('runs a contained command unasked, records why and prints it beside the action', async () => {
    const env = await scenario('contained-runs', WRITE);
    const ws = workspace();
    const r = await runCli(['run', '--workspace', ws, '--task', 'make a file', '--json'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(existsSync(join(ws, 'made.txt')), printed(r));
    const events = jsonLines(r);
    const checkpoint = events.find(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'checkpoint',
    );
    const unasked = events.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'unasked');
    const id = (checkpoint?.value as { checkpoint: string }).checkpoint;
    assert.deepEqual(unasked?.value, {
      action_id: (events.find((e) => e.kind === 'ActionEvent') as { id: string }).id,
      reason: `contained; undo with checkpoint ${id.slice(0, 7)}`,
      checkpoint: id,
    });

    const env2 = await scenario('contained-runs-text', WRITE);
    const ws2 = workspace();
    const text = await runCli(['run', '--workspace', ws2, '--task', 'make a file'], { env: env2 });
    assert.equal(text.code, 0, printed(text));
    assert.match(
      text.stdout,
      /\[policy\] action \S+ runs without asking: contained; undo with checkpoint [0-9a-f]{7}/,
    );
  });

  it('asks when the command could lose a file no checkpoint holds, naming it', async () => {
    const env = await scenario('contained-asks', WRITE);
    const ws = workspace();
    // Ignored files are held within a budget; one over the per-file cap (5 MB) is not.
    writeFileSync(join(ws, 'measurements.csv'), Buffer.alloc(6 * 1024 * 1024, 'a'));
    const r = await runCli(['run', '--workspace', ws, '--task', 'make a file'], { env });
    assert.equal(r.code, 2, printed(r));
    assert.ok(!existsSync(join(ws, 'made.txt')));
    assert.match(printed(r), /no checkpoint holds \S*measurements\.csv/);
  });

  it('asks before deleting a dependencies folder no checkpoint holds, by name', async () => {
    const env = await scenario('contained-rm', 'rm -rf node_modules');
    const ws = workspace();
    // Left out of checkpoints by the user's exclude patterns (a large one is left out by the budget).
    const r = await runCli(['run', '--workspace', ws, '--task', 'clean'], {
      env: { ...env, LOGBOOK_CHECKPOINTS_EXCLUDE: 'node_modules/' },
    });
    assert.equal(r.code, 2, printed(r));
    assert.ok(existsSync(join(ws, 'node_modules', 'dep', 'index.js')));
  });

  it('asks as before with checkpoints off', async () => {
    const env = await scenario('contained-no-checkpoints', WRITE);
    const ws = workspace();
    const r = await runCli(['run', '--workspace', ws, '--task', 'make a file', '--no-checkpoints'], { env });
    assert.equal(r.code, 2, printed(r));
    assert.ok(!existsSync(join(ws, 'made.txt')));
  });
});
