// A new folder outside every workspace that sandboxed commands can still see (read-only), for tests
// that check nothing was written outside: under the repository's ignored test-results/, since the
// sandbox has its own /tmp and shows the home folders empty.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

export function outsideFolder(prefix: string): string {
  const root = join(__dirname, '..', '..', 'test-results', 'outside');
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, prefix));
}
