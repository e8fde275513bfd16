// Inside the sandbox only loopback exists. A tiny Node program started there listens on a
// loopback port and passes each connection to the proxy's socket mounted from the host, so that
// programs honouring HTTP(S)_PROXY reach allowed hosts. It ignores Ctrl+C: an interrupted command
// must not take the way out down with it.

/** The loopback port the bridge listens on inside the sandbox (its network is private). */
export const BRIDGE_PORT = 3128;

const BRIDGE_PROGRAM = [
  "const net = require('net');",
  "process.on('SIGINT', () => {});",
  'const [sock, port] = process.argv.slice(1);',
  'net.createServer((c) => {',
  '  const u = net.connect(sock);',
  "  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());",
  '  c.pipe(u).pipe(c);',
  "}).listen(Number(port), '127.0.0.1');",
].join('\n');

/**
 * The command line that starts the bridge in the background and then becomes `argv`: the shell
 * execs, so `argv` keeps its process (and its signals) and the bridge ends with the sandbox.
 */
export function withBridge(node: string, socketInside: string, argv: readonly string[]): string[] {
  const script =
    'ELECTRON_RUN_AS_NODE=1 "$1" -e "$2" "$3" "$4" </dev/null >/dev/null 2>&1 & shift 4; exec "$@"';
  return ['/bin/sh', '-c', script, 'sh', node, BRIDGE_PROGRAM, socketInside, String(BRIDGE_PORT), ...argv];
}
