// Code the extension and the CLI load on first use. Each stack is built as its own CommonJS bundle
// in <outdir>/lazy/ (shipped in the package), each CLI command as its own bundle in <outdir>/cli/
// (the CLI is not in the package), and a dynamic `import()` of an entry below becomes a `require`
// of that file when the import runs: a window or a command that never uses a stack never reads or
// compiles its code. Only dynamic imports are rewritten, so a static import of an entry puts its
// code back into the bundle that imports it, which test/unit/packaging/lazy-bundles.test.ts
// refuses for the main bundles. A bundle keeps its own copy of what it imports but zod (below):
// what crosses a boundary is plain data and the entry's own classes, and a class of Logbook's is
// told apart by a mark all copies share (LlmError's registered symbol, isLlmError), never by
// `instanceof` (two bundles have two copies of it).
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, posix, resolve } from 'node:path';
import { oneNamespacePerExternal, sourceWords } from './external-namespaces.mjs';
import { zodEnglishOnly } from './webview-bundle.mjs';

const root = join(import.meta.dirname, '..');

/** name: the bundle's file (lazy/<name>.js); entry: the module that loads the stack. */
export const LAZY_BUNDLES = [
  // linkedom, @mozilla/readability and turndown: a fetched HTML page as Markdown.
  { name: 'web-page', entry: 'src/host/node/web/page-markdown.ts' },
  // The MCP SDK (and its ajv and zod v3): a running MCP server.
  { name: 'mcp', entry: 'src/host/node/mcp/mcp-connection.ts' },
  // The openai client: a call to a model.
  { name: 'openai', entry: 'src/core/llm/openai-sdk.ts' },
  // The demo model's server and scripts: `npm start` or Try the Demo.
  { name: 'demo-model', entry: 'src/host/node/demo-model/demo-server.ts' },
  // The ACP SDK and the external agent's client: a conversation an external agent runs.
  { name: 'acp-agent', entry: 'src/host/node/acp/agent-llm.ts' },
  // The OpenHands import and the SDK exporter: the editor's Import and Export Conversation.
  { name: 'openhands-files', entry: 'src/core/agent/openhands-files.ts' },
  // jsonc-parser and the settings file editor over it: Logbook's first write of a setting.
  { name: 'settings-edit', entry: 'src/core/settings/jsonc-edit.ts' },
  // Worktree tasks in the editor: the Tasks view's rows and its commands, with the task store,
  // git, the CLI's settings and a task's log state they use (and 'vscode').
  { name: 'task-commands', entry: 'src/host/vscode/tasks/task-commands.ts' },
  // A conversation on an agent-server in the editor: its session, the server's API and event stream.
  { name: 'remote-session', entry: 'src/host/vscode/remote/remote-session.ts' },
];

const COMMANDS_DIR = 'src/host/node/cli';
/** Every `logbook` command's module (cli/<name>.js), loaded by src/host/node/cli/main.ts. */
export const COMMAND_BUNDLES = readdirSync(join(root, COMMANDS_DIR))
  .filter((f) => f.endsWith('-command.ts'))
  .map((f) => ({ name: f.replace(/\.ts$/, ''), entry: `${COMMANDS_DIR}/${f}` }));

/**
 * Stacks only some runs of a command load, which the extension never does: beside the commands in
 * <outdir>/cli/ (cli/<name>.js), so that the package does not ship them.
 */
export const CLI_LAZY_BUNDLES = [
  // `logbook run --remote` and `--runtime-api`: the agent-server's and the runtime API's clients.
  { name: 'remote-runs', entry: 'src/host/node/remote/remote-runs.ts' },
];

/** Each entry (absolute, without extension) and its bundle, relative to the output folder. */
const bundleOf = new Map([
  ...LAZY_BUNDLES.map((b) => [resolve(root, b.entry).replace(/\.ts$/, ''), `lazy/${b.name}.js`]),
  ...[...COMMAND_BUNDLES, ...CLI_LAZY_BUNDLES].map((b) => [
    resolve(root, b.entry).replace(/\.ts$/, ''),
    `cli/${b.name}.js`,
  ]),
]);

// zod ('zod' for Logbook, 'zod/v4' for the MCP SDK: the same module; 'zod/mini' for the protocol's
// messages, over the same core) is used by every bundle, so it is a bundle of its own that each
// requires, not a copy in each.
const SHARED = /^zod(\/v4|\/mini)?$/;
const SHARED_ENTRY = 'src/shared-zod.ts';
/**
 * The built-in modules of Node's that most of Logbook's files import, and that every command loads
 * at start anyway (a built-in routed here is required when its bundle loads, not when first used).
 */
const BUILTIN = /^node:(fs|path|os|crypto)$/;
const SHARED_ON_FIRST_USE = 'zod-on-first-use';
/**
 * The openai SDK's modules (its ESM build, which bundles take) that name a global of Node's fetch
 * stack, whose first use loads the whole stack (about 10 ms of a short run), and what each gets
 * instead: Logbook's HeaderList for `Headers` (src/core/llm/header-list.ts); for `FormData`, which
 * the client names only to ask whether a body is one, a test of the body's own tag. The client asks
 * the same of `globalThis.ReadableStream`, whose first read loads Node's web streams (about 2 ms):
 * `replace` gives it the same kind of test under another name, in that module only (the SDK's
 * other modules make streams with it, which no call of Logbook's asks for).
 */
const SDK_PRELUDES = [
  {
    file: /[\\/]node_modules[\\/]openai[\\/]internal[\\/](headers|utils[\\/]log)\.mjs$/,
    prelude: `import { HeaderList as Headers } from ${JSON.stringify(join(root, 'src/core/llm/header-list.ts'))};`,
  },
  {
    file: /[\\/]node_modules[\\/]openai[\\/]client\.mjs$/,
    prelude:
      'const FormData = { [Symbol.hasInstance]: (v) => ' +
      "v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object FormData]' };\n" +
      'const ReadableStreamByTag = { [Symbol.hasInstance]: (v) => ' +
      "v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object ReadableStream]' };",
    replace: [[/\bglobalThis\.ReadableStream\b/g, 'ReadableStreamByTag']],
  },
];

/** The plugin for a bundle written to `dir` of the output folder ('' for the main bundles). */
function lazyPlugin(dir) {
  const from = (target) => {
    const rel = posix.relative(dir || '.', target);
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  return {
    name: 'lazy-bundles',
    setup(build) {
      // Through one module of the bundle that re-exports zod's: an import of the external bundle per
      // importing file (esbuild's CommonJS interop) copied its hundreds of exports once per file at
      // load, which showed in the extension's activation time. Its members are getters that require
      // the bundle when one is first read: a window whose settings need no schema never loads zod.
      build.onResolve({ filter: SHARED }, (args) =>
        args.namespace === SHARED_ON_FIRST_USE
          ? undefined
          : { path: args.path === 'zod/mini' ? 'zod/mini' : 'zod', namespace: 'shared' },
      );
      build.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => {
        const lazy = JSON.stringify(`${SHARED_ON_FIRST_USE}:${args.path}`);
        return { contents: `export * from ${lazy};\nexport { default } from ${lazy};\n`, loader: 'js' };
      });
      build.onResolve({ filter: new RegExp(`^${SHARED_ON_FIRST_USE}:`) }, (args) => ({
        path: args.path.slice(SHARED_ON_FIRST_USE.length + 1),
        namespace: SHARED_ON_FIRST_USE,
      }));
      // CommonJS, so that esbuild reads zod's members at run time (through the getters), not at load.
      build.onLoad({ filter: /.*/, namespace: SHARED_ON_FIRST_USE }, async (args) => {
        const mini = args.path === 'zod/mini';
        // The main bundles hold Logbook's modules only (the lazy ones hold the MCP SDK, which uses
        // zod too): a getter for each member Logbook's sources name, which keeps the extension small.
        const used = dir === '' ? sourceWords() : undefined;
        const names = Object.keys(await import(args.path)).filter(
          (n) => n !== 'default' && (used?.has(n) ?? true),
        );
        const bundle = JSON.stringify(from('lazy/zod.js'));
        const contents = [
          // Marked as compiled from ESM, so that a default import reads zod's default, not this object.
          "Object.defineProperty(exports, '__esModule', { value: true });",
          'let loaded;',
          `const load = () => (loaded ??= require(${bundle}))${mini ? '.mini' : ''};`,
          `for (const name of ${JSON.stringify([...names, 'default'])})`,
          '  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });',
          '',
        ].join('\n');
        return { contents, loader: 'js' };
      });
      build.onResolve({ filter: /zod\.js$/ }, (args) =>
        args.namespace === SHARED_ON_FIRST_USE ? { path: args.path, external: true } : undefined,
      );
      // Node's built-in modules the same way, through one module of the bundle each: a default or
      // namespace import of `node:fs` in each of the CLI's files copied fs's exports once per file
      // (esbuild's interop); `logbook run` made some eighty such copies before it did anything.
      // The main bundles have their own plugin for this (external-namespaces.mjs), which also
      // requires each built-in on first use: only the commands' and lazy bundles' go through here.
      if (dir !== '') {
        build.onResolve({ filter: BUILTIN }, (args) =>
          args.namespace === 'builtin'
            ? { path: args.path, external: true }
            : { path: args.path, namespace: 'builtin' },
        );
        build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
          const name = JSON.stringify(args.path);
          return { contents: `export * from ${name};\nexport { default } from ${name};\n`, loader: 'js' };
        });
      }
      for (const { file, prelude, replace = [] } of SDK_PRELUDES)
        build.onLoad({ filter: file }, async (args) => ({
          contents: `${prelude}\n${replace.reduce((text, [from, to]) => text.replace(from, to), await readFile(args.path, 'utf8'))}`,
          loader: 'js',
          resolveDir: dirname(args.path),
        }));
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = bundleOf.get(resolve(args.resolveDir, args.path).replace(/\.(ts|js)$/, ''));
        return target ? { path: from(target), external: true } : undefined;
      });
    },
  };
}

/**
 * esbuild's `supported` for every Node bundle: a dynamic `import()` of a lazy bundle is emitted as a
 * `require` run when the import runs. Node's `import()` of a CommonJS file reads it three times (a
 * parse to tell its format, a scan for its exports, then the compile): on `logbook run` that was
 * about a fifth of its CPU time.
 */
export const REQUIRE_ON_IMPORT = { 'dynamic-import': false };

/** For the main bundles: `import('…/page-markdown')` becomes `require('./lazy/web-page.js')`. */
export const lazyBundlesPlugin = lazyPlugin('');

/** What every Node bundle is built with: zod's messages in English only. */
export const NODE_PLUGINS = [zodEnglishOnly];

/**
 * The main bundles' plugins (extension.js, cli.js), for esbuild.mjs and the benches' CLI alike;
 * `eager`: one bundle each, every stack in it, the layout before stacks loaded on first use.
 */
export function mainBundlePlugins(eager = false) {
  return eager ? NODE_PLUGINS : [...NODE_PLUGINS, lazyBundlesPlugin, oneNamespacePerExternal];
}

/** esbuild options of the lazy, command and shared bundles beside main bundles in `outdir`. */
export function lazyBundleBuilds(outdir, options = {}) {
  // 'vscode' is the extension host's own module, for the bundles the extension loads.
  const node = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    supported: REQUIRE_ON_IMPORT,
    external: ['vscode'],
  };
  const plugins = (dir) => [...(options.plugins ?? []), lazyPlugin(dir)];
  const entries = (list) => Object.fromEntries(list.map((b) => [b.name, join(root, b.entry)]));
  return [
    {
      ...options,
      ...node,
      outdir: join(outdir, 'lazy'),
      entryPoints: entries(LAZY_BUNDLES),
      plugins: plugins('lazy'),
    },
    {
      ...options,
      ...node,
      outdir: join(outdir, 'cli'),
      entryPoints: entries([...COMMAND_BUNDLES, ...CLI_LAZY_BUNDLES]),
      plugins: plugins('cli'),
    },
    { ...options, ...node, outdir: join(outdir, 'lazy'), entryPoints: { zod: join(root, SHARED_ENTRY) } },
  ];
}
