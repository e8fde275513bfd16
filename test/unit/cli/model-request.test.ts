// `logbook run` asks the model through its own fetch (host/node/model-fetch.ts): a run that talks
// to the model never calls Node's fetch, whose first use costs a short run about 70 ms of CPU time.
// Node's fetch is counted by a module loaded before the CLI (NODE_OPTIONS --require).
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] };

describe('logbook run: the model request', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('goes out without Node’s fetch', async () => {
    const dir = fx.tmp();
    const calls = join(dir, 'fetch-calls.txt');
    const counter = join(dir, 'count-fetch.cjs');
    writeFileSync(calls, '');
    writeFileSync(
      counter,
      [
        "const fs = require('node:fs');",
        'const real = globalThis.fetch;',
        'globalThis.fetch = (input, init) => {',
        `  fs.appendFileSync(${JSON.stringify(calls)}, String(input) + '\\n');`,
        '  return real(input, init);',
        '};',
      ].join('\n'),
    );
    const env = await fx.startLlm({ name: 'model-request', turns: [{ reply: finish }] });
    const r = await runCli(
      ['run', '--workspace', fx.tmp(), '--store', join(dir, 'conv'), '--task', 'say done'],
      {
        env: { ...env, NODE_OPTIONS: `--require ${counter}` },
      },
    );
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stdout, /finish: Done\./, printed(r));
    assert.equal(fx.llm!.remainingTurns(), 0, 'the model was asked');
    assert.equal(readFileSync(calls, 'utf8'), '', 'Node’s fetch was not called');
  });
});
