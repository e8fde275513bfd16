import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const readJson = (name: string) => JSON.parse(readFileSync(join(root, name), 'utf8'));

// npm rewrites package-lock.json on `npm install` when its copy of the root package's ranges
// differs from package.json, which leaves a fresh clone dirty (scripts/check-fresh-clone.mjs
// checks the real install in CI).
describe('package-lock.json', () => {
  it('records the same dependency ranges as package.json', () => {
    const pkg = readJson('package.json');
    const lockRoot = readJson('package-lock.json').packages[''];
    for (const field of ['dependencies', 'devDependencies'] as const) {
      assert.deepEqual(lockRoot[field] ?? {}, pkg[field] ?? {}, `${field} differ`);
    }
  });
});
