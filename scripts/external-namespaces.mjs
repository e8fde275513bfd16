// One namespace object per external module ('vscode', Node's built-ins) in a bundle, not one per
// importing file. esbuild wraps each file's `import * as vscode from 'vscode'` (or `import fs from
// 'node:fs'`) of a module left to `require` in its own copy of the module's exports, a getter per
// member: 65 files importing 'vscode' copied its ~400 members 65 times at load, which showed in the
// extension's activation time. Here every such import goes through one module of the bundle that
// re-exports the external one, so its members are copied once.
const EXTERNAL = /^(vscode|node:[a-z_/]+)$/;

export const oneNamespacePerExternal = {
  name: 'one-namespace-per-external',
  setup(build) {
    build.onResolve({ filter: EXTERNAL }, (args) =>
      args.namespace === 'external-namespace'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'external-namespace' },
    );
    build.onLoad({ filter: /.*/, namespace: 'external-namespace' }, (args) => {
      const name = JSON.stringify(args.path);
      // A built-in's default import is the module itself (`import fs from 'node:fs'`).
      const fallback = args.path === 'vscode' ? '' : `export { default } from ${name};\n`;
      return { contents: `export * from ${name};\n${fallback}`, loader: 'js' };
    });
  },
};
