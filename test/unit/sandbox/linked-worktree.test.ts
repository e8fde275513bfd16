// A linked worktree's git folders (linked-worktree.ts): found only when the worktree's `.git` file
// and its admin folder name each other, and turned into mounts where the packed history, the
// pointers and the rest of the shared `.git` stay read-only.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArguments, sandboxReport } from '../../../src/host/node/sandbox';
import { findLinkedWorktree, linkedWorktreeGit } from '../../../src/host/node/sandbox/linked-worktree';
import type { SandboxProfile } from '../../../src/host/node/sandbox/sandbox-profile';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-C', cwd, ...args], {
    stdio: 'ignore',
    env: {
      PATH: process.env['PATH'],
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@e',
      HOME: '/nonexistent',
    },
  });
}

describe('linked worktree: the git folders a worktree task may write', () => {
  let root: string;
  let main: string;
  let common: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-linked-wt-')));
    main = join(root, 'main');
    common = join(main, '.git');
    git(root, 'init', '-q', '-b', 'main', main);
    writeFileSync(join(main, 'a.txt'), 'a\n');
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'a');
    git(main, 'worktree', 'add', '-q', '-b', 'logbook/t1', join(root, 't1'));
    git(main, 'worktree', 'add', '-q', '-b', 'logbook/t2', join(root, 't2'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the admin folder and the shared .git of a linked worktree', () => {
    assert.deepEqual(findLinkedWorktree(join(root, 't1')), {
      gitDir: join(common, 'worktrees', 't1'),
      common,
    });
  });

  it('is no linked worktree: the main working tree, or a .git file pointing at another worktree’s admin folder', () => {
    assert.equal(findLinkedWorktree(main), undefined);
    writeFileSync(join(root, 't1', '.git'), `gitdir: ${join(common, 'worktrees', 't2')}\n`);
    assert.equal(findLinkedWorktree(join(root, 't1')), undefined, 't2 does not name t1 back');
  });

  it('makes the branch folders and an empty config.worktree, and holds pack, info and the pointers', () => {
    const plan = linkedWorktreeGit(join(root, 't1'))!;
    const admin = join(common, 'worktrees', 't1');
    assert.deepEqual(plan.writable, [
      admin,
      join(common, 'objects'),
      join(common, 'refs', 'heads', 'logbook'),
      join(common, 'logs', 'refs', 'heads', 'logbook'),
    ]);
    for (const dir of plan.writable) assert.ok(statSync(dir).isDirectory(), dir);
    assert.equal(readFileSync(join(admin, 'config.worktree'), 'utf8'), '');
    for (const p of ['objects/pack', 'objects/info', 'worktrees/t1/commondir', 'worktrees/t1/gitdir'])
      assert.ok(plan.held.includes(join(common, p)), p);
    assert.deepEqual(plan.readable, [common]);
    assert.ok(
      !existsSync(join(common, 'worktrees', 't2', 'config.worktree')),
      'another worktree is left alone',
    );
  });

  it('logbook sandbox lists what of the shared .git the commands of a worktree may write', () => {
    const report = sandboxReport({
      state: { kind: 'off' },
      workspaces: [join(root, 't1')],
      writable: [],
      hidden: [],
      allowedHosts: [],
    });
    assert.deepEqual(report.writable.slice(0, 5), [
      join(root, 't1'),
      join(common, 'worktrees', 't1'),
      join(common, 'objects'),
      join(common, 'refs', 'heads', 'logbook'),
      join(common, 'logs', 'refs', 'heads', 'logbook'),
    ]);
    assert.ok(!report.writable.includes(common), 'not the shared .git whole');
  });

  it('mounts: the shared .git read-only, its writable parts on top, the held ones on top of those; none in plan mode', () => {
    const plan = linkedWorktreeGit(join(root, 't1'))!;
    const base: SandboxProfile = {
      workspaces: [join(root, 't1')],
      readOnlyWorkspace: false,
      writable: [],
      heldInWorkspace: [],
      selfBound: [],
      linkedGit: plan,
      hiddenHomes: [],
      homeReadable: [],
      hidden: [],
      env: {},
      cwd: join(root, 't1'),
    };
    const kind = (p: string) => {
      try {
        return statSync(p).isDirectory() ? ('dir' as const) : ('file' as const);
      } catch {
        return undefined;
      }
    };
    const args = bwrapArguments(base, { kind, newSession: false }).join(' ');
    const at = (s: string) => args.indexOf(s);
    assert.ok(at(`--ro-bind ${common} ${common}`) >= 0);
    const objects = join(common, 'objects');
    assert.ok(at(`--ro-bind ${common} `) < at(`--bind ${objects} ${objects}`));
    assert.ok(at(`--bind ${objects} `) < at(`--ro-bind ${objects}/pack ${objects}/pack`));
    assert.ok(at(`--ro-bind ${common}/worktrees/t1/commondir `) > at(`--bind ${common}/worktrees/t1 `));
    assert.equal(at(`--bind ${join(common, 'refs', 'heads')} `), -1, 'other branches stay read-only');

    const plan2 = bwrapArguments({ ...base, readOnlyWorkspace: true }, { kind, newSession: false }).join(' ');
    assert.ok(plan2.includes(`--ro-bind ${common} ${common}`));
    assert.ok(!plan2.includes(`--bind ${objects} `), 'plan mode writes nothing');
  });
});
