// The CLI's code cache (compile-cache.ts, compile-cache-dir.ts): each case starts real Node
// processes that load a bundle through it, as the CLI loads its commands' bundles.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  compileCacheDir,
  usableCompileCacheDir,
  workspacesOf,
} from '../../../src/host/node/cli/compile-cache-dir';
import { type CompileCacheStats, pruneOld } from '../../../src/host/node/cli/compile-cache';
import { outsideFolder } from '../../support/outside-folder';

const root = join(__dirname, '..', '..', '..');

/** A bundle with enough functions that its bytecode is worth caching; prints what it computes. */
const BUNDLE = [
  '#!/usr/bin/env node',
  "'use strict';",
  ...Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i + 1} + ${i}; }`),
  `exports.sum = () => [${Array.from({ length: 200 }, (_, i) => `f${i}(2)`).join(', ')}].reduce((a, b) => a + b, 0);`,
  // Node's own `require` and `__dirname`, as a bundle uses them.
  "exports.here = require('node:path').basename(__dirname);",
  '',
].join('\n');

describe('the CLI keeps V8 code cache of its bundles', function () {
  this.timeout(60_000);
  let work: string;
  let driver: string;
  let bundles: string;
  let cache: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'logbook-compile-cache-'));
    await build({
      entryPoints: [join(root, 'src/host/node/cli/compile-cache.ts')],
      outfile: join(work, 'compile-cache.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
    });
    // Loads `bundle.js` of the folder given through the cache in the other, then prints the result
    // and the cache's counts as the process exits (after the cache has saved what it compiled).
    driver = join(work, 'driver.js');
    writeFileSync(
      driver,
      [
        "const { installCompileCache } = require('./compile-cache.js');",
        'const [root, dir, variant, code] = process.argv.slice(2);',
        'const cache = installCompileCache({ root, dir, variant });',
        'if (code) process.exitCode = Number(code);',
        "const m = require(require('node:path').join(root, 'bundle.js'));",
        "process.on('exit', () => console.log(JSON.stringify({ sum: m.sum(), here: m.here, ...cache.stats })));",
        '',
      ].join('\n'),
    );
  });
  after(() => rmSync(work, { recursive: true, force: true }));
  beforeEach(() => {
    bundles = mkdtempSync(join(work, 'dist-'));
    writeFileSync(join(bundles, 'bundle.js'), BUNDLE);
    cache = mkdtempSync(join(work, 'cache-'));
  });

  const EXPECTED_SUM = Array.from({ length: 200 }, (_, i) => 2 * (i + 1) + i).reduce((a, b) => a + b, 0);

  function start(
    dir = cache,
    { variant = 'run', code = 0 } = {},
  ): CompileCacheStats & { sum: number; here: string } {
    const r = spawnSync(process.execPath, [driver, bundles, dir, variant, String(code)], {
      encoding: 'utf8',
    });
    assert.equal(r.status, code, r.stderr);
    assert.equal(r.stderr, '', 'nothing is said about the cache');
    const out = JSON.parse(r.stdout.trim()) as CompileCacheStats & { sum: number; here: string };
    assert.equal(out.sum, EXPECTED_SUM, 'the bundle runs as compiled by Node');
    assert.equal(out.here, bundles.split('/').at(-1));
    return out;
  }
  const entries = (dir = cache) => readdirSync(dir).filter((n) => n.endsWith('.bin'));

  it('compiles and saves on a first start, then a second start uses the saved bytecode', () => {
    const first = start();
    assert.deepEqual([first.used, first.compiled, first.written], [0, 1, 1]);
    assert.equal(entries().length, 1);
    const file = join(cache, entries()[0]!);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'only the user reads it');
    const saved = readFileSync(file);
    const second = start();
    assert.deepEqual([second.used, second.compiled, second.written, second.rejected], [1, 0, 0, 0]);
    assert.deepEqual(readFileSync(file), saved, 'a used entry is not written again');
  });

  it('a process that fails saves nothing: it ran a fraction of the command', () => {
    const failed = start(cache, { code: 1 });
    assert.deepEqual([failed.compiled, failed.written], [1, 0]);
    assert.deepEqual(entries(), []);
    assert.equal(start().written, 1, 'the next one that succeeds saves');
    assert.equal(start().used, 1);
  });

  it('each command keeps its own entry of the same bundle', () => {
    start(cache, { variant: 'run' });
    const help = start(cache, { variant: 'run --help' });
    assert.deepEqual([help.used, help.written], [0, 1]);
    assert.equal(entries().length, 2);
    assert.equal(start(cache, { variant: 'run' }).used, 1);
    assert.equal(start(cache, { variant: 'run --help' }).used, 1);
  });

  it('keeps the newest entries within a count and a size, the newest whatever its size', () => {
    const at = Date.now() / 1000;
    const put = (name: string, bytes: number, age: number) => {
      writeFileSync(join(cache, name), Buffer.alloc(bytes));
      utimesSync(join(cache, name), at - age, at - age);
    };
    put('a.bin', 40, 4);
    put('b.bin', 30, 3);
    put('c.bin', 30, 2);
    put('d.bin', 50, 1);
    pruneOld(cache, { entries: 3, bytes: 100 });
    assert.deepEqual(entries().sort(), ['c.bin', 'd.bin'], 'b.bin passes the size, a.bin the count');
    put('e.bin', 500, 0);
    pruneOld(cache, { entries: 3, bytes: 100 });
    assert.deepEqual(entries(), ['e.bin']);
  });

  it('another text of the bundle is another entry (its own content names it)', () => {
    start();
    writeFileSync(join(bundles, 'bundle.js'), BUNDLE.replace('x * 1 + 0', 'x * 1 + 0 + 0'));
    const changed = start();
    assert.deepEqual([changed.used, changed.compiled, changed.written], [0, 1, 1]);
    assert.equal(entries().length, 2);
  });

  for (const [what, corrupt] of [
    ['a flipped byte', (b: Buffer) => ((b[b.length - 10] = b[b.length - 10]! ^ 0xff), b)],
    ['cut short', (b: Buffer) => b.subarray(0, b.length >> 1)],
    ['not ours at all', () => Buffer.from('garbage')],
  ] as const) {
    it(`ignores an entry ${what} and writes it again`, () => {
      start();
      const file = join(cache, entries()[0]!);
      writeFileSync(file, corrupt(Buffer.from(readFileSync(file))));
      const next = start();
      assert.deepEqual([next.used, next.rejected, next.compiled, next.written], [0, 1, 1, 1]);
      assert.equal(start().used, 1, 'the entry written again is good');
    });
  }

  it('ignores bytecode V8 turns down (made for another text) and writes it again', () => {
    start();
    const file = join(cache, entries()[0]!);
    const other = readFileSync(file);
    writeFileSync(join(bundles, 'bundle.js'), `${BUNDLE}exports.more = 1;\n`);
    start();
    const second = entries().find((n) => join(cache, n) !== file)!;
    // A well-formed entry of ours, with another bundle's bytecode in it.
    writeFileSync(join(cache, second), other);
    const next = start();
    assert.deepEqual([next.used, next.rejected, next.compiled, next.written], [0, 1, 1, 1]);
    assert.equal(start().used, 1);
  });

  it('a cache folder it cannot write to or read from costs only the compile', () => {
    // Not a folder at all: every read and write in it fails, whoever the user is (root ignores modes).
    const notDir = join(work, 'a-file');
    writeFileSync(notDir, '');
    const r = start(notDir);
    assert.deepEqual([r.used, r.compiled, r.written], [0, 1, 0]);
    assert.equal(start(notDir).compiled, 1);
  });

  it('caches only the bundles in the CLI folder, not other code it loads', () => {
    const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
    writeFileSync(join(elsewhere, 'bundle.js'), BUNDLE);
    const load = [
      `const c = require(${JSON.stringify(join(work, 'compile-cache.js'))})`,
      `.installCompileCache({ root: ${JSON.stringify(bundles)}, dir: ${JSON.stringify(cache)} });`,
      `require(${JSON.stringify(join(elsewhere, 'bundle.js'))});`,
      "process.on('exit', () => console.log(JSON.stringify(c.stats)));",
    ].join('');
    const r = spawnSync(process.execPath, ['-e', load], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { used: 0, compiled: 0, rejected: 0, written: 0 });
    assert.deepEqual(entries(), []);
  });
});

describe('where the CLI keeps its code cache', () => {
  let home: string;
  let ws: string;
  beforeEach(() => {
    // Outside the temporary folders, which the cache refuses.
    home = outsideFolder('compile-cache-home-');
    ws = mkdtempSync(join(tmpdir(), 'logbook-compile-cache-ws-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(ws, { recursive: true, force: true });
  });

  it('is $XDG_CACHE_HOME/logbook/compile-cache, else ~/.cache/logbook/compile-cache', () => {
    assert.equal(compileCacheDir({ HOME: '/h' }), '/h/.cache/logbook/compile-cache');
    assert.equal(compileCacheDir({ HOME: '/h', XDG_CACHE_HOME: '/c' }), '/c/logbook/compile-cache');
    // The XDG spec ignores a relative value.
    assert.equal(compileCacheDir({ HOME: '/h', XDG_CACHE_HOME: 'rel' }), '/h/.cache/logbook/compile-cache');
  });

  it("is made the user's own, closed to others", () => {
    const dir = usableCompileCacheDir({ HOME: home }, [ws]);
    assert.equal(dir, join(home, '.cache', 'logbook', 'compile-cache'));
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('is off with LOGBOOK_NO_COMPILE_CACHE=1', () => {
    assert.equal(usableCompileCacheDir({ HOME: home, LOGBOOK_NO_COMPILE_CACHE: '1' }, [ws]), undefined);
    assert.ok(usableCompileCacheDir({ HOME: home, LOGBOOK_NO_COMPILE_CACHE: '0' }, [ws]));
  });

  it('is never in a temporary folder', () => {
    const tmpHome = mkdtempSync(join(tmpdir(), 'logbook-compile-cache-home-'));
    try {
      assert.equal(usableCompileCacheDir({ HOME: tmpHome }, [ws]), undefined);
      assert.equal(usableCompileCacheDir({ HOME: home, XDG_CACHE_HOME: '/tmp' }, [ws]), undefined);
      assert.equal(usableCompileCacheDir({ HOME: home, XDG_CACHE_HOME: '/dev/shm/x' }, [ws]), undefined);
    } finally {
      rmSync(tmpHome, { recursive: true, force: true });
    }
  });

  it('is never in a workspace, a writable folder or the folder the CLI runs in, also through a link', () => {
    assert.equal(usableCompileCacheDir({ HOME: home }, [home]), undefined);
    assert.deepEqual(workspacesOf(['run', '--workspace', home, '--task', 'x'], '/w'), ['/w', home]);
    assert.deepEqual(workspacesOf(['run', `--workspace=${home}`], '/w'), ['/w', home]);
    assert.deepEqual(workspacesOf(['run', '--workspace', 'rel'], '/w'), ['/w', '/w/rel']);
    // The folders the agent may write besides: flags and the variable.
    assert.deepEqual(workspacesOf(['run', '--writable', '/c', '--writable=/d'], '/w'), ['/w', '/c', '/d']);
    assert.deepEqual(
      workspacesOf(['run'], '/w', { HOME: '/h', LOGBOOK_SANDBOX_WRITABLE: '~/.cache, /e rel' }),
      ['/w', '/h/.cache', '/e', '/w/rel'],
    );
    // A cache home that is a link into the workspace is the workspace.
    const link = join(home, 'cache-link');
    symlinkSync(ws, link);
    assert.equal(usableCompileCacheDir({ HOME: home, XDG_CACHE_HOME: link }, [ws]), undefined);
  });

  it('is never a folder others can write to', () => {
    const dir = join(home, '.cache', 'logbook', 'compile-cache');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    assert.equal(usableCompileCacheDir({ HOME: home }, [ws]), undefined);
    chmodSync(dir, 0o700);
    assert.equal(usableCompileCacheDir({ HOME: home }, [ws]), dir);
  });

  it('is off, not an error, where the folder cannot be made', () => {
    writeFileSync(join(home, '.cache'), 'a file where the folder would be');
    assert.equal(usableCompileCacheDir({ HOME: home }, [ws]), undefined);
  });
});
