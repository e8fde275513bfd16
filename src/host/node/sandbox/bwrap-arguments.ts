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
// Mounts are ordered parent-first, so a workspace inside a hidden folder, or a protected file
// inside a workspace, lands on top of what contains it.
import { dirname, join, sep } from 'node:path';
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
  const bind = profile.readOnlyWorkspace ? '--ro-bind' : '--bind';
  for (const ws of profile.workspaces) {
    if (opts.kind(ws) !== 'dir') continue;
    mounts.push({ dest: ws, args: [bind, ws, ws] });
    if (profile.readOnlyWorkspace) continue;
    // .git bound onto itself is a mount point, which cannot be renamed away and replaced.
    if (opts.kind(join(ws, '.git')) === 'dir')
      mounts.push({ dest: join(ws, '.git'), args: ['--bind', join(ws, '.git'), join(ws, '.git')] });
  }
  for (const dir of profile.writable) {
    if (opts.kind(dir) === 'dir') mounts.push({ dest: dir, args: ['--bind', dir, dir] });
  }
  if (!profile.readOnlyWorkspace) {
    for (const ws of profile.workspaces) {
      for (const rel of profile.protectedInWorkspace) {
        const p = join(ws, rel);
        if (opts.kind(p)) mounts.push({ dest: p, args: ['--ro-bind', p, p] });
      }
    }
  }
  // Made read-only only after every mount: a mount point inside (a workspace in a hidden folder)
  // cannot be created in a tmpfs that is read-only already.
  const readOnlyLast: string[] = [];
  const hiddenDirs = profile.hidden.filter((p) => opts.kind(p) === 'dir');
  for (const p of profile.hidden) {
    // Inside a folder hidden whole already: nothing more to hide.
    if (hiddenDirs.some((d) => d !== p && isInside(p, d))) continue;
    const kind = opts.kind(p);
    if (kind === 'dir') {
      mounts.push({ dest: p, args: ['--tmpfs', p] });
      readOnlyLast.push('--remount-ro', p);
    } else if (kind === 'file') mounts.push({ dest: p, args: ['--ro-bind', '/dev/null', p] });
  }
  if (profile.proxySocket) {
    mounts.push({ dest: dirname(PROXY_SOCKET_INSIDE), args: ['--dir', dirname(PROXY_SOCKET_INSIDE)] });
    mounts.push({ dest: PROXY_SOCKET_INSIDE, args: ['--bind', profile.proxySocket, PROXY_SOCKET_INSIDE] });
  }
  const ordered = [
    ...mounts
      .map((m, i) => ({ ...m, i }))
      .sort((a, b) => depth(a.dest) - depth(b.dest) || a.i - b.i)
      .flatMap((m) => m.args),
    ...readOnlyLast,
  ];

  const env = Object.entries(profile.env).flatMap(([k, v]) => ['--setenv', k, v]);
  return [
    '--unshare-user',
    '--unshare-pid',
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
