import * as assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type * as Zod from 'zod';
import type * as ZodMini from 'zod/mini';
import type * as JsoncEdit from '../../../src/core/settings/jsonc-edit';
import type * as OpenAiSdk from '../../../src/core/llm/openai-sdk';
import type * as McpConnectionModule from '../../../src/host/node/mcp/mcp-connection';
import type * as PageMarkdown from '../../../src/host/node/web/page-markdown';
import { CLI_LAZY_BUNDLES, COMMAND_BUNDLES, LAZY_BUNDLES } from '../../../scripts/lazy-bundles.mjs';
import { installVscodeStandIn } from '../../../bench/activation/install-stand-in';
import { startScriptedLlm } from '../../support/llm-server';

const root = join(__dirname, '..', '..', '..');

interface Output {
  bytes: number;
  inputs: Record<string, unknown>;
  imports: { path: string; kind: string; external?: boolean }[];
}

/** What the stacks loaded on first use are made of: none may be in a bundle loaded up front. */
const LAZY_STACKS: Record<string, RegExp> = {
  'web-page': /node_modules\/(linkedom|@mozilla\/readability|turndown|htmlparser2|cssom)/,
  mcp: /node_modules\/(@modelcontextprotocol\/sdk|ajv)\//,
  openai: /node_modules\/openai\//,
  'acp-agent': /node_modules\/@agentclientprotocol\/sdk\//,
  'settings-edit': /node_modules\/jsonc-parser\//,
};

// The bundles as `npm run package` builds them (esbuild.mjs --production), with what each is made
// of (--metafile): a later static import of a lazy stack would make it load at every start again.
describe('lazy bundles', () => {
  let out: string;
  let outputs: Record<string, Output>;
  const output = (name: string): Output => {
    const o = outputs[posix.join(out, name)];
    assert.ok(o, `${name} was built`);
    return o;
  };
  // The bundles an `import()` in the sources loads, and lazy/zod.js, required when a member of zod
  // is first read (a test below activates the extension and checks that it is not). The build
  // emits those imports as a `require` run when the import runs, so the metafile calls them
  // require-calls; only the build's plugin makes such a bundle external, for a dynamic import.
  const onFirstUse = new Set([
    'lazy/zod.js',
    ...LAZY_BUNDLES.map((b) => `lazy/${b.name}.js`),
    ...[...COMMAND_BUNDLES, ...CLI_LAZY_BUNDLES].map((b) => `cli/${b.name}.js`),
  ]);
  /** A bundle and every bundle it requires when it loads (not on a later `import()`), in bytes. */
  const loadedAtStart = (name: string, seen = new Map<string, number>()): Map<string, number> => {
    if (seen.has(name)) return seen;
    const o = output(name);
    seen.set(name, o.bytes);
    for (const i of o.imports) {
      if (!i.external || !i.path.startsWith('.')) continue;
      const target = posix.join(posix.dirname(name), i.path);
      if (i.kind !== 'dynamic-import' && !onFirstUse.has(target)) loadedAtStart(target, seen);
    }
    return seen;
  };
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

  before(function () {
    this.timeout(180_000);
    const dir = mkdtempSync(join(tmpdir(), 'logbook-lazy-'));
    out = posix.join(dir.split('\\').join('/'), 'dist');
    execFileSync(
      process.execPath,
      [join(root, 'esbuild.mjs'), '--production', '--metafile', '--outdir', out],
      {
        cwd: root,
        stdio: 'pipe',
      },
    );
    // The metafile names outputs relative to the working folder.
    const meta = JSON.parse(readFileSync(join(out, 'metafile.json'), 'utf8')) as {
      outputs: Record<string, Output>;
    };
    outputs = Object.fromEntries(Object.entries(meta.outputs).map(([k, v]) => [posix.resolve(root, k), v]));
  });

  after(() => {
    if (out) rmSync(posix.dirname(out), { recursive: true, force: true });
  });

  for (const main of ['extension.js', 'cli.js']) {
    it(`${main} loads none of the web page, MCP, openai, ACP and settings editing stacks up front`, () => {
      for (const name of loadedAtStart(main).keys()) {
        const inputs = Object.keys(output(name).inputs);
        for (const [stack, re] of Object.entries(LAZY_STACKS)) {
          const found = inputs.filter((p) => re.test(p));
          assert.deepEqual(found, [], `${name}, loaded with ${main}, holds the ${stack} stack`);
        }
      }
    });
  }

  it('each stack is a bundle of its own that the extension requires on first use', () => {
    const dynamic = output('extension.js').imports.map((i) => i.path);
    for (const [stack, re] of Object.entries(LAZY_STACKS)) {
      assert.ok(dynamic.includes(`./lazy/${stack}.js`), `extension.js imports lazy/${stack}.js`);
      assert.ok(
        Object.keys(output(`lazy/${stack}.js`).inputs).some((p) => re.test(p)),
        `lazy/${stack}.js holds its stack`,
      );
    }
  });

  it("loads a lazy bundle by require when the import runs, never by Node's import() (three parses of it)", () => {
    for (const name of ['extension.js', 'cli.js', 'cli/run-command.js']) {
      const code = readFileSync(join(out, name), 'utf8');
      assert.doesNotMatch(code, /\bimport\(\s*["'][./]*(lazy|cli)\//, `${name} import()s a bundle`);
      assert.match(code, /require\(["'][./]*(lazy|cli)\/[a-z-]+\.js["']\)/, `${name} requires a bundle`);
    }
  });

  it("requires 'vscode' and each Node built-in once per bundle, not once per importing file", () => {
    // Each require of an external module is wrapped in its own copy of the module's members at
    // load (~400 for 'vscode'); one namespace (and one default import) per bundle is the budget.
    for (const name of ['extension.js', 'cli.js']) {
      const code = readFileSync(join(out, name), 'utf8');
      const counts = new Map<string, number>();
      for (const m of code.matchAll(/require\("(vscode|node:[a-z_/]+)"\)/g))
        counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
      const over = [...counts].filter(([, n]) => n > 2).map(([m, n]) => `${m} ×${n}`);
      assert.deepEqual(over, [], `${name} requires these once per importing file`);
    }
  });

  /** Runs `script` in a Node where `require('vscode')` from the bundles finds the bench's stand-in. */
  const withStandIn = (script: string) => {
    // Every member of the stand-in is a function, and no setting is set: enough to load and
    // activate the bundle as a fresh window does, not to use it.
    installVscodeStandIn(posix.dirname(out));
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as unknown;
  };

  /**
   * The zod builders (z.object, zod/mini's object, ...) called while `bundle` loads: lazy/zod.js as
   * every bundle finds it, each builder counted; classes and the configuration left as they are.
   */
  const schemaBuildersCalledLoading = (bundle: string) =>
    withStandIn(
      `const Module = require('node:module');
      const file = ${JSON.stringify(join(out, 'lazy', 'zod.js'))};
      const zod = require(file);
      const calls = [];
      const counted = (ns, name) => {
        const copy = { ...ns };
        for (const [k, v] of Object.entries(ns))
          if (typeof v === 'function' && /^[a-z]/.test(k) && k !== 'config')
            copy[k] = (...args) => (calls.push(name + '.' + k), v(...args));
        return copy;
      };
      const m = new Module(file);
      Object.assign(m, { filename: file, loaded: true, exports: { ...zod, z: counted(zod.z, 'z'), mini: counted(zod.mini, 'mini') } });
      require.cache[file] = m;
      require(${JSON.stringify(join(out, '$BUNDLE'))});
      console.log(JSON.stringify(calls));`.replace('$BUNDLE', bundle),
    ) as string[];

  it("extension.js requires Node's built-ins on first use, not when it loads", function () {
    this.timeout(30_000);
    const loaded = withStandIn(`const before = new Set(process.moduleLoadList);
      require(${JSON.stringify(join(out, 'extension.js'))});
      console.log(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));`) as string[];
    for (const m of ['crypto', 'http', 'https', 'child_process', 'dns/promises', 'readline', 'zlib'])
      assert.ok(!loaded.includes(`NativeModule ${m}`), `loading extension.js loads node:${m}`);
  });

  it('extension.js builds no zod schema when it loads: each is built on first use', function () {
    this.timeout(30_000);
    const calls = schemaBuildersCalledLoading('extension.js');
    assert.deepEqual(calls.slice(0, 10), [], `${calls.length} schema builders called at load`);
  });

  it('no command of the CLI builds a zod schema when its bundle loads', function () {
    this.timeout(60_000);
    // What a command's modules build at top level, every run of it pays for, whatever it does.
    const built: Record<string, string[]> = {};
    for (const { name } of COMMAND_BUNDLES) {
      const calls = schemaBuildersCalledLoading(`cli/${name}.js`);
      if (calls.length > 0) built[name] = calls.slice(0, 5);
    }
    assert.deepEqual(built, {}, 'commands that build schemas as their bundle loads');
  });

  it('a command or lazy bundle requires fs, path, os and crypto once, not once per importing file', () => {
    // Most of the CLI's files import these: a copy of each one's members per file was some eighty
    // copies made before `logbook run` did anything.
    const names = [
      ...[...COMMAND_BUNDLES, ...CLI_LAZY_BUNDLES].map((b) => `cli/${b.name}.js`),
      ...LAZY_BUNDLES.map((b) => `lazy/${b.name}.js`),
    ];
    const over: string[] = [];
    for (const name of names) {
      const code = readFileSync(join(out, name), 'utf8');
      for (const m of ['fs', 'path', 'os', 'crypto']) {
        const n = code.split(`require("node:${m}")`).length - 1;
        if (n > 2) over.push(`${name}: node:${m} ×${n}`);
      }
    }
    assert.deepEqual(over, [], 'bundles that require a built-in once per importing file');
  });

  it('activating the extension in a window where no setting is set loads no zod', function () {
    this.timeout(30_000);
    const storage = mkdtempSync(join(tmpdir(), 'logbook-activation-'));
    try {
      withStandIn('console.log(1)');
      const child = join(root, 'bench', 'activation', 'activate-child.cjs');
      const r = spawnSync(process.execPath, [child, out, storage], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual((JSON.parse(r.stdout) as { loaded: string[] }).loaded, ['extension.js']);
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
  });

  it('the extension parses at most 1 MB of code at activation', () => {
    const loaded = loadedAtStart('extension.js');
    assert.ok(
      total(loaded) <= 1_000_000,
      `activation loads ${total(loaded)} bytes: ${[...loaded.keys()].join(', ')}`,
    );
  });

  it('the CLI loads only the command it runs: show, verify and diff without the agent loop', () => {
    const start = loadedAtStart('cli.js');
    assert.deepEqual(
      [...start.keys()].filter((n) => n.startsWith('cli/')),
      [],
      'cli.js loads no command up front',
    );
    for (const command of ['cli.js', 'cli/show-command.js', 'cli/verify-command.js', 'cli/diff-command.js']) {
      const loaded = loadedAtStart(command);
      const inputs = [...loaded.keys()].flatMap((n) => Object.keys(output(n).inputs));
      for (const module of [
        'src/core/agent/agent-step.ts',
        'src/core/agent/prompt-builder.ts',
        'src/core/llm/openai-client.ts',
        'src/host/node/node-session.ts',
      ]) {
        assert.ok(!inputs.some((p) => p.endsWith(module)), `${command} loads ${module}`);
      }
    }
  });

  it('`logbook run` holds none of the stacks a run on this machine without --agent never uses', () => {
    // Each loads on first use, from a bundle of its own: a static import (or an import() of a
    // module that is no lazy entry, which esbuild inlines) would have every run parse it again.
    const unused: Record<string, RegExp> = {
      'the ACP SDK (run --agent)': /node_modules\/@agentclientprotocol\/sdk\//,
      'the external agent (run --agent)':
        /src\/host\/node\/acp\/(agent-launch|external-agent|permission-tool)\.ts$/,
      'the agent-server and runtime clients (run --remote, --runtime-api)': /src\/host\/node\/remote\//,
    };
    const inputs = Object.keys(output('cli/run-command.js').inputs);
    for (const [stack, re] of Object.entries(unused))
      assert.deepEqual(
        inputs.filter((p) => re.test(p)),
        [],
        `cli/run-command.js holds ${stack}`,
      );
    const required = output('cli/run-command.js').imports.map((i) => i.path);
    for (const bundle of ['../lazy/acp-agent.js', './remote-runs.js'])
      assert.ok(required.includes(bundle), `cli/run-command.js requires ${bundle} when it is needed`);
  });

  it('the lazy bundles load from their folder and work', () => {
    const load = createRequire(join(out, 'extension.js'));
    const page = load('./lazy/web-page.js') as typeof PageMarkdown;
    const md = page.pageMarkdown(
      '<html><head><title>Notes</title></head><body><article><h1>Notes</h1><p>The <b>lazy</b> page.</p></article></body></html>',
      'https://example.org/notes',
    );
    assert.match(md.markdown, /\*\*lazy\*\*/);
    const mcp = load('./lazy/mcp.js') as typeof McpConnectionModule;
    assert.equal(typeof mcp.McpConnection.connect, 'function');
    const sdk = load('./lazy/openai.js') as typeof OpenAiSdk;
    assert.ok(new sdk.APIError(500, undefined, 'boom', undefined) instanceof Error);
    // jsonc-parser's main file requires its parts in a way a bundle does not follow.
    const edit = load('./lazy/settings-edit.js') as typeof JsoncEdit;
    assert.equal(edit.setJsoncProperty('{\n  "a": 1\n}', ['b'], 2), '{\n  "a": 1,\n  "b": 2\n}');
  });

  it("zod's bundle carries English as its only locale, and its messages are English", () => {
    const locales = Object.keys(output('lazy/zod.js').inputs).filter((p) => /\/zod\/v4\/locales\//.test(p));
    assert.deepEqual(
      locales.map((p) => p.replace(/.*\/locales\//, '')),
      ['en.js'],
      'the locales in lazy/zod.js',
    );
    const zod = createRequire(join(out, 'extension.js'))('./lazy/zod.js') as typeof Zod & {
      mini: typeof ZodMini;
    };
    for (const ns of [zod.locales, zod.core.locales, zod.mini.locales])
      assert.deepEqual(Object.keys(ns), ['en']);
    const refused = zod.object({ a: zod.string() }).safeParse({ a: 1 });
    assert.equal(refused.error?.issues[0]?.message, 'Invalid input: expected string, received number');
    const mini = zod.mini.object({ a: zod.mini.string() }).safeParse({ a: 1 });
    assert.equal(mini.error?.issues[0]?.message, 'Invalid input: expected string, received number');
  });

  it('`logbook show` loads its own command and nothing else of the CLI', function () {
    this.timeout(30_000);
    // A preload that lists, at exit, every module the process required.
    const dir = posix.dirname(out);
    const probe = join(dir, 'loaded.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));",
    );
    const empty = join(dir, 'conversation');
    mkdirSync(empty);
    const { stderr } = spawnSync(process.execPath, ['-r', probe, join(out, 'cli.js'), 'show', empty], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') },
    });
    const line = stderr.split('\n').find((l) => l.startsWith('LOADED '));
    assert.ok(line, stderr);
    const loaded = (JSON.parse(line.slice('LOADED '.length)) as string[])
      .map((f) => posix.relative(out, f.split('\\').join('/')))
      .filter((f) => !f.startsWith('..'))
      .sort();
    assert.deepEqual(loaded, ['cli.js', 'cli/show-command.js', 'lazy/zod.js']);
  });

  it('`logbook run` asks an http model and records its answer without loading Node’s fetch stack, TLS or web streams', async function () {
    this.timeout(60_000);
    // Node's Headers, Response, FormData and fetch load it (undici) on first use: some 10 ms; TLS
    // (node:https) some 4 ms, for tools few runs use (the fetch tool, an agent-server's link); web
    // streams some 2 ms to load, and promises on every chunk (the answer is read as chunks).
    const dir = posix.dirname(out);
    const probe = join(dir, 'fetch-stack.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('FETCH STACK ' + " +
        "process.moduleLoadList.some((m) => m.includes('undici')) + ' TLS ' + " +
        "process.moduleLoadList.includes('NativeModule tls') + ' WEB STREAMS ' + " +
        "process.moduleLoadList.includes('NativeModule internal/webstreams/readablestream') + '\\n'));",
    );
    const workspace = join(dir, 'run-workspace');
    mkdirSync(workspace);
    const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] };
    const llm = await startScriptedLlm({ scenario: { name: 'one-turn', turns: [{ reply: finish }] } });
    try {
      const store = join(dir, 'run-store');
      const args = [
        '-r',
        probe,
        join(out, 'cli.js'),
        'run',
        '--workspace',
        workspace,
        '--store',
        store,
        'say done',
      ];
      const child = spawn(process.execPath, args, {
        env: {
          ...process.env,
          XDG_CONFIG_HOME: join(dir, 'config'),
          OPENAI_BASE_URL: llm.baseUrl,
          OPENAI_API_KEY: 'test',
          LOGBOOK_MODEL: 'scripted-model',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      assert.equal(code, 0, stderr);
      assert.equal(llm.remainingTurns(), 0, 'the model was asked');
      assert.match(readFileSync(join(store, 'session.json'), 'utf8'), /scripted-model/);
      assert.match(stderr, /^FETCH STACK false TLS false WEB STREAMS false$/m);
    } finally {
      await llm.close();
    }
  });
});
