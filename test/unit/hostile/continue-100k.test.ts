// What a continuing run no longer redoes each time, attacked by the model. The sandbox's verdict is
// kept between runs in the user's config folder: a model that tries to forge it, with a command in
// the sandbox or with the file tools (which run outside it), changes nothing, and the next run's
// sandbox is the same. A long signed conversation is opened from the end of its signatures.log: an
// earlier line altered does not stop the run, and `logbook verify` still names it. The real CLI
// runs as a child process against the scripted model, in act and in plan mode; the workspace and
// the config folder are under a folder of the user's home, not under /tmp (which the sandbox
// replaces with its own, so a write there would prove nothing).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, openHandsSampleLayout } from '../cli/fixtures';

type Mode = 'act' | 'plan';
const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] };

describe('hostile model: what a continuing run keeps between runs', function () {
  this.timeout(180_000);
  const fx = new CliFixture();
  let base: string;
  let ws: string;
  let config: string;

  beforeEach(() => {
    base = mkdtempSync(join(homedir(), '.logbook-hostile-continue-'));
    ws = join(base, 'ws');
    config = join(base, 'config');
    mkdirSync(ws);
    mkdirSync(config);
  });
  afterEach(async () => {
    rmSync(base, { recursive: true, force: true });
    await fx.cleanup();
  });

  for (const mode of ['act', 'plan'] as Mode[])
    it(`${mode} mode: the model cannot forge the sandbox verdict kept between runs, by a command or a file tool`, async () => {
      const verdict = join(config, 'logbook', 'sandbox-probe.json');
      const forged = JSON.stringify({ key: 'forged', at: Date.now(), bwrap: '/bin/true', version: 'forged' });
      const run = async (turns: object[], store: string) => {
        const env = await fx.startLlm({ name: 'hostile-verdict', turns });
        return runCli(
          ['run', '--workspace', ws, '--store', store, '--mode', mode, '--confirm', 'never', '--task', 'go'],
          { env: { ...env, XDG_CONFIG_HOME: config } },
        );
      };
      const first = await run([{ reply: finish }], join(base, 'c1'));
      assert.equal(first.code, 0, printed(first));
      const kept = readFileSync(verdict, 'utf8');
      const sandboxLine = first.stdout.split('\n').find((l) => l.includes('sandbox:'));
      assert.ok(sandboxLine, printed(first));

      const attack = await run(
        [
          {
            match: { lastRole: 'user' },
            reply: {
              toolCalls: [
                {
                  id: 'call_cmd',
                  name: 'terminal',
                  arguments: { command: `printf '%s' '${forged}' > '${verdict}'`, security_risk: 'LOW' },
                },
                {
                  id: 'call_file',
                  name: 'file_editor',
                  arguments: { command: 'create', path: verdict, file_text: forged, security_risk: 'LOW' },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: finish },
        ],
        join(base, 'c2'),
      );
      assert.equal(attack.code, 0, printed(attack));
      assert.equal(readFileSync(verdict, 'utf8'), kept, 'the kept verdict is unchanged');

      const after = await run([{ reply: finish }], join(base, 'c3'));
      assert.equal(after.code, 0, printed(after));
      assert.equal(
        after.stdout.split('\n').find((l) => l.includes('sandbox:')),
        sandboxLine,
      );
    });

  for (const mode of ['act', 'plan'] as Mode[])
    it(`${mode} mode: a long signed conversation with an earlier signature line altered continues, and verify calls it broken`, async () => {
      const store = join(base, 'long');
      // About 21,000 events: a signatures.log over the size a writer reads from its end.
      const imported = await runCli(
        ['import-openhands', openHandsSampleLayout(join(base, 'oh'), 21_000), '--store', store],
        {
          env: { XDG_CONFIG_HOME: config },
        },
      );
      assert.equal(imported.code, 0, printed(imported));
      const file = join(store, 'signatures.log');
      const lines = readFileSync(file, 'utf8').split('\n');
      const at = lines.findIndex((l) => l.startsWith('h 100 '));
      // Not even a hash any more: a writer that read the whole file refused to go on.
      lines[at] = 'h 100 altered';
      writeFileSync(file, lines.join('\n'));

      // A conversation no condenser touched: the run condenses it first.
      const env = await fx.startLlm({
        name: 'continue-altered',
        turns: [
          { match: { hasTools: false }, reply: { content: 'Summary of the earlier work.' } },
          { match: { hasTools: true }, reply: finish },
        ],
      });
      const r = await runCli(
        ['run', '--workspace', ws, '--store', store, '--mode', mode, '--task', 'go on'],
        {
          env: { ...env, XDG_CONFIG_HOME: config },
        },
      );
      assert.equal(r.code, 0, printed(r));
      const verified = await runCli(['verify', store, '--json'], { env: { XDG_CONFIG_HOME: config } });
      assert.notEqual(verified.code, 0, printed(verified));
      const report = JSON.parse(verified.stdout) as { verdict: string; firstBad?: { detail: string } };
      assert.equal(report.verdict, 'broken', verified.stdout);
      assert.match(report.firstBad?.detail ?? '', /line 103\b/, verified.stdout);
    });
});
