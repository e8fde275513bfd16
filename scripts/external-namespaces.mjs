// One namespace object per external module ('vscode', Node's built-ins) in a bundle, not one per
// importing file. esbuild wraps each file's `import * as vscode from 'vscode'` (or `import fs from
// 'node:fs'`) of a module left to `require` in its own copy of the module's exports, a getter per
// member: 65 files importing 'vscode' copied its ~400 members 65 times at load, which showed in the
// extension's activation time. Here every such import goes through one module of the bundle that
// re-exports the external one, so its members are copied once.
//
// A built-in is also required on first use, not at load: its members are getters that require it
// when one is first read, so a window that never fetches a page never loads node:http, and one
// that signs nothing yet never loads node:crypto (each a few milliseconds of activation in a fresh
// process). 'vscode' is the extension's host and is used at activation anyway.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const EXTERNAL = /^(vscode|node:[a-z_/]+)$/;
const ON_FIRST_USE = 'builtin-on-first-use';

let words;
/** Every word of the sources: a member of a built-in that none names is never read, so needs no getter. */
export function sourceWords() {
  if (words) return words;
  words = new Set();
  const src = join(import.meta.dirname, '..', 'src');
  for (const f of readdirSync(src, { recursive: true, encoding: 'utf8' }))
    if (f.endsWith('.ts'))
      for (const [w] of readFileSync(join(src, f), 'utf8').matchAll(/[A-Za-z_$][\w$]*/g)) words.add(w);
  return words;
}

export const oneNamespacePerExternal = {
  name: 'one-namespace-per-external',
  setup(build) {
    build.onResolve({ filter: EXTERNAL }, (args) =>
      args.namespace === 'external-namespace' || args.namespace === ON_FIRST_USE
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'external-namespace' },
    );
    build.onResolve({ filter: /.*/, namespace: 'external-namespace' }, (args) =>
      args.path.startsWith(`${ON_FIRST_USE}:`)
        ? { path: args.path.slice(ON_FIRST_USE.length + 1), namespace: ON_FIRST_USE }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'external-namespace' }, (args) => {
      const name = JSON.stringify(args.path);
      if (args.path === 'vscode') return { contents: `export * from ${name};\n`, loader: 'js' };
      // A built-in's default import is the module itself (`import fs from 'node:fs'`): here the
      // object of getters below, which reads through to it.
      const lazy = JSON.stringify(`${ON_FIRST_USE}:${args.path}`);
      return { contents: `export * from ${lazy};\nexport { default } from ${lazy};\n`, loader: 'js' };
    });
    // CommonJS, so that esbuild reads its members at run time (through the getters) rather than
    // binding them at load; the names are the built-in's own, read from the Node that builds, that
    // the sources name somewhere.
    build.onLoad({ filter: /.*/, namespace: ON_FIRST_USE }, async (args) => {
      const used = sourceWords();
      const names = Object.keys(await import(args.path)).filter((n) => n !== 'default' && used.has(n));
      const contents = [
        'let loaded;',
        `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
        `for (const name of ${JSON.stringify(names)})`,
        '  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });',
        '',
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};
