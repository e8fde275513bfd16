// The README's install line is the list .ci/run installs on a fresh machine: one list, so a
// package added for the tests cannot be missing from what a new user is told to install.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SYSTEM_PACKAGES } from '../../../scripts/code-server/system-packages.mjs';

const root = join(__dirname, '..', '..', '..');

function ciPackages(): string[] {
  const m = /^DEB_PACKAGES=\(([^)]*)\)$/m.exec(readFileSync(join(root, '.ci', 'run'), 'utf8'));
  assert.ok(m, '.ci/run has no DEB_PACKAGES=(...) line');
  return m[1]!.trim().split(/\s+/);
}

function readmeAptLines(): string[][] {
  return [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/^sudo apt-get install ([^#\n]+)/gm)].map(
    (m) => m[1]!.trim().split(/\s+/),
  );
}

describe('the apt packages of README and .ci/run', () => {
  it('the README has one apt line, and it is exactly what .ci/run installs', () => {
    const lines = readmeAptLines();
    assert.equal(lines.length, 1, `one apt line in the README, found ${lines.length}`);
    assert.deepEqual(lines[0], ciPackages());
  });

  it('every package npm start checks for is in that list', () => {
    const listed = new Set(ciPackages());
    for (const p of SYSTEM_PACKAGES) assert.ok(listed.has(p.name), p.name);
  });
});
