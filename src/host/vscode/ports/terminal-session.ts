// What IntegratedTerminalPort needs from a terminal, whichever way it runs commands: through VS
// Code's shell integration, or through a pseudoterminal driving its own shell process.
import type * as vscode from 'vscode';
import type { OutputBuffer } from './output-buffer';

export type TerminalMode = 'shell-integration' | 'pseudoterminal';

export interface CommandExit {
  /** null when the shell did not report one. */
  exitCode: number | null;
  cwd?: string;
  /** Exported variables the command set, changed or removed (names), when the shell tracks them. */
  carried?: string[];
}

export interface RunningCommand {
  readonly output: OutputBuffer;
  /** Settles once the command ended and its output has arrived (or the terminal went away). */
  readonly exit: Promise<CommandExit>;
}

export interface ShellSession extends vscode.Disposable {
  readonly mode: TerminalMode;
  /** False once the terminal was closed (by the user or by `exit`); a new session is needed. */
  readonly alive: boolean;
  start(command: string): RunningCommand;
  /** Text for the running command's input, sent as is. */
  write(text: string): void;
  interrupt(): void;
}

/** Resolves after `ms`, early when `signal` aborts; never rejects. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
