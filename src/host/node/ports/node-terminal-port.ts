// TerminalPort for plain Node: one persistent bash per conversation, talking over pipes.
//
// Why interactive bash (`-i`) without a terminal: on Ctrl+C (SIGINT to its process group) an
// interactive shell abandons the running command list and keeps going, whether the command is a
// child process (`sleep 100`) or a loop inside the shell itself; a non-interactive one would die.
// `--noediting` keeps readline from echoing input, and each command runs through `eval` so a syntax
// error is reported instead of ending the shell. The shell reads the whole `eval ...; printf marker`
// line before running it, so whatever is sent later reaches the command's stdin (prompts, `read`).
// POSIX only: it relies on process groups.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { agentEnvironment } from '../../../core/secrets';
import type { ShellStartup } from '../../../core/state';
import type { TerminalPort, TerminalRunOptions, TerminalRunResult } from '../../../core/tools/ports';
import { stripTerminalControls } from '../../../core/tools/terminal-text';
import { blockedHostsText, type CommandSandbox, readInnerProcessGroup } from '../sandbox';
import { taintText } from './shell-hook-reset';
import { carryStateFile, type CarryStateFile, freshRunCode, freshRunSetup } from './shell-fresh-run';
import { type CommandEnd, ShellSentinel } from './shell-sentinel';

export interface NodeTerminalPortOptions {
  /** Directory the shell starts in (and restarts in after `reset`). */
  cwd: string;
  /** Shell executable (default `bash`); it must understand bash's options. */
  shell?: string;
  /** Extra environment variables on top of the process environment (without Logbook's secrets). */
  env?: Record<string, string>;
  /** Variables of Logbook's own (OPENAI_API_KEY, LOGBOOK_*) the user lets the shell see anyway. */
  passEnvironment?: readonly string[];
  /** Secret values the host knows: a variable holding one is left out of the shell's environment. */
  secretValues?: readonly string[];
  /** Output kept while nobody reads it; beyond this the middle is dropped (default 5,000,000). */
  maxBufferChars?: number;
  /** How long `interrupt` waits for the command to end after Ctrl+C before asking for the marker again (default 300 ms). */
  interruptGraceMs?: number;
  /** Runs the shell inside the conversation's sandbox (when one can start; see CommandSandbox). */
  sandbox?: TerminalSandbox;
  /**
   * none (default): a plain shell, no startup files. user: the user's ~/.bashrc is read, as in an
   * editor's terminal (a replay of a conversation recorded there starts this kind).
   */
  startup?: ShellStartup;
}

export interface TerminalSandbox {
  sandbox: CommandSandbox;
  /** Workspace folders: writable in act mode. */
  workspaces: readonly string[];
  /** Plan mode: the workspace is mounted read-only too; a change of mode starts a new shell. */
  readOnly: () => boolean;
}

/** Makes commands behave in a pipe: no pagers, no colour-hungry terminal, no credential prompts. */
const QUIET_ENV: Record<string, string> = {
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
};

const SHELL_SETUP = "exec 2>&1; set +H +o history; PS1=''; PS2=''; PS0=''; PROMPT_COMMAND=''; unset HISTFILE";
const STARTUP_TIMEOUT_MS = 10_000;
/** What a shell's startup printed, kept for `startupOutput`. */
const STARTUP_OUTPUT_MAX = 4000;

/** Who follows the commands `run` starts as they print (an external agent's `terminal/output`). */
export interface TerminalWatcher {
  started(): void;
  /** Everything the running command printed so far, each time it prints more. */
  output(soFar: string): void;
}

interface ActiveRun {
  id: number;
  end?: CommandEnd;
}

export class NodeTerminalPort implements TerminalPort {
  private readonly sentinel: ShellSentinel;
  private readonly maxBufferChars: number;
  private readonly interruptGraceMs: number;
  private child: ChildProcessWithoutNullStreams | undefined;
  /** The sandboxed shell's process group inside bwrap (Ctrl+C goes there, not to bwrap itself). */
  private innerGroup: number | undefined;
  /** Whether the running shell's workspace is read-only (plan mode), when sandboxed. */
  private shellReadOnly: boolean | undefined;
  private starting: Promise<void> | undefined;
  private runCount = 0;
  private active: ActiveRun | undefined;
  /** Output of the active run (or printed while idle) not yet returned. */
  private pending = '';
  private cwd: string;
  private lastExitCode = 0;
  /** Callbacks of pending waits, called whenever output arrives or the shell exits. */
  private readonly wakers = new Set<() => void>();
  private readonly watchers = new Set<TerminalWatcher>();
  private disposed = false;
  private startupText = '';
  /** Where each command's child writes its folder and exported variables for the next one. */
  private state: CarryStateFile | undefined;

  constructor(private readonly options: NodeTerminalPortOptions) {
    this.sentinel = new ShellSentinel(randomBytes(6).toString('hex'));
    this.maxBufferChars = options.maxBufferChars ?? 5_000_000;
    this.interruptGraceMs = options.interruptGraceMs ?? 300;
    this.cwd = options.cwd;
  }

  /**
   * What the last shell printed while it started, before any command (a startup file's warnings,
   * bash's job-control notes): never part of a command's output.
   */
  get startupOutput(): string {
    return stripTerminalControls(this.startupText);
  }

  /** Follows each command `run` starts; returns what stops following. */
  watch(watcher: TerminalWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** True from `run` until the command's end has been returned (see TerminalPort.busy). */
  get busy(): boolean {
    return this.active !== undefined;
  }

  async run(command: string, opts: TerminalRunOptions): Promise<TerminalRunResult> {
    if (this.active) throw new Error('A command is still running; read its output or interrupt it first.');
    // Mounts are fixed when the sandbox starts: a new mode needs a new shell (in the same folder).
    if (
      this.child &&
      this.shellReadOnly !== undefined &&
      this.shellReadOnly !== this.options.sandbox?.readOnly()
    )
      this.killShell();
    let child = await this.ensureShell();
    // A file that got other hard links since the shell started is held by a new shell's mounts.
    if (this.options.sandbox?.sandbox.beforeCommand()) {
      this.killShell();
      child = await this.ensureShell();
    }
    const id = ++this.runCount;
    this.active = { id };
    // The whole line is parsed before it runs, so later input goes to the command, not the shell.
    // The command runs in a fresh child bash; only its folder and exported variables carry.
    this.state?.sweep();
    const line = freshRunCode(command.replace(/\0/g, ''), this.state?.path ?? '');
    child.stdin.write(`${line}; ${this.sentinel.printCommand(id)}\n`);
    for (const w of this.watchers) w.started();
    return this.collect(opts);
  }

  async sendInput(text: string, opts: TerminalRunOptions): Promise<TerminalRunResult> {
    if (!this.active) {
      if (text !== '') throw new Error('No command is running to send input to.');
      return { output: this.takeAll(), exitCode: this.lastExitCode, timedOut: false, cwd: this.cwd };
    }
    if (text !== '' && !this.active.end) this.child?.stdin.write(text);
    return this.collect(opts);
  }

  async interrupt(): Promise<void> {
    const run = this.active;
    const child = this.child;
    if (!run || run.end || !child?.pid) return;
    signalGroup(this.innerGroup ?? child.pid, 'SIGINT');
    if (await this.waitForEnd(run, this.interruptGraceMs)) return;
    // The shell gave up the command list (so no marker will come from it): ask for the marker again.
    // If the command ignored SIGINT and reads stdin, this line is its input; nothing better exists
    // without a real terminal.
    if (this.child === child) child.stdin.write(`${this.sentinel.printCommand(run.id)}\n`);
    await this.waitForEnd(run, 2_000);
  }

  /**
   * Where the shell starts, when it has not started yet (a resumed conversation's last folder);
   * a reset still starts it in the workspace folder.
   */
  startIn(dir: string): void {
    if (!this.child) this.cwd = dir;
  }

  async reset(): Promise<void> {
    this.killShell();
    this.active = undefined;
    this.pending = '';
    this.cwd = this.options.cwd;
    await this.ensureShell();
  }

  dispose(): void {
    this.disposed = true;
    this.killShell();
    this.active = undefined;
    this.wakeAll();
  }

  private ensureShell(): Promise<ChildProcessWithoutNullStreams> {
    if (this.disposed) return Promise.reject(new Error('The terminal has been disposed.'));
    if (this.child) return Promise.resolve(this.child);
    this.starting ??= this.startShellOnce().finally(() => (this.starting = undefined));
    return this.starting.then(() => {
      if (!this.child) throw new Error('The shell did not start.');
      return this.child;
    });
  }

  /**
   * Starts the shell, once more if a held folder went away while the sandbox was mounting it
   * (another process removed its empty placeholder): the second launch makes it again.
   */
  private async startShellOnce(): Promise<void> {
    try {
      await this.startShell();
    } catch (err) {
      if (this.disposed || !this.options.sandbox?.sandbox.lostHeldFolders().length) throw err;
      await this.startShell();
    }
  }

  private async startShell(): Promise<void> {
    const shell = this.options.shell ?? 'bash';
    const argv =
      this.options.startup === 'user'
        ? [shell, '--noediting', '-i']
        : [shell, '--noprofile', '--norc', '--noediting', '-i'];
    const box = this.options.sandbox;
    const readOnly = box?.readOnly() ?? false;
    const launch = box
      ? await box.sandbox.launch({
          argv,
          workspaces: box.workspaces,
          readOnly,
          cwd: this.cwd,
          pass: this.options.passEnvironment ?? [],
          extraEnv: { ...QUIET_ENV, ...this.options.env },
          // Its own session inside: Ctrl+C goes to the shell's group, never to bwrap.
          newSession: true,
          infoFd: 3,
        })
      : undefined;
    const sandboxed = launch?.sandboxed === true;
    const spawned = spawn(launch?.file ?? argv[0]!, launch?.args ?? argv.slice(1), {
      cwd: this.cwd,
      // A sandboxed shell gets the environment bwrap builds from scratch; this is only bwrap's own.
      env: sandboxed
        ? { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }
        : { ...this.inheritedEnv(), ...QUIET_ENV, ...this.options.env },
      // Its own process group, so Ctrl+C and kills reach the shell and everything it started.
      detached: true,
      stdio: sandboxed ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    });
    const child = spawned as ChildProcessWithoutNullStreams;
    this.child = child;
    this.innerGroup = undefined;
    this.shellReadOnly = sandboxed ? readOnly : undefined;
    if (sandboxed)
      readInnerProcessGroup(spawned.stdio[3] as Readable | null, (pid) => {
        if (this.child === child) this.innerGroup = pid;
      });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (data: string) => this.onOutput(child, data));
    // Only the startup's noise (job-control warnings, the first prompt, a startup file's warnings)
    // ever reaches this pipe: the setup line's `exec 2>&1` sends everything after it to stdout, in
    // order. Kept for `startupOutput`, and for bwrap saying why the sandbox did not start.
    let startupNoise = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (startupNoise.length < STARTUP_OUTPUT_MAX) startupNoise += d;
    });
    child.stdin.on('error', () => undefined); // EPIPE when the shell died; 'exit' reports it.
    child.on('exit', (code, signal) => this.onShellExit(child, code, signal));

    this.state = carryStateFile(sandboxed);
    const ready: ActiveRun = { id: 0 };
    this.active = ready;
    child.stdin.write(`${SHELL_SETUP}; ${freshRunSetup()}; ${this.sentinel.printCommand(0)}\n`);
    const started = await new Promise<boolean>((resolve) => {
      child.once('error', () => resolve(false));
      void this.waitForEnd(ready, STARTUP_TIMEOUT_MS).then(resolve);
    });
    this.active = undefined;
    // What a startup file printed to stdout came before the setup line's marker.
    this.startupText = (startupNoise + this.pending).slice(0, STARTUP_OUTPUT_MAX);
    this.pending = '';
    if (!started || this.child !== child) {
      this.killShell();
      const said = sandboxed ? /bwrap: .*/.exec(startupNoise)?.[0] : undefined;
      throw new Error(
        `Could not start ${this.options.shell ?? 'bash'} in ${this.cwd}${said ? ` (${said})` : ''}.`,
      );
    }
  }

  /** The process environment minus what the agent must not read (`env`, `set`, /proc/self/environ). */
  private inheritedEnv(): Record<string, string> {
    return agentEnvironment(process.env, {
      pass: this.options.passEnvironment ?? [],
      secretValues: this.options.secretValues ?? [],
    }).env;
  }

  private onOutput(child: ChildProcessWithoutNullStreams, data: string): void {
    if (child !== this.child) return;
    const { text, ends } = this.sentinel.extract(this.pending + data);
    this.pending = this.bounded(text);
    for (const end of ends) {
      if (this.active && end.runId === this.active.id && !this.active.end) {
        this.active.end = end;
        this.cwd = end.cwd;
      }
    }
    if (this.active && text) for (const w of this.watchers) w.output(this.pending);
    this.wakeAll();
  }

  private onShellExit(
    child: ChildProcessWithoutNullStreams,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (child !== this.child) return;
    this.child = undefined;
    if (this.active && !this.active.end) {
      this.pending += '\n[The shell exited; the next command starts a new one.]\n';
      this.active.end = {
        runId: this.active.id,
        exitCode: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1),
        cwd: this.cwd,
        carried: [],
      };
    }
    this.wakeAll();
  }

  /** Waits until the run ends or `ms` elapse; true if it ended. */
  private async waitForEnd(run: ActiveRun, ms: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!run.end && !this.disposed && !signal?.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), left);
        const onAbort = () => done();
        signal?.addEventListener('abort', onAbort, { once: true });
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.wakers.delete(done);
          resolve();
        };
        this.wakers.add(done);
      });
    }
    return run.end !== undefined;
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  private async collect(opts: TerminalRunOptions): Promise<TerminalRunResult> {
    const run = this.active;
    if (!run) return { output: this.takeAll(), exitCode: this.lastExitCode, timedOut: false, cwd: this.cwd };
    await this.waitForEnd(run, opts.timeoutMs, opts.signal);
    if (run.end) {
      this.active = undefined;
      this.lastExitCode = run.end.exitCode;
      const output = this.takeAll() + this.replaceTaintedShell(run.end) + this.heldFilesNote();
      return { output, exitCode: run.end.exitCode, timedOut: false, cwd: this.cwd, carried: run.end.carried };
    }
    const keep = this.sentinel.incompleteTail(this.pending);
    const output = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    return {
      output: stripTerminalControls(output) + this.blockedHostsNote(),
      exitCode: null,
      timedOut: true,
      cwd: this.cwd,
    };
  }

  /**
   * A command left a hook the reset could not undo (a readonly PS1, a disabled `enable`): the next
   * command gets a new shell in the same folder, so the hook never fires.
   */
  private replaceTaintedShell(end: CommandEnd): string {
    if (!end.taint) return '';
    this.killShell();
    return (
      `\n[The command left ${taintText(end.taint)} in the shell; Logbook replaced the shell so it ` +
      'cannot run with later commands. Variables and functions set before are gone; the working ' +
      'directory is kept.]\n'
    );
  }

  private takeAll(): string {
    const output = this.pending;
    this.pending = '';
    return stripTerminalControls(output) + this.blockedHostsNote();
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

  /** Drops the middle of output nobody has read once it grows past the limit. */
  private bounded(text: string): string {
    if (text.length <= this.maxBufferChars) return text;
    const half = Math.floor(this.maxBufferChars / 2);
    const dropped = text.length - 2 * half;
    return `${text.slice(0, half)}\n[... ${dropped} characters dropped: nobody read them in time ...]\n${text.slice(-half)}`;
  }

  private killShell(): void {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    if (this.innerGroup) signalGroup(this.innerGroup, 'SIGKILL');
    this.innerGroup = undefined;
    if (child.pid) signalGroup(child.pid, 'SIGKILL');
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
    this.state?.dispose();
    this.state = undefined;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}
