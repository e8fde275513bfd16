// The last command each terminal ran and its output, as shell integration reports them: read while
// the command runs (VS Code gives the output only to a reader that started with it), capped, and
// kept per terminal until the next command there or the terminal closes.
import * as vscode from 'vscode';
import { commandOfLine } from '../ports/fresh-run-line';
import { stripAnsi } from '../ports/strip-ansi';

/** Characters kept of one command's output: its end (where errors are) when longer. */
export const MAX_KEPT_OUTPUT = 200_000;

export interface TerminalCommand {
  terminal: string;
  command: string;
  output: string;
  /** Characters dropped from the start of the output. */
  dropped: number;
  /** Exit code; undefined while it runs or when the shell did not report one. */
  exitCode: number | undefined;
  running: boolean;
  endedAt: number;
}

export class TerminalHistory implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, TerminalCommand & { raw: string }>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    // Absent from hosts whose VS Code has no shell integration API: then nothing is recorded.
    const w = vscode.window as Partial<typeof vscode.window>;
    if (w.onDidStartTerminalShellExecution)
      this.disposables.push(w.onDidStartTerminalShellExecution((e) => void this.record(e)));
    if (w.onDidEndTerminalShellExecution)
      this.disposables.push(
        w.onDidEndTerminalShellExecution((e) => {
          const entry = this.last.get(e.terminal);
          if (entry && entry.command === commandOfLine(e.execution.commandLine.value)) {
            entry.exitCode = e.exitCode;
            entry.running = false;
            entry.endedAt = Date.now();
          }
        }),
      );
    this.disposables.push(vscode.window.onDidCloseTerminal((t) => this.last.delete(t)));
  }

  /**
   * The command to attach: the active terminal's last one when it has one, else the one that ended
   * last in any terminal.
   */
  latest(): TerminalCommand | undefined {
    const active = vscode.window.activeTerminal;
    let best = active && this.last.get(active);
    if (!best) for (const c of this.last.values()) if (!best || c.endedAt > best.endedAt) best = c;
    if (!best) return undefined;
    const { raw, ...command } = best;
    // Escape sequences are removed once, here, not on every chunk of a long output.
    let output = stripAnsi(raw);
    let dropped = command.dropped;
    if (output.length > MAX_KEPT_OUTPUT) {
      dropped += output.length - MAX_KEPT_OUTPUT;
      output = output.slice(-MAX_KEPT_OUTPUT);
    }
    return { ...command, output, dropped };
  }

  private async record(e: vscode.TerminalShellExecutionStartEvent): Promise<void> {
    const entry: TerminalCommand & { raw: string } = {
      raw: '',
      terminal: e.terminal.name,
      // The agent's terminal types its commands wrapped (fresh-run-line.ts): attach the command.
      command: commandOfLine(e.execution.commandLine.value),
      output: '',
      dropped: 0,
      exitCode: undefined,
      running: true,
      endedAt: Date.now(),
    };
    this.last.set(e.terminal, entry);
    try {
      for await (const chunk of e.execution.read()) {
        entry.raw += chunk;
        if (entry.raw.length > MAX_KEPT_OUTPUT * 2) {
          entry.dropped += entry.raw.length - MAX_KEPT_OUTPUT;
          entry.raw = entry.raw.slice(-MAX_KEPT_OUTPUT);
        }
      }
    } catch {
      // The terminal went away mid-read: what was read stays.
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.last.clear();
  }
}
