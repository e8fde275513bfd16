// Commands run in a regular integrated terminal through VS Code's shell-integration API: the
// user sees them typed in the terminal's bash, the output comes from `execution.read()` and the
// exit code from `onDidEndTerminalShellExecution`. Each is typed as `__logbook_run '<command>'`:
// a function the shell got through its environment (freshRunEnvironment) that runs the command in
// a fresh child bash, so no trap, alias, function or option of one command is there in the next;
// only the working folder and exported variables carry. The function then prints an invisible
// mark (an OSC sequence the terminal ignores) naming what carried and where the shell is.
import * as vscode from 'vscode';
import type { CarryStateFile } from '../../node/ports/shell-fresh-run';
import { freshRunLine, lastEndMark } from './fresh-run-line';
import { OutputBuffer } from './output-buffer';
import { delay, type CommandExit, type RunningCommand, type ShellSession } from './terminal-session';

/** After the end event the read stream may still deliver its last chunks. */
const STREAM_DRAIN_MS = 1000;
/** Raw output kept from a command's end, where its end mark is. */
const TAIL_CHARS = 8192;
/** A shell running commands itself reports its new directory just after the command's end mark. */
const CWD_REPORT_MS = 250;

/** The terminal's shell integration, or undefined if it does not activate within `timeoutMs`. */
export function waitForShellIntegration(
  terminal: vscode.Terminal,
  timeoutMs: number,
): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const finish = (value: vscode.TerminalShellIntegration | undefined) => {
      clearTimeout(timer);
      activated.dispose();
      closed.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => finish(terminal.shellIntegration), timeoutMs);
    const activated = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === terminal) finish(e.shellIntegration);
    });
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) finish(undefined);
    });
  });
}

export class ShellIntegrationSession implements ShellSession {
  readonly mode = 'shell-integration';
  private closed = false;
  private readonly onClose = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];

  /**
   * `state`: where the shell's children leave their state (see freshRunTerminalEnvironment);
   * without one (no bash) commands run as typed, in the shell itself.
   */
  constructor(
    readonly terminal: vscode.Terminal,
    private readonly state?: CarryStateFile,
  ) {
    this.subscriptions = [
      this.onClose,
      vscode.window.onDidCloseTerminal((t) => {
        if (t !== terminal) return;
        this.closed = true;
        this.onClose.fire();
      }),
    ];
  }

  get alive(): boolean {
    return !this.closed && this.terminal.shellIntegration !== undefined;
  }

  start(command: string): RunningCommand {
    const integration = this.terminal.shellIntegration;
    if (!integration || this.closed) throw new Error('The terminal is no longer available');
    const line = this.state ? freshRunLine(command) : command;
    const output = new OutputBuffer(line.includes('\n') ? undefined : line);
    const execution = integration.executeCommand(line);
    // read() only yields data written after its first call: call it before anything else.
    const stream = execution.read();
    let tail = '';
    const drained = (async () => {
      try {
        for await (const data of stream) {
          output.append(data);
          tail = (tail + data).slice(-TAIL_CHARS);
        }
      } catch {
        // A closed terminal ends the stream; what was read is kept.
      }
    })();
    const exit = this.waitForEnd(execution).then(async (exitCode): Promise<CommandExit> => {
      await Promise.race([drained, delay(STREAM_DRAIN_MS)]);
      const mark = this.state ? lastEndMark(tail) : undefined;
      if (mark) return { exitCode, cwd: mark.cwd, carried: mark.carried };
      // No mark: the command was stopped (Ctrl+C abandons the function) and nothing carried, or it
      // ran in the shell itself, which reports its new folder just after the command's end.
      if (!this.state && /\b(cd|pushd|popd)\b/.test(command)) await this.cwdReport();
      const cwd = this.terminal.shellIntegration?.cwd;
      return { exitCode, ...(cwd ? { cwd: cwd.fsPath } : {}) };
    });
    return { output, exit };
  }

  write(text: string): void {
    this.terminal.sendText(text, false);
  }

  interrupt(): void {
    this.terminal.sendText('\x03', false);
  }

  dispose(): void {
    this.terminal.dispose();
    this.state?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private waitForEnd(execution: vscode.TerminalShellExecution): Promise<number | null> {
    return new Promise((resolve) => {
      const finish = (code: number | null) => {
        ended.dispose();
        closed.dispose();
        resolve(code);
      };
      const ended = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution === execution) finish(e.exitCode ?? null);
      });
      const closed = this.onClose.event(() => finish(this.terminal.exitStatus?.code ?? null));
    });
  }

  private cwdReport(): Promise<void> {
    return new Promise((resolve) => {
      const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
        if (e.terminal === this.terminal) done();
      });
      const timer = setTimeout(done, CWD_REPORT_MS);
      function done() {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  }
}
