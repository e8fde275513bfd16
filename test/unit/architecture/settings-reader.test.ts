// The editor's configuration has one reader, src/host/vscode/settings/config.ts, which resolves the
// `logbook.*` settings through the schema the CLI reads (src/core/settings). Any other module that
// called getConfiguration would read a setting with its own default and validation again.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS_BY_KEY } from '../../../src/core/settings';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const READER = 'src/host/vscode/settings/config.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const sources = sourceFiles(join(root, 'src')).map((path) => ({
  path: relative(root, path).split('\\').join('/'),
  text: readFileSync(path, 'utf8'),
}));

/** Files that call the configuration API themselves (a comment naming it does not count). */
function configurationCallers(files: readonly { path: string; text: string }[]): string[] {
  return files.filter((f) => /\.getConfiguration\s*\(/.test(f.text)).map((f) => f.path);
}

describe('the editor settings reader', () => {
  it('the check finds a call of getConfiguration, however it is spelled', () => {
    const found = configurationCallers([
      { path: 'a.ts', text: "const c = vscode.workspace.getConfiguration('logbook');" },
      { path: 'b.ts', text: 'vscode.workspace\n  .getConfiguration ()\n  .get("files.exclude");' },
      { path: 'c.ts', text: '// no module calls getConfiguration but the reader' },
    ]);
    assert.deepEqual(found, ['a.ts', 'b.ts']);
  });

  it(`only ${READER} calls getConfiguration in src/`, () => {
    assert.deepEqual(configurationCallers(sources), [READER]);
  });

  it('every key a module asks the reader for is a setting of the editor in the schema', () => {
    const asked = sources.flatMap((f) =>
      [...f.text.matchAll(/\b(?:editorSetting|editorList)(?:<[^>(]*>)?\(\s*'([^']+)'/g)].map((m) => ({
        path: f.path,
        key: m[1]!,
      })),
    );
    assert.ok(asked.length >= 10, `only ${asked.length} reads found: the pattern no longer matches`);
    const unknown = asked.filter(({ key }) => !SETTINGS_BY_KEY.get(key)?.hosts.includes('vscode'));
    assert.deepEqual(
      unknown.map((a) => `${a.path}: ${a.key}`),
      [],
    );
  });
});
