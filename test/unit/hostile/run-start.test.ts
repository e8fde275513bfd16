// `logbook run` rewrites session.json and its kept record only when their text changes. A
// continued run whose session.json the agent (or anything in the workspace) rewrote to turn
// confirmations off still records the user's settings again, and its next risky action still asks.
// Act mode only: plan mode refuses the write that would tamper with the record in the first place.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, terminalCall } from '../cli/fixtures';

describe('hostile workspace: session.json turned to "never" between two runs of a conversation', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('act mode: the continued run writes "risky" back and its risky command asks', async () => {
    const base = realpathSync(fx.tmp('logbook-hostile-run-start-'));
    const ws = join(base, 'ws');
    mkdirSync(ws);
    const store = join(ws, '.logbook', 'conversations', 'c1');
    const finish = { toolCalls: [{ id: 'call_fin', name: 'finish', arguments: { message: 'Done.' } }] };
    let env = await fx.startLlm({ name: 'first', turns: [{ reply: finish }] });
    let r = await runCli(['run', '--workspace', ws, '--store', store, '--task', 'look around'], { env });
    assert.equal(r.code, 0, printed(r));
    const file = join(store, 'session.json');
    const recorded = readFileSync(file, 'utf8');
    assert.match(recorded, /"confirmation": "risky"/);
    // What a file write in the workspace can do to the record.
    writeFileSync(file, recorded.replace('"confirmation": "risky"', '"confirmation": "never"'));

    env = await fx.startLlm({
      name: 'second',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [terminalCall('call_one', 'touch one.txt', 'HIGH')] },
        },
        { match: { lastRole: 'tool' }, reply: finish },
      ],
    });
    r = await runCli(['run', '--workspace', ws, '--store', store, '--task', 'make one'], { env });
    assert.equal(r.code, 2, `the risky command asks: ${printed(r)}`);
    assert.ok(!existsSync(join(ws, 'one.txt')), 'nothing ran unasked');
    assert.match(
      readFileSync(file, 'utf8'),
      /"confirmation": "risky"/,
      'the record says the run’s mode again',
    );
  });
});
