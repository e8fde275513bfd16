// Fallback when shell integration does not activate: a terminal backed by a Pseudoterminal that
// feeds commands to a persistent shell process and echoes its output for the user. Each command
// runs in a fresh child bash of that shell: only the working folder and exported variables carry.
// End markers (see shell-sentinel.ts) give exact exit codes and name what carried.
// Sandboxed, the shell runs inside bubblewrap in its own session; Ctrl+C goes to its process group
// there (bwrap reports its pid on a fourth pipe), never to bwrap.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import * as vscode from 'vscode';
import { readInnerProcessGroup, type SandboxedLaunch } from '../../node/sandbox';
import { OutputBuffer } from './output-buffer';
import {
  carryStateFile,
  type CarryStateFile,
  freshRunSetup,
  STOPPED_VARIABLE,
} from '../../node/ports/shell-fresh-run';
import { commandLine, parseStatusMarker, scanForMarker } from './shell-sentinel';
import { StartupOutput } from './shell-startup';
import type { CommandExit, RunningCommand, ShellSession } from './terminal-session';
import { printableText } from '../../../core/text/printable';

export interface PseudoterminalSessionOptions {
  name: string;
  cwd: string;
  /** The environment the shell inherits (this process's without Logbook's secrets); default process.env. */
  inherited?: Record<string, string>;
  env?: Record<string, string>;
  /**
   * The shell's sandboxed launch (of `pseudoterminalShell()`, with `infoFd: 3`); its environment
   * is the one the launch built, and a restarted shell starts in the launch's folder again.
   */
  sandboxed?: SandboxedLaunch;
}

/** Keeps tools that page or buffer when not attached to a TTY from hanging or going quiet. */
export const NON_TTY_ENV = { PAGER: 'cat', GIT_PAGER: 'cat', PYTHONUNBUFFERED: '1', TERM: 'dumb' };

/** The shell the fallback runs: a login bash where there is one. */
export function pseudoterminalShell(): string[] {
  const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p));
  return bash ? [bash, '-l'] : ['/bin/sh'];
}

interface Pending {
  nonce: string;
  output: OutputBuffer;
  status?: CommandExit;
  stderrDone: boolean;
  resolve: (exit: CommandExit) => void;
}

export class PseudoterminalSession implements ShellSession {
  readonly mode = 'pseudoterminal';
  readonly terminal: vscode.Terminal;
  private readonly writes = new vscode.EventEmitter<string>();
  private readonly closes = new vscode.EventEmitter<number | void>();
  private opened = false;
  private backlog: string[] = [];
  private shell?: ChildProcessWithoutNullStreams;
  /** The sandboxed shell's process group inside bwrap. */
  private innerGroup: number | undefined;
  private closed = false;
  private cwd: string;
  private pending?: Pending;
  /** Output that arrives while no command runs (background jobs) goes to the last command. */
  private lastOutput?: OutputBuffer;
  private carry = { stdout: '', stderr: '' };
  /** Whether the shell is bash (a plain sh runs commands in itself, with no fresh child). */
  private readonly bash = /bash$/.test(pseudoterminalShell()[0] ?? '');
  /** Where the running shell's children leave their folder and exported variables. */
  private state: CarryStateFile | undefined;
  /** What the running shell printed while it read the startup files, kept out of every output. */
  private startup: StartupOutput | undefined;

  constructor(private readonly options: PseudoterminalSessionOptions) {
    this.cwd = options.cwd;
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writes.event,
      onDidClose: this.closes.event,
      open: () => {
        this.opened = true;
        for (const chunk of this.backlog) this.writes.fire(chunk);
        this.backlog = [];
      },
      close: () => this.shutdown(),
      handleInput: (data) => this.onUserInput(data),
    };
    this.terminal = vscode.window.createTerminal({ name: options.name, pty });
  }

  get alive(): boolean {
    return !this.closed;
  }

  start(command: string): RunningCommand {
    if (this.closed) throw new Error('The terminal is no longer available');
    const shell = this.shell ?? this.spawnShell();
    const output = new OutputBuffer();
    this.lastOutput = output;
    // The model's command as text: an escape sequence in it must not hide or restyle what runs.
    this.print(`\x1b[2m$\x1b[0m ${printableText(command).replace(/\n/g, '\r\n')}\r\n`);
    const exit = new Promise<CommandExit>((resolve) => {
      this.pending = { nonce: randomUUID().replace(/-/g, ''), output, stderrDone: false, resolve };
    });
    shell.stdin.write(commandLine(command, this.pending!.nonce, this.state?.path));
    return { output, exit };
  }

  write(text: string): void {
    this.shell?.stdin.write(text);
  }

  interrupt(): void {
    this.signalShellGroup('SIGINT');
  }

  dispose(): void {
    this.shutdown();
    this.terminal.dispose();
  }

  private spawnShell(): ChildProcessWithoutNullStreams {
    const argv = pseudoterminalShell();
    const sandboxed = this.options.sandboxed;
    const spawned = spawn(sandboxed?.file ?? argv[0]!, sandboxed?.args ?? argv.slice(1), {
      cwd: existsSync(this.cwd) ? this.cwd : undefined,
      // A sandboxed shell gets the environment bwrap builds from scratch; this is only bwrap's own.
      env: sandboxed
        ? { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }
        : { ...(this.options.inherited ?? process.env), ...NON_TTY_ENV, ...this.options.env },
      // Its own process group: Ctrl+C goes to the shell and its foreground command together.
      detached: true,
      stdio: sandboxed ? ['pipe', 'pipe', 'pipe', 'pipe'] : 'pipe',
    });
    const shell = spawned as ChildProcessWithoutNullStreams;
    this.shell = shell;
    this.innerGroup = undefined;
    if (sandboxed)
      readInnerProcessGroup(spawned.stdio[3] as Readable | null, (pid) => {
        if (this.shell === shell) this.innerGroup = pid;
      });
    this.carry = { stdout: '', stderr: '' };
    this.state?.dispose();
    this.state = this.bash ? carryStateFile(sandboxed !== undefined) : undefined;
    // A trap (not an ignore, which children would inherit) keeps the non-interactive shell alive
    // when Ctrl+C interrupts its command; it also marks the command stopped, so nothing of it carries.
    const startup = new StartupOutput();
    this.startup = startup;
    shell.stdin.write(
      `trap '${STOPPED_VARIABLE}=1' INT\n${this.state ? `${freshRunSetup()}\n` : ''}${startup.line(this.bash)}`,
    );
    shell.stdin.on('error', () => {}); // EPIPE after the shell exited; the exit handler reports it.
    const stdout = new StringDecoder('utf8');
    const stderr = new StringDecoder('utf8');
    shell.stdout.on('data', (b: Buffer) => this.onData('stdout', stdout.write(b)));
    shell.stderr.on('data', (b: Buffer) => this.onData('stderr', stderr.write(b)));
    const ended = (exitCode: number | null) => {
      if (this.shell !== shell) return;
      this.shell = undefined;
      // A shell that ended before its startup was over: what it printed says why.
      const why = startup.unfinished();
      if (why) {
        this.pending?.output.append(why);
        this.print(why.replace(/\r?\n/g, '\r\n'));
      }
      this.finish({ exitCode, cwd: this.cwd });
      if (!this.closed) this.print(`\x1b[2m[shell exited; the next command starts a new one]\x1b[0m\r\n`);
    };
    shell.on('error', (err) => {
      this.print(`\r\n[Logbook could not run the shell: ${err.message}]\r\n`);
      ended(null);
    });
    // Prefer 'close' (stdout and stderr fully read); a background job holding the pipes open would
    // delay it forever, so 'exit' settles it shortly after anyway.
    shell.on('close', (code, signal) => ended(code ?? signalExitCode(signal)));
    shell.on('exit', (code, signal) => {
      setTimeout(() => ended(code ?? signalExitCode(signal)), 300).unref();
    });
    return shell;
  }

  private onData(stream: 'stdout' | 'stderr', chunk: string): void {
    if (this.startup && !this.startup.done) chunk = this.startup.pass(stream, chunk);
    if (!chunk) return;
    const pending = this.pending;
    let text = chunk;
    if (pending) {
      const scan = scanForMarker(this.carry[stream], chunk, pending.nonce);
      this.carry[stream] = scan.carry;
      text = scan.text;
      if (scan.marker !== undefined) {
        if (stream === 'stdout') pending.status = parseStatusMarker(scan.marker);
        else pending.stderrDone = true;
      }
    }
    if (text) {
      (pending?.output ?? this.lastOutput)?.append(text);
      this.print(text.replace(/\r?\n/g, '\r\n'));
    }
    if (pending?.status && pending.stderrDone) this.finish(pending.status);
  }

  private finish(exit: CommandExit): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    if (exit.cwd) this.cwd = exit.cwd;
    if (exit.exitCode) this.print(`\x1b[2m[exit code ${exit.exitCode}]\x1b[0m\r\n`);
    pending.resolve(exit);
  }

  private onUserInput(data: string): void {
    if (data.includes('\x03')) return this.interrupt();
    if (!this.pending || !this.shell) return;
    // No TTY line discipline here: echo what the user types and turn Enter into a newline.
    this.print(data.replace(/\r/g, '\r\n'));
    this.shell.stdin.write(data.replace(/\r/g, '\n'));
  }

  private print(text: string): void {
    if (this.opened) this.writes.fire(text);
    else this.backlog.push(text);
  }

  /** The shell's group (inside the sandbox when there is one, else the shell's own). */
  private signalShellGroup(signal: NodeJS.Signals): void {
    if (!this.shell) return;
    const pid = this.innerGroup ?? this.shell.pid;
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    const shell = this.shell;
    this.signalShellGroup('SIGHUP');
    this.signalShellGroup('SIGTERM');
    this.shell = undefined;
    this.state?.dispose();
    this.state = undefined;
    this.finish({ exitCode: null, cwd: this.cwd });
    // Background jobs share the group; whatever ignored SIGTERM is killed a moment later (with
    // bwrap, the whole sandbox: every process in its namespace ends with it).
    if (shell?.pid) setTimeout(killGroup, 1000, shell.pid).unref();
    this.writes.dispose();
    this.closes.dispose();
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The shell convention for a process killed by a signal: 128 + its number. */
function signalExitCode(signal: NodeJS.Signals | null): number | null {
  return signal ? 128 + (constants.signals[signal] ?? 0) : null;
}
