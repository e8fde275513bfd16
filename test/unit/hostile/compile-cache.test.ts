// The CLI runs the bytecode it finds in its code cache ($XDG_CACHE_HOME/logbook/compile-cache) as
// its own code, outside any sandbox: a command that could write there would run its code in the
// user's next `logbook`. The user may well make their cache folder writable for their tools
// (`--writable ~/.cache`, for pip's or npm's caches); the sandbox still hides Logbook's folder in
// it, in act and in plan mode. The real CLI, the real sandbox, the scripted model.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson, terminalCall } from '../cli/fixtures';
import { outsideFolder } from '../../support/outside-folder';

describe('hostile: a command plants bytecode in the CLI`s code cache', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  let cacheHome: string;
  beforeEach(() => {
    // Outside /tmp (the cache is never there, and the sandbox has its own) and outside the workspace.
    cacheHome = outsideFolder('compile-cache-');
  });
  afterEach(async () => {
    rmSync(cacheHome, { recursive: true, force: true });
    await fx.cleanup();
  });

  const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: with the cache folder made writable, nothing lands in Logbook's folder in it`, async function () {
      if (process.platform !== 'linux') this.skip();
      const cache = join(cacheHome, 'logbook', 'compile-cache');
      // The folder the CLI runs in is not the cache's (the cache is never inside it).
      const cwd = fx.tmp();
      // A first command fills the cache (config's bundle and zod's).
      const config = await runCli(['config'], { cwd, env: { XDG_CACHE_HOME: cacheHome } });
      assert.equal(config.code, 0, printed(config));
      const before = new Map(entries(cache).map((n) => [n, readFileSync(join(cache, n))]));
      assert.ok(before.size > 0, 'the cache holds the first command’s bundles');

      const plant = [
        `for f in ${cache}/*.bin; do echo pwned > "$f"; done`,
        `echo pwned > ${cache}/planted.bin`,
        `mkdir -p ${cacheHome}/logbook/x && echo pwned > ${cacheHome}/logbook/x/planted`,
        `ls -la ${cache}; echo tried`,
      ].join('; ');
      const env = await fx.startLlm({
        name: `compile-cache-${mode}`,
        turns: [
          { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_plant', plant)] } },
          { match: { lastRole: 'tool' }, reply: { content: 'Planted.' } },
        ],
      });
      const store = join(fx.tmp(), 'conv');
      const ws = fx.tmp();
      const r = await runCli(
        [
          'run',
          '--workspace',
          ws,
          '--writable',
          cacheHome,
          '--sandbox',
          'required',
          '--confirm',
          'never',
          '--mode',
          mode,
          '--task',
          'plant',
          '--store',
          store,
        ],
        { cwd, env: { ...env, XDG_CACHE_HOME: cacheHome } },
      );
      assert.equal(r.code, 0, printed(r));
      const events = await readLogJson(store);
      if (mode === 'act') {
        const observation = JSON.stringify(events.find((e) => e.kind === 'ObservationEvent'));
        assert.match(observation, /tried/, `the command ran: ${observation}`);
      } else {
        // Plan mode refuses a command that writes before it runs; nothing may land either way.
        const error = JSON.stringify(events.find((e) => e.kind === 'AgentErrorEvent'));
        assert.match(error, /Refused/, `the command was refused: ${error}`);
      }

      assert.ok(!existsSync(join(cache, 'planted.bin')), 'no entry was planted');
      assert.ok(!existsSync(join(cacheHome, 'logbook', 'x')), "nothing was made in Logbook's cache folder");
      for (const [name, bytes] of before)
        assert.deepEqual(readFileSync(join(cache, name)), bytes, `${name} is as the CLI wrote it`);
      // The next command still runs from the cache it wrote.
      const show = await runCli(['show', store], { cwd, env: { XDG_CACHE_HOME: cacheHome } });
      assert.equal(show.code, 0, printed(show));
    });
  }

  it('the cache is written and used by the real CLI, and LOGBOOK_NO_COMPILE_CACHE=1 turns it off', async () => {
    const cache = join(cacheHome, 'logbook', 'compile-cache');
    const cwd = fx.tmp();
    const env = { XDG_CACHE_HOME: cacheHome };
    const off = await runCli(['config'], { cwd, env: { ...env, LOGBOOK_NO_COMPILE_CACHE: '1' } });
    assert.equal(off.code, 0, printed(off));
    assert.deepEqual(entries(cache), [], 'nothing is cached when it is off');
    // A command that fails saves nothing (it ran a fraction of its code).
    const failed = await runCli(['show', join(fx.tmp(), 'none')], { cwd, env });
    assert.equal(failed.code, 1, printed(failed));
    assert.deepEqual(entries(cache), []);
    const first = await runCli(['config'], { cwd, env });
    const saved = entries(cache);
    assert.ok(saved.length >= 2, `config's bundle and zod's: ${saved.join(', ')}`);
    // A second start finds them: the same answer, the same entries, none written again.
    const stamps = saved.map((n) => readFileSync(join(cache, n)));
    const again = await runCli(['config'], { cwd, env });
    assert.equal(again.code, 0, printed(again));
    assert.equal(again.stdout, first.stdout, 'the same answer as the start that compiled it');
    assert.equal(again.stdout, off.stdout, 'the same answer as without the cache');
    assert.deepEqual(entries(cache), saved);
    saved.forEach((n, i) => assert.deepEqual(readFileSync(join(cache, n)), stamps[i]));
  });
});
