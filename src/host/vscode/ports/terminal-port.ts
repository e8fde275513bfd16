// TerminalPort on a visible integrated terminal, one per conversation. At first use it waits for
// shell integration; if that never comes (disabled, unsupported shell) the terminal is replaced by
// a pseudoterminal fallback. Either way a call waits for the command to end or for its timeout,
// and the command keeps running after a timeout: `sendInput('')` collects what it prints next.
import * as vscode from 'vscode';
import { agentEnvironment, type AgentEnvironmentOptions } from '../../../core/secrets';
import type { TerminalPort, TerminalRunOptions, TerminalRunResult } from '../../../core/tools/ports';
import { PseudoterminalSession } from './pseudoterminal-session';
import { ShellIntegrationSession, waitForShellIntegration } from './shell-integration-session';
import {
  delay,
  type CommandExit,
  type RunningCommand,
  type ShellSession,
  type TerminalMode,
} from './terminal-session';
import { workspaceRoots } from './workspace-paths';

export type { TerminalMode } from './terminal-session';

export interface IntegratedTerminalPortOptions {
  /** Conversation title; the terminal is named `Logbook: <title>`. */
  title: string;
  /** Where the shell starts; default the first workspace folder. */
  cwd?: string;
  /** Extra environment for the shell (on top of the window's, without Logbook's secrets). */
  env?: Record<string, string>;
  /**
   * Asked when a shell starts: the variables of Logbook's own the user lets it see, and the secret
   * values it must not inherit. Either way OPENAI_API_KEY and LOGBOOK_* are left out by default.
   */
  environment?: () => Promise<AgentEnvironmentOptions>;
  /** How long to wait for shell integration before falling back (default 4000 ms). */
  shellIntegrationTimeoutMs?: number;
}

interface CurrentCommand {
  command: RunningCommand;
  exit?: CommandExit;
  ended: Promise<void>;
  /** The end (exit code and last output) was returned to the caller. */
  reported: boolean;
}

export class IntegratedTerminalPort implements TerminalPort {
  private session?: ShellSession;
  private starting?: Promise<ShellSession>;
  private current?: CurrentCommand;
  private disposed = false;
  /** A run is waiting for its terminal; a second run must not start meanwhile. */
  private launching = false;

  constructor(private readonly options: IntegratedTerminalPortOptions) {}

  /** How commands run, decided at first use; undefined before. */
  get mode(): TerminalMode | undefined {
    return this.session?.mode;
  }

  /** The VS Code terminal, once created. */
  get terminal(): vscode.Terminal | undefined {
    return (this.session as { terminal?: vscode.Terminal } | undefined)?.terminal;
  }

  /** Stays true after the command ended until a call returned its end, so late output is not lost. */
  get busy(): boolean {
    return this.current !== undefined && !this.current.reported;
  }

  async run(command: string, opts: TerminalRunOptions): Promise<TerminalRunResult> {
    opts.signal?.throwIfAborted();
    if (this.busy || this.launching) {
      throw new Error(
        'The previous command is still running, or its end has not been read yet: read it with ' +
          "sendInput(''), send it input or interrupt it first.",
      );
    }
    let running: RunningCommand;
    this.launching = true;
    try {
      running = (await this.ensureSession()).start(command);
    } finally {
      this.launching = false;
    }
    const current: CurrentCommand = {
      command: running,
      ended: running.exit.then((exit) => {
        current.exit = exit;
      }),
      reported: false,
    };
    this.current = current;
    return this.collect(current, opts);
  }

  async sendInput(text: string, opts: TerminalRunOptions): Promise<TerminalRunResult> {
    const current = this.current;
    if (!current) throw new Error('No command has been run in this terminal yet.');
    if (text) {
      if (current.exit) throw new Error('The last command has already exited; run a new command instead.');
      this.session?.write(text);
    }
    return this.collect(current, opts);
  }

  async interrupt(): Promise<void> {
    this.session?.interrupt();
  }

  async reset(): Promise<void> {
    this.closeSession();
  }

  dispose(): void {
    this.disposed = true;
    this.closeSession();
  }

  /** Waits for the end of the command, the timeout or the abort, whichever is first. */
  private async collect(current: CurrentCommand, opts: TerminalRunOptions): Promise<TerminalRunResult> {
    const stopWaiting = new AbortController();
    const onAbort = () => stopWaiting.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    await Promise.race([current.ended, delay(opts.timeoutMs, stopWaiting.signal)]);
    stopWaiting.abort();
    opts.signal?.removeEventListener('abort', onAbort);
    const exit = current.exit;
    const output = current.command.output.take(exit !== undefined);
    if (exit) {
      current.reported = true;
      return { output, exitCode: exit.exitCode, timedOut: false, ...(exit.cwd ? { cwd: exit.cwd } : {}) };
    }
    return { output, exitCode: null, timedOut: !opts.signal?.aborted };
  }

  private ensureSession(): Promise<ShellSession> {
    if (this.disposed) return Promise.reject(new Error('The terminal port was disposed'));
    if (this.session?.alive) return Promise.resolve(this.session);
    this.closeSession();
    this.starting ??= this.openSession().then(
      (session) => {
        this.starting = undefined;
        if (this.disposed) {
          session.dispose();
          throw new Error('The terminal port was disposed');
        }
        this.session = session;
        return session;
      },
      (err: unknown) => {
        this.starting = undefined;
        throw err;
      },
    );
    return this.starting;
  }

  private async openSession(): Promise<ShellSession> {
    const name = `Logbook: ${this.options.title}`;
    const cwd = this.options.cwd ?? workspaceRoots()[0] ?? process.cwd();
    const enabled = vscode.workspace
      .getConfiguration('terminal.integrated')
      .get<boolean>('shellIntegration.enabled', true);
    const envOptions = (await this.options.environment?.()) ?? {};
    const inherited = agentEnvironment(process.env, envOptions);
    if (enabled) {
      const terminal = vscode.window.createTerminal({
        name,
        cwd,
        env: { ...withoutSecrets(inherited.removed, envOptions.pass ?? []), ...this.options.env },
      });
      terminal.show(true);
      const integration = await waitForShellIntegration(
        terminal,
        this.options.shellIntegrationTimeoutMs ?? 4000,
      );
      if (integration) return new ShellIntegrationSession(terminal);
      terminal.dispose();
    }
    const session = new PseudoterminalSession({
      name,
      cwd,
      inherited: inherited.env,
      ...(this.options.env ? { env: this.options.env } : {}),
    });
    session.terminal.show(true);
    return session;
  }

  private closeSession(): void {
    this.session?.dispose();
    this.session = undefined;
    this.current = undefined;
  }
}

/**
 * The `env` of a VS Code terminal that deletes these variables (a null value deletes one from the
 * environment the window starts terminals with). The terminal's environment is the window's, not
 * this process's, so the key is deleted even when this process does not have it.
 */
function withoutSecrets(removed: readonly string[], pass: readonly string[]): Record<string, null> {
  const names = new Set([...removed, 'OPENAI_API_KEY']);
  for (const name of pass) names.delete(name);
  return Object.fromEntries([...names].map((n) => [n, null]));
}
