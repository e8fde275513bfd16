// What `logbook run` pays for before it reaches the model, on the bundles as they ship: a stack
// only some runs use (the ACP SDK of `--agent`, the demo model of `--demo`) runs only when such a
// run imports it, and zod parses without generating code for each schema.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { lazyBundleBuilds, lazyBundlesPlugin, REQUIRE_ON_IMPORT } from '../../../scripts/lazy-bundles.mjs';

const root = join(__dirname, '..', '..', '..');
const RUN_ENTRY = 'src/host/node/cli/run-command.ts';

/** Every input the entry reaches by static imports alone, each with the one that imports it. */
function staticallyReached(meta: Metafile, entry: string): Map<string, string | null> {
  const by = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const i of meta.inputs[from]?.imports ?? []) {
      if (i.kind === 'dynamic-import' || i.external || by.has(i.path)) continue;
      by.set(i.path, from);
      queue.push(i.path);
    }
  }
  return by;
}

/** How `entry` reaches `input`: the chain of static imports, for a failure's message. */
function chain(by: Map<string, string | null>, input: string): string {
  const names: string[] = [];
  for (let at: string | null | undefined = input; at; at = by.get(at)) names.unshift(at);
  return names.join(' -> ');
}

describe('logbook run at start', () => {
  let dir: string;
  let out: string;
  let meta: Metafile;

  before(async function () {
    this.timeout(180_000);
    dir = mkdtempSync(join(tmpdir(), 'logbook-run-start-'));
    out = join(dir, 'dist');
    const options = { minify: true, legalComments: 'none', logLevel: 'silent' } as const;
    await build({
      ...options,
      entryPoints: [join(root, 'src/host/node/cli.ts')],
      outfile: join(out, 'cli.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      supported: REQUIRE_ON_IMPORT,
      plugins: [lazyBundlesPlugin],
    });
    const results = await Promise.all(
      lazyBundleBuilds(out, options).map((b) => build({ ...b, absWorkingDir: root, metafile: true })),
    );
    meta = { inputs: {}, outputs: {} };
    for (const r of results) Object.assign(meta.inputs, r.metafile.inputs);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reaches the ACP SDK and the demo model only through import(), run by --agent and --demo', () => {
    const by = staticallyReached(meta, RUN_ENTRY);
    assert.ok(by.size > 100, `the run command's modules were found (${by.size})`);
    const eager = [...by.keys()].filter(
      (p) => /node_modules\/@agentclientprotocol\/sdk\//.test(p) || p.endsWith('demo-model/demo-server.ts'),
    );
    assert.deepEqual(
      eager.map((p) => chain(by, p)),
      [],
      'a plain `logbook run` runs these modules at load',
    );
  });

  it('turns off zod’s generated parsers before the command’s schemas are made', function () {
    this.timeout(30_000);
    // A preload that says, at exit, how the one zod of the bundles is configured.
    const probe = join(dir, 'zod-config.cjs');
    writeFileSync(
      probe,
      `process.on('exit', () => process.stderr.write('JITLESS ' + require(${JSON.stringify(
        join(out, 'lazy', 'zod.js'),
      )}).config().jitless + '\\n'));`,
    );
    const empty = join(dir, 'conversation');
    mkdirSync(empty, { recursive: true });
    const { stderr } = spawnSync(process.execPath, ['-r', probe, join(out, 'cli.js'), 'show', empty], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') },
    });
    assert.match(stderr, /^JITLESS true$/m, stderr);
  });
});
