/**
 * A seccomp program (classic BPF, as bwrap's `--seccomp FD` reads it) that keeps a
 * sandboxed command from reaching Unix sockets outside the sandbox: the network
 * namespace does not cover path sockets, and a read-only mount does not stop
 * `connect()`. `socket(AF_UNIX, …)` fails with EPERM; `socketpair` stays allowed,
 * since it reaches nothing. `io_uring_setup` fails with ENOSYS (io_uring can open
 * sockets without the socket syscall). Any other architecture, and x32 numbers on
 * x86_64, fail with EPERM so that no second syscall table goes around the check (32-bit x86
 * programs do not run in the sandbox).
 *
 * Applied to every sandboxed command (terminal, integrated terminal, MCP servers) by a nested
 * bwrap, after the network bridge, which must itself open a Unix socket to the proxy, has started
 * (network-bridge.ts). Other ways were weighed: the filter on the outer bwrap, with the bridge
 * handed its connections by the host over an inherited socket, needs the host as the sandbox's
 * parent, which the integrated terminal's shell is not (VS Code starts it from a script), and a Node
 * bridge that receives descriptors (tens of milliseconds per shell); the nested bwrap costs a few
 * milliseconds per shell, not per command, and works wherever the outer one does.
 */

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const SOCKET_X86_64 = 41;
const SOCKET_AARCH64 = 198;
const IO_URING_SETUP = 425;
const AF_UNIX = 1;

// seccomp_data offsets: nr (u32) at 0, arch (u32) at 4, args[0] low word at 16.
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The program; jump offsets count from the next instruction. */
const PROGRAM: readonly Instruction[] = [
  /* 0 */ [LD_W_ABS, 0, 0, OFFSET_ARCH],
  /* 1 */ [JEQ_K, 0, 4, AUDIT_ARCH_X86_64], // else → 6
  /* 2 */ [LD_W_ABS, 0, 0, OFFSET_NR],
  /* 3 */ [JGE_K, 9, 0, X32_SYSCALL_BIT], // x32 → 13 (deny)
  /* 4 */ [JEQ_K, 5, 0, SOCKET_X86_64], // → 10
  /* 5 */ [JEQ_K, 8, 6, IO_URING_SETUP], // → 14, else → 12
  /* 6 */ [JEQ_K, 0, 6, AUDIT_ARCH_AARCH64], // foreign arch → 13
  /* 7 */ [LD_W_ABS, 0, 0, OFFSET_NR],
  /* 8 */ [JEQ_K, 1, 0, SOCKET_AARCH64], // → 10
  /* 9 */ [JEQ_K, 4, 2, IO_URING_SETUP], // → 14, else → 12
  /* 10 */ [LD_W_ABS, 0, 0, OFFSET_ARG0_LOW],
  /* 11 */ [JEQ_K, 1, 0, AF_UNIX], // → 13, else → 12
  /* 12 */ [RET_K, 0, 0, RET_ALLOW],
  /* 13 */ [RET_K, 0, 0, RET_ERRNO | EPERM],
  /* 14 */ [RET_K, 0, 0, RET_ERRNO | ENOSYS],
];

/** The program as raw `struct sock_filter` entries (8 bytes each, little-endian). */
export function unixSocketFilter(): Buffer {
  const out = Buffer.alloc(PROGRAM.length * 8);
  PROGRAM.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The descriptor the inner bwrap reads the program from (see `filteredCommand`). */
export const SOCKET_FILTER_FD = 9;

/** Whether the program knows this machine's syscall table; elsewhere no filter is applied, and the status says so. */
export function socketFilterSupported(arch: string = process.arch): boolean {
  return arch === 'x64' || arch === 'arm64';
}

/** Why no filter is applied: no program for this architecture, or the nested bwrap failed (what it said). */
export type SocketFilterMissing = { arch: string } | { nested: string };

/** The ids a command sees: the host user's own. */
export interface CommandIds {
  uid: number;
  gid: number;
}

/**
 * The ids the outer sandbox maps the host user to: its own, but root becomes a stand-in (any
 * nonzero id: only the network bridge and the nested bwrap run as it).
 */
export function outerIds(host: CommandIds): CommandIds {
  return { uid: host.uid === 0 ? 1 : host.uid, gid: host.gid === 0 ? 1 : host.gid };
}

/** This process's ids (0 where the platform has none: the sandbox is Linux-only). */
export function hostIds(): CommandIds {
  return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}

/**
 * `argv` run under a second, nested bwrap that loads the program and maps the sandbox's user back
 * to the host user's ids (see bwrap-arguments.ts for why the outer one maps root elsewhere). It
 * shares every mount (`--dev-bind / /` keeps the outer read-only mounts read-only: they are locked
 * in a child namespace) and drops every capability again. It must be exec'd with the program on
 * `SOCKET_FILTER_FD` (`filterRedirect()`), and as the sandbox's process 1: the nested bwrap waits
 * for the command, and process 1 of a PID namespace ignores a Ctrl+C sent to its process group.
 */
export function filteredCommand(bwrap: string, ids: CommandIds, argv: readonly string[]): string[] {
  return [
    bwrap,
    '--unshare-user',
    '--uid',
    String(ids.uid),
    '--gid',
    String(ids.gid),
    '--cap-drop',
    'ALL',
    '--dev-bind',
    '/',
    '/',
    '--seccomp',
    String(SOCKET_FILTER_FD),
    '--',
    ...argv,
  ];
}

/** A bash redirection that puts the program on `SOCKET_FILTER_FD` (no file to write or remove). */
export function filterRedirect(): string {
  const escaped = [...unixSocketFilter()].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  return `${SOCKET_FILTER_FD}< <(printf '${escaped}')`;
}

/** `argv` as every launch runs it after the bridge: a bash that loads the program, then the nested bwrap. */
export function filteredLaunch(bwrap: string, ids: CommandIds, argv: readonly string[]): string[] {
  return [
    '/bin/bash',
    '--norc',
    '--noprofile',
    '-c',
    `exec "$@" ${filterRedirect()}`,
    '_',
    ...filteredCommand(bwrap, ids, argv),
  ];
}
