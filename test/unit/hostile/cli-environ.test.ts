// The CLI keeps the model's key in its own environment (/proc/<pid>/environ holds it for the
// process's life: see src/host/node/cli/secret-environment.ts). Inside the sandbox the agent's
// command reads every environ it can see, in act and plan mode: the CLI's is not among them, as
// no process of the host is visible there. Without a sandbox the same command finds it (what the
// sandbox is for; before, the first of the CLI's two processes held it just the same).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson, SECRET_KEY, terminalCall } from '../cli/fixtures';

/**
 * Counts the environ files holding the key, and the processes it could see. The key is put
 * together in the shell: the command's own text (which the shell's processes carry) never holds it.
 */
const [HEAD, TAIL] = [SECRET_KEY.slice(0, 8), SECRET_KEY.slice(8)];
const SCAN = `k='${HEAD}'; k="$k"'${TAIL}'; n=0; for f in /proc/[0-9]*/environ; do grep -qsF -- "$k" "$f" && n=$((n+1)); done; echo "KEY_IN=$n SEEN=$(ls -d /proc/[0-9]* | wc -l)"`;

describe('hostile: the agent`s command reads every /proc/<pid>/environ it can see', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function scan(sandbox: 'required' | 'off', mode: 'act' | 'plan'): Promise<string> {
    const env = await fx.startLlm({
      name: `cli-environ-${sandbox}-${mode}`,
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_scan', SCAN)] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Scanned.' } },
      ],
    });
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      [
        'run',
        '--workspace',
        fx.tmp(),
        '--task',
        'scan',
        '--store',
        store,
        '--confirm',
        'never',
        '--mode',
        mode,
      ],
      { env: { ...env, LOGBOOK_SANDBOX: sandbox } },
    );
    assert.equal(r.code, 0, printed(r));
    const observation = (await readLogJson(store)).find((e) => e.kind === 'ObservationEvent');
    const text = JSON.stringify(observation);
    const m = /KEY_IN=(\d+) SEEN=(\d+)/.exec(text);
    assert.ok(m, `the scan ran: ${text}`);
    return m[0];
  }

  for (const mode of ['act', 'plan'] as const) {
    it(`in the sandbox (${mode} mode), no environ it can see holds the key`, async function () {
      if (process.platform !== 'linux') this.skip();
      const found = await scan('required', mode);
      assert.match(found, /^KEY_IN=0 /, found);
    });
  }

  it('without a sandbox the same scan finds the CLI`s environ (the test can see it)', async function () {
    if (process.platform !== 'linux') this.skip();
    const found = await scan('off', 'act');
    assert.doesNotMatch(found, /^KEY_IN=0 /, found);
  });
});
