// Where the agent's shell is: a `cd` in one command carries over to the next, so the risk of a later
// command's relative paths depends on it. A TerminalPort wrapped here remembers the working directory
// each result reports (back to the start on reset), for the confirmation gate to judge paths from.
import type { TerminalPort, TerminalRunResult } from './ports';

export interface ShellCwd {
  /** The shell's working directory as last reported (the start folder until a command reports one). */
  readonly cwd: string;
}

/** `start`: where the shell starts (asked again after a reset, as the conversation may say where). */
export function trackShellCwd(port: TerminalPort, start: string | (() => string)): TerminalPort & ShellCwd {
  const startDir = typeof start === 'string' ? () => start : start;
  let reported: string | undefined;
  const seen = (result: TerminalRunResult): TerminalRunResult => {
    if (result.cwd) reported = result.cwd;
    return result;
  };
  return {
    get cwd() {
      return reported ?? startDir();
    },
    get busy() {
      return port.busy;
    },
    run: async (command, opts) => seen(await port.run(command, opts)),
    sendInput: async (text, opts) => seen(await port.sendInput(text, opts)),
    interrupt: () => port.interrupt(),
    reset: async () => {
      await port.reset();
      reported = undefined;
    },
    dispose: () => port.dispose(),
  };
}
