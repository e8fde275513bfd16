// A conversation's sandboxed shell in one workspace, as the real CLI and editor give each
// conversation: bubblewrap required, no network, HOME the test's own.
import { NodeTerminalPort } from '../../src/host/node/ports/node-terminal-port';
import { CommandSandbox } from '../../src/host/node/sandbox';

export function sandboxedShell(ws: string, home: string) {
  const sandbox = new CommandSandbox({
    setting: 'required',
    allowedHosts: () => [],
    hostEnv: { PATH: process.env['PATH'], HOME: home, LANG: 'C.UTF-8' },
  });
  const port = new NodeTerminalPort({
    cwd: ws,
    env: { HOME: home },
    sandbox: { sandbox, workspaces: [ws], readOnly: () => false },
  });
  return {
    sandbox,
    run: (command: string) => port.run(command, { timeoutMs: 20_000 }),
    dispose: async () => {
      port.dispose();
      await sandbox.dispose();
    },
  };
}
