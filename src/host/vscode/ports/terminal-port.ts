// TerminalPort on a visible integrated terminal, one per conversation. At first use it waits for
// shell integration; if that never comes (disabled, unsupported shell) the terminal is replaced by
// a pseudoterminal fallback. Either way a call waits for the command to end or for its timeout,
// and the command keeps running after a timeout: `sendInput('')` collects what it prints next.
// With a sandbox, the shell itself starts inside it (either way), and a change of the
// conversation's mode starts a new shell: its mounts (plan mode: a read-only workspace) are fixed.
// Either way the shell is bash, and each command runs in a fresh child of it (shell-fresh-run.ts):
// only the working folder and exported variables carry, and the result names what did.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { agentEnvironment, type AgentEnvironmentOptions } from '../../../core/secrets';
import type { TerminalPort, TerminalRunOptions, TerminalRunResult } from '../../../core/tools/ports';
import { blockedHostsText, type CommandSandbox } from '../../node/sandbox';
import { carryStateFile } from '../../node/ports/shell-fresh-run';
import { LAUNCHER_INNER_ARGV, writeShellLauncher, type ShellLauncher } from '../sandbox/sandboxed-shell';
import { NON_TTY_ENV, PseudoterminalSession, pseudoterminalShell } from './pseudoterminal-session';
import { freshRunTerminalEnvironment } from './fresh-run-line';
import { ShellIntegrationSession, waitForShellIntegration } from './shell-integration-session';
import {
  delay,
  type CommandExit,
  type RunningCommand,
  type ShellSession,
  type TerminalMode,
} from './terminal-session';
import { workspaceRoots } from './workspace-paths';
import { LLM_VARIABLES } from '../../../core/llm/environment-names';
import { vscodeSetting } from '../settings/config';

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
  /** Runs the shell inside the conversation's sandbox (when one can start; see CommandSandbox). */
  sandbox?: TerminalSandbox;
}

export interface TerminalSandbox {
  sandbox: CommandSandbox;
  /** Workspace folders: writable in act mode. */
  workspaces: () => readonly string[];
  /** Plan mode: the workspace is read-only too; a change of mode starts a new shell. */
  readOnly: () => boolean;
  /** A private folder for the scripts that start a terminal's shell in the sandbox. */
  launcherDir: string;
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
  /** Whether the session's workspace is read-only (plan mode), when its shell is sandboxed. */
  private sessionReadOnly: boolean | undefined;
  /** Where the last command left the shell: a new shell for a new mode starts there. */
  private lastCwd: string | undefined;
  private launcher: ShellLauncher | undefined;

  constructor(private readonly options: IntegratedTerminalPortOptions) {}

  /** How the last command ran when its terminal is closed (a run's end closes the tab). */
  private lastMode: TerminalMode | undefined;

  /** How commands run, decided at first use (kept after the terminal closed); undefined before. */
  get mode(): TerminalMode | undefined {
    return this.session?.mode ?? this.lastMode;
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
    // Mounts are fixed when the sandbox starts: a new mode needs a new shell (in the same folder).
    if (this.sessionReadOnly !== undefined && this.sessionReadOnly !== this.options.sandbox?.readOnly())
      this.closeSession();
    let running: RunningCommand;
    this.launching = true;
    try {
      let session = await this.ensureSession();
      // A file that got other hard links since the shell started is held by a new shell's mounts.
      if (this.options.sandbox?.sandbox.beforeCommand()) {
        this.closeSession();
        session = await this.ensureSession();
      }
      running = session.start(command);
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
    this.lastCwd = undefined;
  }

  /**
   * Closes the terminal tab while keeping where its shell was: the next command opens a new tab
   * there. Called when the conversation's run ends, so tabs do not pile up, one per conversation.
   */
  closeTab(): void {
    if (this.current && this.current.exit === undefined) return; // a command still runs in it
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
    let output = current.command.output.take(exit !== undefined) + this.blockedHostsNote();
    if (exit) {
      output += this.heldFilesNote();
      current.reported = true;
      if (exit.cwd) this.lastCwd = exit.cwd;
      return {
        output,
        exitCode: exit.exitCode,
        timedOut: false,
        ...(exit.cwd ? { cwd: exit.cwd } : {}),
        ...(exit.carried ? { carried: exit.carried } : {}),
      };
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
    const cwd = this.lastCwd ?? this.options.cwd ?? workspaceRoots()[0] ?? process.cwd();
    const enabled = vscodeSetting<boolean>('terminal.integrated.shellIntegration.enabled') ?? true;
    const envOptions = (await this.options.environment?.()) ?? {};
    const inherited = agentEnvironment(process.env, envOptions);
    const box = this.options.sandbox;
    const readOnly = box?.readOnly() ?? false;
    const launch = (argv: readonly string[], env: Record<string, string>, newSession: boolean) =>
      box!.sandbox.launch({
        argv,
        workspaces: box!.workspaces(),
        readOnly,
        cwd,
        pass: envOptions.pass ?? [],
        extraEnv: env,
        newSession,
        ...(newSession ? { infoFd: 3 } : {}),
      });
    // Commands run fresh only from a bash (the functions come through its environment); where
    // there is none (Windows, say) they run as typed in the user's own shell.
    const bash = pseudoterminalShell()[0]!;
    const fresh = /bash$/.test(bash);
    if (enabled) {
      // The terminal's shell keeps its controlling terminal (no new session): job control and
      // Ctrl+C work as in any terminal. Inside the sandbox its children's state is in its own /tmp.
      const boxState = fresh ? carryStateFile(true) : undefined;
      const sandboxed = box
        ? await launch(
            LAUNCHER_INNER_ARGV,
            { ...this.options.env, ...(boxState ? freshRunTerminalEnvironment(boxState) : {}) },
            false,
          )
        : undefined;
      this.launcher?.dispose();
      this.launcher = sandboxed?.sandboxed ? writeShellLauncher(box!.launcherDir, sandboxed) : undefined;
      const state = !fresh ? undefined : this.launcher ? boxState : carryStateFile(false);
      const terminal = vscode.window.createTerminal({
        name,
        cwd,
        env: {
          ...withoutSecrets(inherited.removed, envOptions.pass ?? []),
          ...this.options.env,
          ...(state && !this.launcher ? freshRunTerminalEnvironment(state) : {}),
        },
        // Not revived after a reload: its launcher ran once, and the conversation starts a new one.
        ...(this.launcher
          ? { shellPath: this.launcher.path, isTransient: true }
          : // The user's shell when it is bash; else bash, with the user's environment.
            !fresh || basename(vscode.env.shell) === 'bash'
            ? {}
            : { shellPath: bash }),
      });
      terminal.show(true);
      const integration = await waitForShellIntegration(
        terminal,
        this.options.shellIntegrationTimeoutMs ?? 4000,
      );
      if (integration) {
        this.sessionReadOnly = this.launcher ? readOnly : undefined;
        return new ShellIntegrationSession(terminal, state);
      }
      state?.dispose();
      terminal.dispose();
    }
    const argv = pseudoterminalShell();
    const env = { ...NON_TTY_ENV, ...this.options.env };
    // Its own session inside: Ctrl+C goes to the shell's group, never to bwrap.
    const sandboxed = box ? await launch(argv, env, true) : undefined;
    const session = new PseudoterminalSession({
      name,
      cwd,
      inherited: inherited.env,
      ...(this.options.env ? { env: this.options.env } : {}),
      ...(sandboxed?.sandboxed ? { sandboxed } : {}),
    });
    this.sessionReadOnly = sandboxed?.sandboxed ? readOnly : undefined;
    session.terminal.show(true);
    return session;
  }

  /** What the sandbox undid of the command's writes to files that run later outside it. */
  private heldFilesNote(): string {
    const note = this.options.sandbox?.sandbox.afterCommand();
    return note ? `\n${note}\n` : '';
  }

  /** Programs often print only "403": the model reads which host the sandbox turned away, and why. */
  private blockedHostsNote(): string {
    const hosts = this.options.sandbox?.sandbox.takeDeniedHosts() ?? [];
    return hosts.length ? `\n${blockedHostsText(hosts)}\n` : '';
  }

  private closeSession(): void {
    this.lastMode = this.session?.mode ?? this.lastMode;
    this.session?.dispose();
    this.session = undefined;
    this.current = undefined;
    this.sessionReadOnly = undefined;
    this.launcher?.dispose();
    this.launcher = undefined;
  }
}

/**
 * The `env` of a VS Code terminal that deletes these variables (a null value deletes one from the
 * environment the window starts terminals with). The terminal's environment is the window's, not
 * this process's, so the key is deleted even when this process does not have it.
 */
function withoutSecrets(removed: readonly string[], pass: readonly string[]): Record<string, null> {
  const names = new Set([...removed, ...LLM_VARIABLES.apiKey]);
  for (const name of pass) names.delete(name);
  return Object.fromEntries([...names].map((n) => [n, null]));
}
