import assert from 'node:assert/strict';
import { bwrapArguments } from '../../../src/host/node/sandbox';
import type { SandboxProfile } from '../../../src/host/node/sandbox/sandbox-profile';

const DIRS = new Set(['/ws', '/ws/.git', '/ws/.git/hooks', '/home/u/.ssh', '/home/u/.ssh/work', '/cache']);
const FILES = new Set(['/ws/.git/config', '/home/u/.netrc']);
const kind = (p: string) => (DIRS.has(p) ? 'dir' : FILES.has(p) ? 'file' : undefined);

function profile(over: Partial<SandboxProfile> = {}): SandboxProfile {
  return {
    workspaces: ['/ws'],
    readOnlyWorkspace: false,
    writable: [],
    heldInWorkspace: ['/ws/.git/config', '/ws/.git/hooks', '/ws/.vscode'],
    selfBound: ['/ws/.git'],
    hiddenHomes: [],
    homeReadable: [],
    hidden: ['/home/u/.ssh', '/home/u/.netrc', '/home/u/.aws'],
    env: { PATH: '/usr/bin', HOME: '/home/u' },
    cwd: '/ws',
    ...over,
  };
}

/** The mount operations in order, as [flag, dest] pairs. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--bind' || a === '--ro-bind') {
      out.push(`${a} ${args[i + 2]}`);
      i += 2;
    } else if (a === '--tmpfs' || a === '--dir' || a === '--remount-ro') {
      out.push(`${a} ${args[i + 1]}`);
      i += 1;
    }
  }
  return out;
}

describe('sandbox: bubblewrap arguments', () => {
  it('binds the workspace writable, then its held parts read-only on top', () => {
    const m = mounts(bwrapArguments(profile(), { kind, newSession: true }));
    assert.equal(m[0], '--ro-bind /');
    const ws = m.indexOf('--bind /ws');
    const git = m.indexOf('--bind /ws/.git');
    assert.ok(ws > 0 && git > ws, 'the workspace, then .git as its own mount point');
    assert.ok(m.indexOf('--ro-bind /ws/.git/config') > git);
    assert.ok(m.indexOf('--ro-bind /ws/.git/hooks') > git);
    assert.ok(!m.some((x) => x.endsWith('/ws/.vscode')), 'an absent held path is not mounted');
  });

  it('mounts the workspace read-only in plan mode, and nothing writable in it', () => {
    const m = mounts(bwrapArguments(profile({ readOnlyWorkspace: true }), { kind, newSession: true }));
    assert.ok(m.includes('--ro-bind /ws'));
    assert.ok(!m.some((x) => x.startsWith('--bind /ws')));
  });

  it('hides secret folders with an empty read-only tmpfs and files with /dev/null, skipping absent ones', () => {
    const args = bwrapArguments(profile(), { kind, newSession: false });
    const m = mounts(args);
    assert.ok(m.includes('--tmpfs /home/u/.ssh') && m.includes('--remount-ro /home/u/.ssh'));
    const i = args.indexOf('/home/u/.netrc');
    assert.equal(args[i - 2], '--ro-bind');
    assert.equal(args[i - 1], '/dev/null');
    assert.ok(!args.includes('/home/u/.aws'));
    assert.ok(!args.includes('--new-session'));
  });

  it('puts a workspace inside a hidden folder on top of the hiding mount', () => {
    const m = mounts(
      bwrapArguments(profile({ workspaces: ['/home/u/.ssh/work'], cwd: '/home/u/.ssh/work' }), {
        kind,
        newSession: true,
      }),
    );
    assert.ok(m.indexOf('--bind /home/u/.ssh/work') > m.indexOf('--tmpfs /home/u/.ssh'));
  });

  it('clears the environment, sets only the profile’s, and closes every namespace', () => {
    const args = bwrapArguments(profile(), { kind, newSession: true, infoFd: 3 });
    for (const flag of [
      '--unshare-user',
      '--unshare-pid',
      '--unshare-net',
      '--die-with-parent',
      '--new-session',
      '--clearenv',
    ])
      assert.ok(args.includes(flag), flag);
    assert.deepEqual(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2), [
      '--cap-drop',
      'ALL',
    ]);
    assert.deepEqual(args.slice(args.indexOf('--info-fd'), args.indexOf('--info-fd') + 2), [
      '--info-fd',
      '3',
    ]);
    const set = args.flatMap((a, i) => (a === '--setenv' ? [args[i + 1]] : []));
    assert.deepEqual(set, ['PATH', 'HOME']);
    assert.ok(args.indexOf('--clearenv') < args.indexOf('--setenv'));
    assert.deepEqual(args.slice(-2), ['--chdir', '/ws']);
  });

  it('mounts the proxy socket under a fresh /run and user-writable folders', () => {
    const m = mounts(
      bwrapArguments(profile({ proxySocket: '/tmp/x/proxy.sock', writable: ['/cache', '/absent'] }), {
        kind,
        newSession: true,
      }),
    );
    assert.ok(m.indexOf('--bind /run/logbook/proxy.sock') > m.indexOf('--tmpfs /run'));
    assert.ok(m.includes('--bind /cache'));
    assert.ok(!m.some((x) => x.includes('/absent')));
  });

  it('empties every home folder, binds the allowed toolchains read-only into it, and re-hides secrets there', () => {
    const dirs = new Set([
      '/ws',
      '/home',
      '/root',
      '/home/u',
      '/home/u/.cargo',
      '/home/u/.npm',
      '/home/u/proj',
    ]);
    const files = new Set(['/home/u/.gitconfig', '/home/u/.cargo/credentials.toml', '/home/u/.bashrc']);
    const k = (p: string) => (dirs.has(p) ? 'dir' : files.has(p) ? 'file' : undefined);
    const args = bwrapArguments(
      profile({
        workspaces: ['/home/u/proj'],
        cwd: '/home/u/proj',
        hiddenHomes: ['/root', '/home'],
        homeReadable: ['/home/u/.cargo', '/home/u/.npm', '/home/u/.gitconfig', '/home/u/.rustup'],
        hidden: ['/home/u/.cargo/credentials.toml', '/home/u/.ssh', '/home/u/.bashrc'],
      }),
      { kind: k, newSession: true },
    );
    const m = mounts(args);
    const at = (x: string) => m.indexOf(x);
    assert.ok(at('--tmpfs /home') > 0 && at('--tmpfs /root') > 0);
    for (const r of ['/home/u/.cargo', '/home/u/.npm', '/home/u/.gitconfig'])
      assert.ok(at(`--ro-bind ${r}`) > at('--tmpfs /home'), r);
    assert.ok(!m.some((x) => x.includes('.rustup')), 'an absent allowed folder is not mounted');
    assert.ok(
      at('--bind /home/u/proj') > at('--tmpfs /home'),
      'the workspace inside the home folder is shown',
    );
    // The credentials inside an allowed folder: /dev/null on top of the folder's bind.
    const cred = args.indexOf('/home/u/.cargo/credentials.toml');
    assert.equal(args[cred - 1], '/dev/null');
    assert.ok(cred > args.indexOf('/home/u/.cargo'));
    // A secret that nothing shows again is not mounted at all (it is already gone with the home).
    assert.ok(!args.includes('/home/u/.bashrc'));
    // The emptied homes become read-only after every mount inside them.
    assert.ok(at('--remount-ro /home') > at('--bind /home/u/proj'));
  });

  it('a workspace that is the home folder itself stays writable (no read-only remount over it)', () => {
    const dirs = new Set(['/home', '/home/u']);
    const k = (p: string) => (dirs.has(p) ? ('dir' as const) : undefined);
    const m = mounts(
      bwrapArguments(
        profile({
          workspaces: ['/home/u'],
          cwd: '/home/u',
          hiddenHomes: ['/home', '/home/u'],
          heldInWorkspace: [],
        }),
        { kind: k, newSession: true },
      ),
    );
    assert.ok(m.indexOf('--bind /home/u') > m.indexOf('--tmpfs /home/u'));
    assert.ok(!m.includes('--remount-ro /home/u'), m.join('\n'));
    assert.ok(m.includes('--remount-ro /home'));
  });

  it('with the socket filter: the host user maps to the stand-in ids and the command is process 1', () => {
    const filtered = bwrapArguments(profile({ socketFilter: { outerIds: { uid: 1, gid: 1 } } }), {
      kind,
      newSession: true,
    });
    assert.deepEqual(filtered.slice(0, 5), ['--unshare-user', '--uid', '1', '--gid', '1']);
    assert.ok(filtered.includes('--as-pid-1'));
    const plain = bwrapArguments(profile(), { kind, newSession: true });
    assert.ok(!plain.includes('--as-pid-1') && !plain.includes('--uid'));
  });
});
