// What the tests of the agent-server's git patch share: git with a fixed author, the working
// tree's change against HEAD written as the server's git-delta archive writes it, and a fresh
// folder per test under test-results (not /tmp, which the sandbox replaces).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** The working tree's change against HEAD as the agent-server's git-delta archive writes it. */
export function serverPatch(dir: string): string {
  const index = join(dir, '..', 'scratch-index');
  const env = { ...process.env, GIT_INDEX_FILE: index };
  execFileSync('git', ['read-tree', 'HEAD'], { cwd: dir, env });
  execFileSync('git', ['add', '-A', '--', '.'], { cwd: dir, env });
  const patch = execFileSync('git', ['diff', '--binary', '--cached', 'HEAD', '--', '.'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  rmSync(index, { force: true });
  return patch;
}

/** A folder made fresh before each test of the suite and removed after it; read it in the tests. */
export function freshRootPerTest(prefix: string): { readonly path: string } {
  const root = { path: '' };
  beforeEach(() => {
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root.path = mkdtempSync(join(base, prefix));
  });
  afterEach(() => rmSync(root.path, { recursive: true, force: true }));
  return root;
}
