// An external agent's terminals. Its command is an action of Logbook's terminal tool; once the
// shell starts it, terminal/create answers, and terminal/output gives what it has printed so far.
// The action's recorded result (its output and exit code) is what the terminal ends with.
import { RequestError, type TerminalExitStatus, type TerminalOutputResponse } from '@agentclientprotocol/sdk';
import { stripTerminalControls } from '../../../core/tools/terminal-text';
import type { Stop } from './agent-stops';
import { type EndedTerminal, keepLastBytes } from './client-terminal';

type TerminalStop = Extract<Stop, { kind: 'terminal' }>;

/** What the session lends: the shell's commands as they print, and its Ctrl+C. */
export interface AgentShell {
  watch(watcher: { started(): void; output(soFar: string): void }): () => void;
  interrupt(): Promise<void>;
}

interface AgentTerminal {
  outputByteLimit: number | null;
  live: string;
  ended?: EndedTerminal;
  exited: Promise<TerminalExitStatus>;
  exit: (status: TerminalExitStatus) => void;
}

export class AgentTerminals {
  private readonly terminals = new Map<string, AgentTerminal>();
  /** The terminal whose command the shell runs now. */
  private running: string | undefined;
  private shell: AgentShell | undefined;

  /** Commands are followed while they run once the session lends its shell. */
  /** `asked`: the command Logbook's terminal action runs for the agent now, if it is one. */
  follow(shell: AgentShell, asked: () => TerminalStop | undefined): void {
    this.shell = shell;
    shell.watch({
      started: () => {
        const t = asked();
        if (!t || this.terminals.has(t.callId)) return;
        this.open(t.callId, t.outputByteLimit ?? null);
        t.started?.();
      },
      output: (soFar) => {
        const t = this.running ? this.terminals.get(this.running) : undefined;
        if (t && !t.ended) t.live = soFar;
      },
    });
  }

  isOpen(id: string): boolean {
    return this.terminals.has(id);
  }

  /** The recorded result: the terminal's final output and exit status. */
  end(id: string, ended: EndedTerminal): void {
    if (!this.terminals.has(id)) this.open(id, null);
    const t = this.terminals.get(id)!;
    t.ended = ended;
    t.exit(ended.exitStatus);
    if (this.running === id) this.running = undefined;
  }

  /** A command that started but has no exit code recorded (the run was stopped): what it printed. */
  abandon(id: string): void {
    const t = this.get(id);
    this.end(id, {
      output: stripTerminalControls(t.live),
      truncated: false,
      exitStatus: { exitCode: null, signal: null },
    });
  }

  output(id: string): TerminalOutputResponse {
    const t = this.get(id);
    if (t.ended)
      return { output: t.ended.output, truncated: t.ended.truncated, exitStatus: t.ended.exitStatus };
    const kept = keepLastBytes(stripTerminalControls(t.live), t.outputByteLimit);
    return { output: kept.text, truncated: kept.cut, exitStatus: null };
  }

  waitForExit(id: string): Promise<TerminalExitStatus> {
    return this.get(id).exited;
  }

  /** Ctrl+C to the command while it runs; its action records how it ended. */
  async kill(id: string): Promise<void> {
    if (!this.get(id).ended && this.running === id) await this.shell?.interrupt();
  }

  async release(id: string): Promise<void> {
    await this.kill(id);
    this.terminals.delete(id);
  }

  private open(id: string, outputByteLimit: number | null): void {
    let exit: (status: TerminalExitStatus) => void = () => undefined;
    const exited = new Promise<TerminalExitStatus>((resolve) => (exit = resolve));
    this.terminals.set(id, { outputByteLimit, live: '', exited, exit });
    this.running = id;
  }

  private get(id: string): AgentTerminal {
    const t = this.terminals.get(id);
    if (!t) throw RequestError.invalidParams({ terminalId: id }, 'No such terminal (or it was released).');
    return t;
  }
}
