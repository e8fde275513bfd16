import assert from 'node:assert/strict';
import { createGlobTool, createGrepTool } from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace, textOf } from './workspace';

const FILES = {
  'src/app.ts': 'export function load() {}\nconst x = 1; // TODO tidy\n',
  'src/util/strings.ts': 'export const TODO = "todo";\n',
  'src/view.tsx': 'load();\n',
  'test/app.test.ts': 'describe("load", () => {});\n',
  'README.md': 'Call load() first.\n',
  '.hidden/secret.ts': 'TODO hidden\n',
  'node_modules/dep/index.ts': 'TODO dependency\n',
  'bin/data.bin': 'TODO\u0000binary',
};

for (const engine of ['rg', 'JavaScript walk'] as const) {
  describe(`glob and grep tools (${engine})`, () => {
    let ws: TestWorkspace;
    beforeEach(() => {
      ws = createWorkspace({ rg: engine === 'rg' });
      ws.write(FILES);
    });
    afterEach(() => ws.dispose());

    it('glob finds files by pattern at any depth, as absolute sorted paths, skipping hidden and node_modules', async () => {
      const obs = await ws.run(createGlobTool(), { pattern: '*.ts' });
      assert.deepEqual(obs.files, [
        ws.path('src/app.ts'),
        ws.path('src/util/strings.ts'),
        ws.path('test/app.test.ts'),
      ]);
      assert.equal(obs.truncated, false);
      assert.match(textOf(obs), /^3 files match \*\.ts in /);
    });

    it('glob anchors patterns with a slash and supports ** and braces', async () => {
      const src = await ws.run(createGlobTool(), { pattern: 'src/**/*.{ts,tsx}' });
      assert.deepEqual(src.files, [
        ws.path('src/app.ts'),
        ws.path('src/util/strings.ts'),
        ws.path('src/view.tsx'),
      ]);
      const inTest = await ws.run(createGlobTool(), { pattern: '*.ts', path: 'test' });
      assert.deepEqual(inTest.files, [ws.path('test/app.test.ts')]);
    });

    it('glob says when results were cut at the limit', async () => {
      const obs = await ws.run(createGlobTool({ limit: 2 }), { pattern: '**/*' });
      assert.equal((obs.files as string[]).length, 2);
      assert.equal(obs.truncated, true);
      assert.match(textOf(obs), /Only the first 2 are shown/);
    });

    it('grep lists matching lines as path:line: text, skipping hidden, node_modules and binaries', async () => {
      const obs = await ws.run(createGrepTool(), { pattern: 'TODO' });
      const matches = obs.matches as { path: string; line: number }[];
      assert.deepEqual(
        matches.map((m) => [m.path, m.line]),
        [
          [ws.path('src/app.ts'), 2],
          [ws.path('src/util/strings.ts'), 1],
        ],
      );
      assert.ok(textOf(obs).includes(`${ws.path('src/app.ts')}:2: const x = 1; // TODO tidy`));
    });

    it('grep filters by include and searches a single file', async () => {
      const tsx = await ws.run(createGrepTool(), { pattern: 'load\\(', include: '*.tsx' });
      assert.deepEqual(
        (tsx.matches as { path: string }[]).map((m) => m.path),
        [ws.path('src/view.tsx')],
      );
      const one = await ws.run(createGrepTool(), { pattern: 'load', path: 'README.md' });
      assert.deepEqual(
        (one.matches as { path: string; line: number }[]).map((m) => [m.path, m.line]),
        [[ws.path('README.md'), 1]],
      );
    });

    it('grep accepts JavaScript regex features such as look-ahead', async () => {
      const obs = await ws.run(createGrepTool(), { pattern: 'load(?=\\(\\))', include: '*.md' });
      assert.equal((obs.matches as unknown[]).length, 1);
    });

    it('grep reports an invalid pattern and a missing path as errors', async () => {
      const bad = await ws.run(createGrepTool(), { pattern: '(unclosed' });
      assert.equal(bad.is_error, true);
      assert.match(textOf(bad), /not a valid regular expression/);
      const missing = await ws.run(createGrepTool(), { pattern: 'x', path: 'nope' });
      assert.equal(missing.is_error, true);
    });
  });
}
