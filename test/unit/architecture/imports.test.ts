// The shape of src/ and webview-ui/ as their import graphs: no file reaches itself through its imports,
// and each layer imports only what it may (core stays host-free, the CLI free of VS Code, the webview
// to src/protocol and a few pure core leaves).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compilerOptions,
  findCycles,
  type ImportEdge,
  importEdges,
  importSpecifiers,
  type LayerRule,
  layerViolations,
  localGraph,
  repoPath,
} from './import-graph';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const LAYERS: LayerRule[] = [
  {
    layer: 'src/core',
    localImports: ['src/core'],
    bannedPackages: ['vscode'],
    why: 'the agent runs the same in VS Code, the CLI and the benchmarks',
  },
  {
    layer: 'src/protocol',
    localImports: ['src/protocol', 'src/core'],
    bannedPackages: ['vscode'],
    why: 'the webview bundles these messages and cannot load host code',
  },
  {
    layer: 'src/host/node',
    localImports: ['src/host/node', 'src/core', 'package.json'],
    bannedPackages: ['vscode'],
    why: 'the CLI runs without VS Code',
  },
];

const graphOf = (entries: Record<string, string[]>): Map<string, string[]> =>
  new Map(Object.entries(entries));

describe('import graph: the checker', () => {
  it('finds no circle in a tree or a diamond', () => {
    assert.deepEqual(findCycles(graphOf({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] })), []);
  });

  it('finds a two-file circle, a longer one inside a larger graph, and a file importing itself', () => {
    const circles = findCycles(
      graphOf({ a: ['b'], b: ['a'], c: ['d'], d: ['e', 'x'], e: ['c'], x: [], s: ['s'] }),
    );
    assert.deepEqual(
      circles.map((c) => c.members),
      [['a', 'b'], ['c', 'd', 'e'], ['s']],
    );
    assert.deepEqual(
      circles.map((c) => c.loop),
      [
        ['a', 'b', 'a'],
        ['c', 'd', 'e', 'c'],
        ['s', 's'],
      ],
    );
  });

  it('reports one knot once, however many loops run through it', () => {
    const [knot, ...rest] = findCycles(graphOf({ a: ['b', 'c'], b: ['a', 'c'], c: ['a'] }));
    assert.equal(rest.length, 0);
    assert.deepEqual(knot!.members, ['a', 'b', 'c']);
    assert.deepEqual(knot!.loop, ['a', 'b', 'a']);
  });

  it('reads every form of import: static, type-only, re-export, dynamic, require and import types', () => {
    const text = [
      "import a from './a';",
      "import type { B } from './b';",
      "export { c } from './c';",
      "export * from './d';",
      "const e = await import('./e');",
      "const f = require('./f');",
      "type G = import('./g').G;",
      "import h = require('./h');",
      "function later() { return import('./i'); }",
      "const notAnImport = './j';",
    ].join('\n');
    assert.deepEqual(importSpecifiers('x.ts', text), [
      './a',
      './b',
      './c',
      './d',
      './e',
      './f',
      './g',
      './h',
      './i',
    ]);
  });

  it('resolves extensionless and folder imports as the project does, and catches a circle through them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'logbook-imports-'));
    try {
      mkdirSync(join(dir, 'src', 'feature'), { recursive: true });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { moduleResolution: 'Bundler', module: 'ESNext' } }),
      );
      writeFileSync(
        join(dir, 'src', 'main.ts'),
        "import { helper } from './feature';\nexport const main = helper;\n",
      );
      writeFileSync(join(dir, 'src', 'feature', 'index.ts'), "export { helper } from './helper';\n");
      writeFileSync(
        join(dir, 'src', 'feature', 'helper.ts'),
        "import type { main } from '../main';\nexport const helper = 1 as unknown as typeof main;\n",
      );
      const edges = importEdges(join(dir, 'src'), compilerOptions(join(dir, 'tsconfig.json')));
      assert.deepEqual(
        findCycles(localGraph(edges)).map((c) => c.loop.map((f) => repoPath(dir, f))),
        [['src/feature/helper.ts', 'src/main.ts', 'src/feature/index.ts', 'src/feature/helper.ts']],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a layer import that leaves its allowed folders or uses a banned package', () => {
    const edge = (from: string, specifier: string, to?: string): ImportEdge => ({
      from: join(root, from),
      specifier,
      to: to === undefined ? undefined : join(root, to),
    });
    const violations = layerViolations(
      root,
      [
        edge('src/core/agent/loop.ts', '../state', 'src/core/state/index.ts'),
        edge('src/core/agent/loop.ts', 'zod'),
        edge('src/core/agent/loop.ts', 'vscode'),
        edge('src/core/agent/loop.ts', '../../host/node/cli', 'src/host/node/cli.ts'),
        edge('src/host/node/cli.ts', '../../core/state', 'src/core/state/index.ts'),
        edge('src/host/node/cli.ts', '../vscode/extension', 'src/host/vscode/extension.ts'),
        edge('src/host/vscode/extension.ts', 'vscode'),
      ],
      LAYERS,
    );
    assert.deepEqual(
      violations.map((v) => v.replace(/ \(.*$/, '')),
      [
        'src/core/agent/loop.ts -> vscode',
        'src/core/agent/loop.ts -> src/host/node/cli.ts',
        'src/host/node/cli.ts -> src/host/vscode/extension.ts',
      ],
    );
  });
});

describe('import graph of src/', () => {
  const edges = importEdges(join(root, 'src'), compilerOptions(join(root, 'tsconfig.json')));

  it('resolves every relative import to a file of the project', () => {
    const unresolved = edges.filter((e) => e.specifier.startsWith('.') && e.to === undefined);
    assert.deepEqual(
      unresolved.map((e) => `${repoPath(root, e.from)}: ${e.specifier}`),
      [],
      'the checks below would not see these imports',
    );
    assert.ok(
      edges.some((e) => e.to !== undefined),
      'no local import found: the graph was not read',
    );
  });

  it('has no import circles', () => {
    const circles = findCycles(localGraph(edges)).map(
      (c) =>
        `${c.loop.map((f) => repoPath(root, f)).join(' -> ')}` +
        (c.members.length > c.loop.length - 1 ? ` (a knot of ${c.members.length} files)` : ''),
    );
    assert.deepEqual(
      circles,
      [],
      'move what both sides need (usually a type) into a module of its own that neither imports back',
    );
  });

  it('keeps each layer to what it may import: core host-free, the CLI free of VS Code', () => {
    assert.deepEqual(layerViolations(root, edges, LAYERS), []);
  });
});

/**
 * The core modules the webview may import: pure leaves (no local import, no Node built-in), so the
 * webview's bundle can never pull host code in through them. Add one here only if it stays a leaf.
 */
const WEBVIEW_CORE_LEAVES = [
  'src/core/attachments/attachment-text.ts',
  'src/core/format/counts.ts',
  'src/core/hooks/tool-names.ts',
  'src/core/security/command-prefix.ts',
  'src/core/text/html-escape.ts',
  'src/core/tools/terminal-notes.ts',
];

describe('import graph of webview-ui/', () => {
  const options = compilerOptions(join(root, 'webview-ui', 'tsconfig.json'));
  const edges = importEdges(join(root, 'webview-ui', 'src'), options);
  const leafEdges = WEBVIEW_CORE_LEAVES.flatMap((leaf) =>
    importEdges(join(root, leaf, '..'), options).filter((e) => repoPath(root, e.from) === leaf),
  );
  const isAsset = (specifier: string) => /\.(css|svg|png|ttf)$/.test(specifier);

  it('resolves every relative import to a file of the project', () => {
    const unresolved = edges.filter((e) => e.specifier.startsWith('.') && !isAsset(e.specifier) && !e.to);
    assert.deepEqual(
      unresolved.map((e) => `${repoPath(root, e.from)}: ${e.specifier}`),
      [],
    );
    assert.ok(
      edges.some((e) => e.to !== undefined && repoPath(root, e.from).endsWith('.tsx')),
      'no import of a .tsx file was read: the graph missed the components',
    );
  });

  it('has no import circles, components included', () => {
    const circles = findCycles(localGraph(edges)).map((c) =>
      c.loop.map((f) => repoPath(root, f)).join(' -> '),
    );
    assert.deepEqual(circles, [], 'move what both sides share into webview-ui/src/lib');
  });

  it('imports only itself, src/protocol and the named pure core leaves', () => {
    const rules: LayerRule[] = [
      {
        layer: 'webview-ui',
        localImports: ['webview-ui', 'src/protocol', ...WEBVIEW_CORE_LEAVES],
        bannedPackages: ['vscode'],
        why: 'the webview only renders: it runs in a browser page and talks to the host by messages',
      },
    ];
    assert.deepEqual(layerViolations(root, edges, rules), []);
  });

  it('each core leaf it imports is a leaf: no local import, no Node built-in', () => {
    const reaching = leafEdges.map((e) => `${repoPath(root, e.from)} -> ${e.specifier}`);
    assert.deepEqual(reaching, []);
  });
});
