// No source file over 500 lines: a long file hides its seams, so each one is split into named parts
// before it grows past the point a newcomer can read in one sitting.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MAX_LINES = 500;
const SOURCE_ROOTS = ['src', join('webview-ui', 'src')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('source files: none over 500 lines', () => {
  it('lists every .ts/.tsx file under src/ and webview-ui/src/ that is too long', () => {
    const files = SOURCE_ROOTS.flatMap((dir) => sourceFiles(join(root, dir)));
    assert.ok(files.length > 100, `expected the source tree, found ${files.length} files`);
    const tooLong = files
      .map((path) => ({ file: relative(root, path), lines: lineCount(readFileSync(path, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file} (${lines} lines)`)
      .sort();
    assert.deepEqual(tooLong, [], `split these along a seam:\n${tooLong.join('\n')}`);
  });
});
