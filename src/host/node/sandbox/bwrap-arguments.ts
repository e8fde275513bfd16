// Turns a SandboxProfile into bubblewrap's arguments. Pure: what the mounts are can be read and
// tested without starting anything.
//
// Why these flags:
// - `--unshare-user` plus `--cap-drop ALL`: whoever starts Logbook (root in a container too), the
//   sandbox holds no capability, so it cannot remount the read-only tree writable.
// - `--unshare-pid` with a new /proc: no other process, its environment or its command line is visible.
// - `--unshare-net`: only loopback; the host's filtering proxy is the one way out (see network-proxy.ts).
// - `--new-session` is left to the caller: a shell on pipes wants it (its own process group to
//   interrupt), an integrated terminal must keep its controlling terminal.
// - `--die-with-parent`: nothing outlives the host that started it.
// - With the Unix socket filter (unix-socket-filter.ts), a nested bwrap applies it to the command
//   after the network bridge starts. Nested, it needs a user namespace of its own, and since Linux
//   5.12 mapping uid 0 of the outer namespace takes CAP_SETFCAP there, which `--cap-drop ALL` took
//   away. So where the host user is root the outer sandbox maps it to a stand-in id (`--uid`), the
//   nested one maps the stand-in back to 0, and the command sees the ids it would see outside.
//   `--as-pid-1` makes that nested bwrap process 1, which a Ctrl+C sent to the group cannot kill.
// - Every user's home is an empty read-only tmpfs, with the allowed toolchain folders bound
//   read-only into it (home-readable.ts).
// Mounts are ordered parent-first, so a workspace inside a hidden folder, or a held file inside a
// workspace, lands on top of what contains it; at the same path, in the order pushed.
import { dirname, sep } from 'node:path';
import type { SandboxProfile } from './sandbox-profile';

/** Where the proxy's socket appears inside the sandbox (/run is a fresh tmpfs there). */
export const PROXY_SOCKET_INSIDE = '/run/logbook/proxy.sock';

export interface BwrapOptions {
  /** Whether each path exists and is a folder; paths that do not exist are not mounted. */
  kind: (path: string) => 'dir' | 'file' | undefined;
  /** Start the command in a new session (see above). */
  newSession: boolean;
  /** A descriptor bwrap writes its inner process id to (to signal the inner process group). */
  infoFd?: number;
}

type Mount = { dest: string; args: string[] };

export function bwrapArguments(profile: SandboxProfile, opts: BwrapOptions): string[] {
  const mounts: Mount[] = [
    { dest: '/', args: ['--ro-bind', '/', '/'] },
    { dest: '/dev', args: ['--dev', '/dev'] },
    { dest: '/proc', args: ['--proc', '/proc'] },
    // A private temporary folder, and no host sockets (/run, /tmp hold the editor's and the
    // system's): connecting to a socket works through a read-only mount.
    { dest: '/tmp', args: ['--tmpfs', '/tmp'] },
    { dest: '/var/tmp', args: ['--tmpfs', '/var/tmp'] },
    { dest: '/run', args: ['--tmpfs', '/run'] },
  ];
  // Made read-only only after every mount: a mount point inside (a workspace in a hidden folder)
  // cannot be created in a tmpfs that is read-only already.
  const emptied: string[] = [];
  const homes = profile.hiddenHomes.filter((h) => opts.kind(h) === 'dir');
  for (const h of homes) {
    mounts.push({ dest: h, args: ['--tmpfs', h] });
    emptied.push(h);
  }
  const underHome = (p: string) => homes.some((h) => isInside(p, h) || p === h);
  for (const r of profile.homeReadable) {
    if (underHome(r) && opts.kind(r)) mounts.push({ dest: r, args: ['--ro-bind', r, r] });
  }
  const bind = profile.readOnlyWorkspace ? '--ro-bind' : '--bind';
  const workspaces = profile.workspaces.filter((ws) => opts.kind(ws) === 'dir');
  for (const ws of workspaces) mounts.push({ dest: ws, args: [bind, ws, ws] });
  const writable = profile.writable.filter((dir) => opts.kind(dir) === 'dir');
  for (const dir of writable) mounts.push({ dest: dir, args: ['--bind', dir, dir] });
  const linked = profile.linkedGit;
  const gitShown = linked ? linked.readable.filter((dir) => opts.kind(dir) === 'dir') : [];
  for (const dir of gitShown) mounts.push({ dest: dir, args: ['--ro-bind', dir, dir] });
  if (linked && !profile.readOnlyWorkspace) {
    const gitWritable = linked.writable.filter((dir) => opts.kind(dir) === 'dir');
    for (const dir of gitWritable) mounts.push({ dest: dir, args: ['--bind', dir, dir] });
    for (const p of linked.held) {
      if (gitWritable.some((dir) => isInside(p, dir)) && opts.kind(p))
        mounts.push({ dest: p, args: ['--ro-bind', p, p] });
    }
  }
  if (!profile.readOnlyWorkspace) {
    const inWorkspace = (p: string) => workspaces.some((ws) => isInside(p, ws));
    for (const dir of profile.selfBound) {
      if (inWorkspace(dir) && opts.kind(dir) === 'dir')
        mounts.push({ dest: dir, args: ['--bind', dir, dir] });
    }
    for (const p of profile.heldInWorkspace) {
      if (inWorkspace(p) && opts.kind(p)) mounts.push({ dest: p, args: ['--ro-bind', p, p] });
    }
  }
  // A secret in a hidden home needs hiding only where something on top shows it again.
  const shown = [...profile.homeReadable, ...workspaces, ...writable, ...gitShown];
  const visible = (p: string) => !underHome(p) || shown.some((s) => p === s || isInside(p, s));
  const hiddenDirs = profile.hidden.filter((p) => opts.kind(p) === 'dir');
  for (const p of profile.hidden) {
    // Inside a folder hidden whole already: nothing more to hide.
    if (hiddenDirs.some((d) => d !== p && isInside(p, d))) continue;
    if (!visible(p)) continue;
    const kind = opts.kind(p);
    if (kind === 'dir') {
      mounts.push({ dest: p, args: ['--tmpfs', p] });
      emptied.push(p);
    } else if (kind === 'file') mounts.push({ dest: p, args: ['--ro-bind', '/dev/null', p] });
  }
  if (profile.proxySocket) {
    mounts.push({ dest: dirname(PROXY_SOCKET_INSIDE), args: ['--dir', dirname(PROXY_SOCKET_INSIDE)] });
    mounts.push({ dest: PROXY_SOCKET_INSIDE, args: ['--bind', profile.proxySocket, PROXY_SOCKET_INSIDE] });
  }
  const sorted = mounts
    .map((m, i) => ({ ...m, i }))
    .sort((a, b) => depth(a.dest) - depth(b.dest) || a.i - b.i);
  // A tmpfs with another mount at the same place on top (a workspace that is the home folder
  // itself) is not remounted: the remount would make that other mount read-only.
  const lastAt = new Map(sorted.map((m, at) => [m.dest, at]));
  const readOnlyLast = emptied.flatMap((p) => {
    const at = sorted.findIndex((m) => m.dest === p && m.args[0] === '--tmpfs');
    return lastAt.get(p) === at ? ['--remount-ro', p] : [];
  });
  const ordered = [...sorted.flatMap((m) => m.args), ...readOnlyLast];

  const env = Object.entries(profile.env).flatMap(([k, v]) => ['--setenv', k, v]);
  const ids = profile.socketFilter?.outerIds;
  return [
    '--unshare-user',
    ...(ids ? ['--uid', String(ids.uid), '--gid', String(ids.gid)] : []),
    '--unshare-pid',
    ...(profile.socketFilter ? ['--as-pid-1'] : []),
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--unshare-cgroup-try',
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    ...(opts.newSession ? ['--new-session'] : []),
    ...(opts.infoFd !== undefined ? ['--info-fd', String(opts.infoFd)] : []),
    ...ordered,
    '--clearenv',
    ...env,
    '--chdir',
    profile.cwd,
  ];
}

function isInside(p: string, dir: string): boolean {
  return p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function depth(p: string): number {
  return p === '/' ? 0 : p.split(sep).filter(Boolean).length;
}
