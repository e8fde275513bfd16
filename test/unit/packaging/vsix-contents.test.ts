import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const vsce = join(root, 'node_modules/@vscode/vsce/vsce');

describe('packaging', () => {
  it('ships only what runs in the .vsix (vsce ls)', function () {
    this.timeout(60_000);
    const out = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
    });
    const files = out
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .sort();
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^docs\/[\w-]+\.md$/,
      /^LICENSE$/,
      /^media\/[\w.-]+$/,
      /^dist\/(extension|webview)\.(js|css)$/,
      /^dist\/codicon\.(css|ttf)$/,
    ];
    const unexpected = files.filter((f) => !allowed.some((re) => re.test(f)));
    assert.deepEqual(unexpected, [], `unexpected files in the package: ${unexpected.join(', ')}`);
    assert.ok(files.includes('dist/extension.js'));
    assert.ok(files.includes('dist/webview.js'));
  });

  it('packages into a .vsix of at most 2 MB (even from the unminified development build)', function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'logbook-vsix-'));
    try {
      const file = join(dir, 'logbook.vsix');
      execFileSync(
        process.execPath,
        [
          vsce,
          'package',
          '--no-dependencies',
          '--allow-missing-repository',
          '--skip-license',
          '--no-rewrite-relative-links',
          '-o',
          file,
        ],
        { cwd: root, stdio: 'pipe' },
      );
      const bytes = statSync(file).size;
      assert.ok(bytes <= 2 * 1024 * 1024, `the .vsix is ${bytes} bytes`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
