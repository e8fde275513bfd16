// Code loaded on first use comes only from beside the CLI: the real CLI (cli.js with its command
// and stack bundles, as dist/ holds them) as a child process against the scripted model. Bundles
// named like Logbook's own, planted in the folder the CLI runs in and in the workspace, are never
// loaded; and the errors of a command, which lives in a bundle of its own, still read as they did.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliBundle, jsonLines, printed, runCli, testConfigDir, testSigningKey } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';

/** Names a bundle of the CLI requires relative to itself, and packages it loads. */
const PLANTED = [
  'lazy/zod.js',
  'lazy/openai.js',
  'lazy/mcp.js',
  'lazy/web-page.js',
  'cli/run-command.js',
  'cli/show-command.js',
  'node_modules/zod/index.js',
  'node_modules/openai/index.js',
];

describe('hostile: code loaded on first use comes only from beside the CLI', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  /** Plants every name under `dir`: each, if ever loaded, leaves a file in `marks`. */
  function plant(dir: string, marks: string): void {
    for (const name of PLANTED) {
      const file = join(dir, name);
      mkdirSync(join(file, '..'), { recursive: true });
      const mark = join(marks, name.replace(/\W/g, '_'));
      writeFileSync(file, `require('node:fs').writeFileSync(${JSON.stringify(mark)}, 'loaded');\n`);
    }
  }

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: run and show never load bundles planted in the working folder or the workspace`, async () => {
      const env = await fx.startLlm({ name: 'answers', turns: [{ reply: { content: 'Done here.' } }] });
      const ws = fx.tmp();
      const cwd = fx.tmp();
      const marks = fx.tmp();
      plant(ws, marks);
      plant(cwd, marks);
      const store = join(fx.tmp(), 'conv');
      const run = await runCli(
        ['run', '--workspace', ws, '--task', 'say done', '--store', store, '--mode', mode, '--json'],
        { env, cwd },
      );
      assert.equal(run.code, 0, printed(run));
      // The model was called: the openai stack loaded, from the CLI's own folder.
      assert.equal(fx.llm!.completionBodies().length, 1);
      assert.ok(
        jsonLines(run).some((e) => JSON.stringify(e).includes('Done here.')),
        "the model's answer is recorded",
      );
      const show = await runCli(['show', store, '--json'], { cwd });
      assert.equal(show.code, 0, printed(show));
      assert.deepEqual(readdirSync(marks), [], 'no planted file was loaded');
    });
  }

  it("a command's usage error and a log's lost data read as before, though the command is a bundle of its own", async () => {
    const usage = await runCli(['show', '--no-such-option']);
    assert.equal(usage.code, 1, printed(usage));
    // Said only of a usage error (exit-codes.ts's UsageError, a copy in each command's bundle).
    assert.match(usage.stderr, /See logbook show --help\./);

    const env = await fx.startLlm({ name: 'answers', turns: [{ reply: { content: 'Done.' } }] });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const first = await runCli(['run', '--workspace', ws, '--task', 't', '--store', store, '--json'], {
      env,
    });
    assert.equal(first.code, 0, printed(first));
    rmSync(join(store, 'segments', '000001.log'));
    const refused = await runCli(['run', '--workspace', ws, '--task', 'again', '--store', store], { env });
    assert.equal(refused.code, 1, printed(refused));
    // Said only of the log's EventStoreError (a copy in each command's bundle) that reports lost data.
    assert.match(refused.stderr, /logbook repair CONV_DIR --accept-lost-events/);
    assert.deepEqual(
      readdirSync(join(store, 'segments')),
      [],
      'nothing is written in place of the lost events',
    );
    assert.ok(existsSync(join(store, 'meta.json')), 'nothing recorded is removed');
  });

  it('show and verify drop the key from their environment; no command starts a second process', async () => {
    const env = await fx.startLlm({ name: 'answers', turns: [{ reply: { content: 'Done.' } }] });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const first = await runCli(['run', '--workspace', ws, '--task', 't', '--store', store], { env });
    assert.equal(first.code, 0, printed(first));
    // A preload every process of the CLI would run (a relaunch keeps Node's options): one line each.
    const probe = join(fx.tmp(), 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('PROCESS key=' + (process.env.OPENAI_API_KEY ?? 'none') + '\\n'));",
    );
    const cli = await cliBundle();
    const processes = (args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', probe, cli, ...args], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          XDG_CONFIG_HOME: testConfigDir(),
          LOGBOOK_SIGNING_KEY: testSigningKey(),
          ...env,
          OPENAI_API_KEY: 'sk-lazy-load-test',
        },
      });
      return r.stderr.split('\n').filter((l) => l.startsWith('PROCESS '));
    };
    assert.deepEqual(processes(['show', store]), ['PROCESS key=none']);
    assert.deepEqual(processes(['verify', store]), ['PROCESS key=none']);
    // A command that may start the agent's shell keeps the key in its own environment (what it
    // starts gets a scrubbed one: cli/secret-environment.ts) and runs as one process.
    assert.deepEqual(processes(['checkpoints', store]), ['PROCESS key=sk-lazy-load-test']);
  });
});
