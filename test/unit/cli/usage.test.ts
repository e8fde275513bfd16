import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../src/host/node/cli/main';
import type { CliIo } from '../../../src/host/node/cli/io';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const version = (
  JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }
).version;

/** Runs the CLI's main() in this process with captured output (no agent is started by these). */
async function inProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    out: (l) => void (out += l + '\n'),
    err: (l) => void (err += l + '\n'),
    env: {},
    cwd: process.cwd(),
    onInterrupt: () => () => undefined,
  };
  const code = await main(argv, io);
  return { code, out, err };
}

describe('logbook usage, help and version', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('--version prints the package version; --help lists the commands and exit codes', async () => {
    const v = await runCli(['--version']);
    assert.equal(v.code, 0);
    assert.equal(v.stdout.trim(), version);
    const h = await runCli(['--help']);
    assert.equal(h.code, 0);
    for (const cmd of ['run', 'show', 'approve', 'reject', 'import-openhands', 'export-openhands']) {
      assert.match(h.stdout, new RegExp(`\\b${cmd}\\b`));
    }
    assert.match(h.stdout, /Exit codes/);
  });

  it('every command has its own --help', async () => {
    const spawned = await runCli(['run', '--help']);
    assert.equal(spawned.code, 0, printed(spawned));
    assert.ok(spawned.stdout.startsWith('Usage: logbook run'), printed(spawned));
    for (const cmd of ['show', 'approve', 'reject', 'import-openhands', 'export-openhands']) {
      const r = await inProcess([cmd, '-h']);
      assert.equal(r.code, 0, r.err);
      assert.ok(r.out.startsWith(`Usage: logbook ${cmd}`), r.out);
    }
  });

  it('usage errors exit 1 with a message on stderr that says what is wrong', async () => {
    const ws = fx.tmp();
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['run', '--workspace', ws, 'fix', 'it'], /the task is one argument; quote it/],
      [['run', '--workspace', ws], /a task is required: logbook run "TEXT"/],
      [
        ['run', '--workspace', ws, '--task', 'x', '--confirm', 'sometimes'],
        /--confirm must be one of never, risky, always/,
      ],
      [
        ['run', '--workspace', ws, '--task', 'x', '--max-iterations', '0'],
        /--max-iterations must be a positive integer/,
      ],
      [['run', '--workspace', join(ws, 'missing'), '--task', 'x'], /is not a directory/],
      [['run', '--workspace', ws, '--task', 'x', '--bogus'], /Unknown option '--bogus'/],
      [['show', ws, ws], /expected at most one CONV_DIR/],
      [['show', ws], /holds no conversation/],
      [['approve', join(ws, 'nope')], /is not a directory/],
      [['export-openhands', ws], /expected CONV_DIR DIR/],
      [['import-openhands', ws], /--store STORE is required/],
    ];
    // A few through a real process (exit code, streams), the whole table in-process (fast).
    for (const i of [0, 2, 8]) {
      const r = await runCli(cases[i]![0]);
      assert.equal(r.code, 1, printed(r));
      assert.match(r.stderr, cases[i]![1], printed(r));
      assert.equal(r.stdout, '', 'errors go to stderr');
    }
    for (const [args, message] of cases) {
      const r = await inProcess(args);
      assert.equal(r.code, 1, `${args.join(' ')}\n${r.out}${r.err}`);
      assert.match(r.err, message, args.join(' '));
      assert.equal(r.out, '', `${args.join(' ')}: errors go to stderr`);
    }
  });

  it('rejects an invalid OPENAI_BASE_URL before creating anything, without echoing the key', async () => {
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'x'], {
      env: { OPENAI_BASE_URL: 'not a url', OPENAI_API_KEY: 'sk-should-not-show' },
    });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /baseUrl/);
    assert.ok(!r.stderr.includes('sk-should-not-show'));
    assert.ok(!existsSync(join(ws, '.logbook')), 'no conversation directory was created');
  });
});
