// Which paths of a workspace the sandbox holds read-only (held-paths.ts), on real folders: the
// list of what runs later, found on disk, in the workspace's repository and nested ones.
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heldNameTest, heldPlan } from '../../../src/host/node/sandbox/held-paths';
import { scanWorkspace } from '../../../src/host/node/sandbox/workspace-scan';

describe('sandbox: held paths of a workspace', () => {
  let ws: string;
  beforeEach(() => (ws = mkdtempSync(join(tmpdir(), 'held-'))));
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  const touch = (rel: string, text = '') => {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  };
  const plan = () => heldPlan(ws, scanWorkspace(ws, { named: heldNameTest(), links: 'all' }));
  const rel = (ps: string[]) => ps.map((p) => p.slice(ws.length + 1)).sort();

  it('holds git’s configuration in every repository, binds each .git onto itself, and names missing held folders', () => {
    touch('.git/config');
    touch('.git/HEAD');
    mkdirSync(join(ws, '.git', 'hooks'));
    touch('.git/modules/lib/config');
    touch('vendor/sub/.git/config');
    touch('.vscode/settings.json');
    const p = plan();
    assert.deepEqual(rel(p.held), [
      '.git/config',
      '.git/hooks',
      '.git/modules/lib/config',
      '.vscode',
      'vendor/sub/.git/config',
    ]);
    assert.deepEqual(rel(p.selfBound), ['.git', '.git/modules', '.git/modules/lib', 'vendor/sub/.git']);
    // Folders only: a missing file (commondir) cannot have a placeholder; nested repositories' are watched.
    assert.deepEqual(rel(p.missingFolders), [
      '.claude',
      '.devcontainer',
      '.git/info',
      '.git/worktrees',
      '.githooks',
      '.husky',
      '.logbook',
    ]);
  });

  it('holds a .git file (a worktree’s pointer) and names held at any depth, outside dependency folders', () => {
    touch('.git', 'gitdir: /elsewhere\n');
    touch('.env');
    touch('app/.env.local');
    touch('app/deep/.envrc');
    touch('team.code-workspace');
    touch('node_modules/x/.env');
    touch('src/env.ts');
    assert.deepEqual(rel(plan().held), [
      '.env',
      '.git',
      'app/.env.local',
      'app/deep/.envrc',
      'team.code-workspace',
    ]);
  });

  it('names a .git file or link at any depth, and finds folders that may be git folders under another name', () => {
    touch('stash/g/HEAD', 'ref: refs/heads/main\n');
    mkdirSync(join(ws, 'stash', 'g', 'objects'));
    touch('sub/.git', 'gitdir: ../stash/g\n');
    mkdirSync(join(ws, 'linked'));
    symlinkSync('../stash/g', join(ws, 'linked', '.git'));
    const scan = scanWorkspace(ws, { named: heldNameTest(), links: 'none' });
    assert.deepEqual(scan.named.sort(), ['linked/.git', 'sub/.git']);
    assert.deepEqual(scan.gitDirs, ['stash/g']);
  });

  it('finds files with more than one hard link', () => {
    touch('a.txt');
    linkSync(join(ws, 'a.txt'), join(ws, 'b.txt'));
    touch('c.txt');
    const scan = scanWorkspace(ws, { named: () => false, links: 'all' });
    assert.deepEqual(scan.linked.sort(), ['a.txt', 'b.txt']);
    assert.deepEqual(scanWorkspace(ws, { named: () => false, links: 'none' }).linked, []);
  });

  it('stops at the limit and says so', () => {
    for (let i = 0; i < 30; i++) touch(`f${i}.txt`);
    const scan = scanWorkspace(ws, { named: () => true, links: 'none', limit: 10 });
    assert.equal(scan.truncated, true);
    assert.ok(scan.named.length <= 10);
  });
});
