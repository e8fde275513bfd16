// Where the agent's shell is: a `cd` in one command carries over to the next, so the risk of a later
// command's relative paths depends on it. A TerminalPort wrapped here remembers the working directory
// each result reports (back to the start on reset), for the confirmation gate to judge paths from.
import type { TerminalPort, TerminalRunResult } from './ports';

export interface ShellCwd {
  /** The shell's working directory as last reported (the start folder until a command reports one). */
  readonly cwd: string;
}

export function trackShellCwd(port: TerminalPort, start: string): TerminalPort & ShellCwd {
  let cwd = start;
  const seen = (result: TerminalRunResult): TerminalRunResult => {
    if (result.cwd) cwd = result.cwd;
    return result;
  };
  return {
    get cwd() {
      return cwd;
    },
    get busy() {
      return port.busy;
    },
    run: async (command, opts) => seen(await port.run(command, opts)),
    sendInput: async (text, opts) => seen(await port.sendInput(text, opts)),
    interrupt: () => port.interrupt(),
    reset: async () => {
      await port.reset();
      cwd = start;
    },
    dispose: () => port.dispose(),
  };
}
