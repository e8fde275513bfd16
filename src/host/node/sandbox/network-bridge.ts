// Inside the sandbox only loopback exists. A bridge started there listens on a loopback port and
// passes each connection to the proxy's socket mounted from the host, so that programs honouring
// HTTP(S)_PROXY reach allowed hosts. socat when the machine has it (it starts in a millisecond or
// two), else a few lines of Node (tens of milliseconds, more on a loaded machine). The bridge runs
// in a session of its own, so Ctrl+C to the command does not take the way out down with it, and
// the command starts once the bridge listens, so its first connection cannot find nothing there.
// The bridge itself must open a Unix socket (to the proxy) for each connection; the command may
// not (unix-socket-filter.ts): so the bridge starts first, outside the filter, and the command
// then runs under the nested bwrap that applies it.
import { filteredCommand, filterRedirect, type CommandIds } from './unix-socket-filter';

/** The loopback port the bridge listens on inside the sandbox (its network is private). */
export const BRIDGE_PORT = 3128;

const NODE_BRIDGE = [
  "const net = require('net');",
  'const [sock, port] = process.argv.slice(1);',
  'net.createServer((c) => {',
  '  const u = net.connect(sock);',
  "  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());",
  '  c.pipe(u).pipe(c);',
  "}).listen(Number(port), '127.0.0.1');",
].join('\n');

export interface BridgeProgram {
  /** socat's path, when the machine has it. */
  socat?: string;
  /** Node (or Electron, run as Node) otherwise. */
  node: string;
}

/** The nested bwrap that applies the Unix socket filter to the command, and the ids it maps back to. */
export interface CommandFilter {
  bwrap: string;
  ids: CommandIds;
}

/**
 * The command line that starts the bridge, waits (at most two seconds) until it listens, then
 * becomes `argv` (exec: `argv` keeps the process and its signals; the bridge ends with the sandbox),
 * under `filter` when given.
 */
export function withBridge(
  program: BridgeProgram,
  socketInside: string,
  argv: readonly string[],
  filter?: CommandFilter,
): string[] {
  const bridge = program.socat
    ? [
        program.socat,
        `TCP-LISTEN:${BRIDGE_PORT},bind=127.0.0.1,fork,reuseaddr`,
        `UNIX-CONNECT:${socketInside}`,
      ]
    : ['env', 'ELECTRON_RUN_AS_NODE=1', program.node, '-e', NODE_BRIDGE, socketInside, String(BRIDGE_PORT)];
  const script = [
    `n=${bridge.length}`,
    'setsid "${@:1:n}" </dev/null >/dev/null 2>&1 &',
    'shift "$n"',
    'for _ in $(seq 400); do (: <"/dev/tcp/127.0.0.1/$0") 2>/dev/null && break; sleep 0.005; done',
    filter ? `exec "$@" ${filterRedirect()}` : 'exec "$@"',
  ].join('\n');
  const command = filter ? filteredCommand(filter.bwrap, filter.ids, argv) : argv;
  // --norc: bash reads ~/.bashrc when its stdin is a socket (it takes that for rshd), and Node's
  // pipes are sockets: a user's bashrc would add its variables and its startup time here.
  return ['/bin/bash', '--norc', '--noprofile', '-c', script, String(BRIDGE_PORT), ...bridge, ...command];
}
