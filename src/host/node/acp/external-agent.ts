// An external ACP agent (Claude Code's or Codex's adapter, Gemini CLI, `openhands acp`, another
// `logbook acp`) run in place of the model: Logbook's loop asks it for "the next reply", and the
// agent's turn is cut into replies at each thing it asks of Logbook. Its text and thought become
// the reply's content and reasoning; a `fs/write_text_file` becomes a file_editor call, so the
// write is rated, confirmed, checkpointed and bounded to the workspace like Logbook's own; the
// call's recorded result answers the agent. A `terminal/create` becomes a terminal call, so the
// command is rated, confirmed and run in Logbook's sandboxed shell; its recorded output and exit
// code are what `terminal/output` and `terminal/wait_for_exit` return. Each permission request is an agent_permission action
// that goes through the same gate (never approved unasked), and its own tool calls are kept as
// the ACP payloads they are.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  type ClientConnection,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type RequestPermissionResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { version } from '../../../../package.json';
import { hiddenCheck, type HiddenPaths } from '../../../core/security/hidden-paths';
import { realPath } from '../../../core/security/resolve-path';
import {
  type LlmCallOptions,
  type LlmClient,
  isLlmError,
  LlmError,
  type LlmRequest,
  type LlmResponse,
} from '../../../core/llm';
import { AGENT_COMMAND_TIMEOUT_SEC, commandLine } from './client-terminal';
import { type AgentShell, AgentTerminals } from './agent-terminals';
import { AGENT_PERMISSION_TOOL, GRANTED } from './permission-tool';
import {
  answerRead,
  answerTerminal,
  messageOf,
  permissionArgs,
  refuseStops,
  type Stop,
  textOf,
} from './agent-stops';
import { ACP_ERROR_KEY, ACP_TOOL_CALL_KEY } from './record-lines';
import { historyBrief } from './history-brief';

export interface AgentLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** What the agent said or did that is not a reply's text: recorded as it is, by the session. */
export type AgentRecord =
  | { key: typeof ACP_TOOL_CALL_KEY; value: SessionUpdate }
  | { key: typeof ACP_ERROR_KEY; value: { message: string } };

export interface ExternalAgentOptions {
  name: string;
  launch: AgentLaunch;
  workspace: string;
  /** The agent's stderr and Logbook's notes about it. */
  log: (line: string) => void;
  /** How long the agent may say nothing (starting, or in a turn) before its turn is given up. */
  replyTimeoutSec?: number;
  /** What the sandbox hides (and links to it): a write there is never read to build the edit (the tool refuses it). */
  hidden?: HiddenPaths;
}

/** Appends what the agent did to the conversation's log, before the reply it belongs to. */
export type AgentRecorder = (r: AgentRecord) => Promise<unknown>;

export class ExternalAgentModel implements LlmClient {
  readonly model: string;
  private child: ChildProcessWithoutNullStreams | undefined;
  private connection: ClientConnection | undefined;
  private sessionId: string | undefined;
  private text = '';
  private reasoning = '';
  private readonly stops: Stop[] = [];
  private wake: (() => void) | undefined;
  /** The agent said something while Logbook waits for its next stop. */
  private heard: (() => void) | undefined;
  /** The write or permission whose recorded result answers the agent. */
  private pending: Extract<Stop, { kind: 'write' | 'permission' | 'read' | 'terminal' }> | undefined;
  /** The agent's terminals, each once its command started, until it releases them. */
  private readonly terminals = new AgentTerminals();
  /** Where Logbook's shell is: a command the agent runs elsewhere starts with a `cd`. */
  private shellCwd: string;
  private records: AgentRecord[] = [];
  private calls = 0;
  private onDelta: LlmCallOptions['onDelta'];
  private closing = false;
  /** The turn whose end counts: a turn given up (timed out) ends unheard. */
  private turn = 0;
  /** Set by the session once its conversation is open. */
  recorder: AgentRecorder | undefined;

  constructor(private readonly opts: ExternalAgentOptions) {
    this.model = `acp:${opts.name}`;
    this.shellCwd = opts.workspace;
  }

  private async record(): Promise<void> {
    for (const r of this.records.splice(0)) await this.recorder?.(r);
  }

  async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
    const started = Date.now();
    this.onDelta = opts?.onDelta;
    const last = req.messages[req.messages.length - 1];
    if (this.pending && last?.role === 'tool' && last.tool_call_id === this.pending.callId) {
      if (this.pending.kind === 'write') this.answerWrite(this.pending, last.content);
      else if (this.pending.kind === 'read') answerRead(this.pending, last.content);
      else if (this.pending.kind === 'terminal') answerTerminal(this.pending, last.content);
      else this.answerPermission(this.pending, last.content);
      this.pending = undefined;
    } else if (last?.role === 'user') {
      this.dropStale();
      // A new session of an agent that ran this conversation before is told what it missed.
      const brief = this.connection ? undefined : historyBrief(req.messages);
      await this.prompt(brief ? `${brief}\n${textOf(last)}` : textOf(last));
    } else if (!this.connection) {
      throw new LlmError('bad_request', `The agent "${this.opts.name}" has no turn to go on with.`);
    }
    const stop = await this.nextStop(opts?.signal).finally(() => this.record());
    const content = this.text;
    const reasoning = this.reasoning;
    this.text = '';
    this.reasoning = '';
    const base = {
      id: `acp-${this.opts.name}-${++this.calls}`,
      model: this.model,
      content,
      reasoning: reasoning || null,
      usage: null,
      cost: 0,
      costSource: 'unknown' as const,
      latencyMs: Date.now() - started,
    };
    if (stop.kind === 'failed') throw new LlmError('server_error', stop.message);
    if (stop.kind === 'end') return { ...base, toolCalls: [], finishReason: stop.stopReason };
    this.pending = stop;
    const call =
      stop.kind === 'write'
        ? { id: stop.callId, name: 'file_editor', arguments: JSON.stringify(this.writeArgs(stop)) }
        : stop.kind === 'read'
          ? { id: stop.callId, name: 'file_editor', arguments: JSON.stringify(this.readArgs(stop)) }
          : stop.kind === 'terminal'
            ? { id: stop.callId, name: 'terminal', arguments: JSON.stringify(this.terminalArgs(stop)) }
            : {
                id: stop.callId,
                name: AGENT_PERMISSION_TOOL,
                arguments: JSON.stringify(permissionArgs(stop.request)),
              };
    return { ...base, toolCalls: [call], finishReason: 'tool_calls' };
  }

  /** The session's shell: a command the agent asked for is followed while it runs. */
  followShell(shell: AgentShell): void {
    this.terminals.follow(shell, () => (this.pending?.kind === 'terminal' ? this.pending : undefined));
  }

  /** Stops the agent's process. */
  async close(): Promise<void> {
    const child = this.child;
    this.closing = true;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  }

  private async prompt(text: string): Promise<void> {
    if (!this.connection) await this.start();
    const connection = this.connection!;
    const turn = ++this.turn;
    connection.agent
      .request('session/prompt', { sessionId: this.sessionId!, prompt: [{ type: 'text', text }] })
      .then(
        (res) => turn === this.turn && this.push({ kind: 'end', stopReason: res.stopReason }),
        (err: unknown) => turn === this.turn && this.fail(`its turn failed: ${messageOf(err)}`),
      );
  }

  private async start(): Promise<void> {
    const { launch, workspace } = this.opts;
    const child = spawn(launch.command, launch.args, { cwd: workspace, env: launch.env });
    this.child = child;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      for (const line of d.split('\n')) if (line.trim()) this.opts.log(`${this.opts.name}: ${line}`);
    });
    child.on('error', (err) => this.fail(`it could not start: ${err.message}`));
    child.on('exit', (code, signal) => this.fail(`it exited (${signal ?? `code ${code}`})`));
    const app = client({ name: 'logbook' })
      .onNotification('session/update', ({ params }) => this.update(params.update))
      .onRequest(
        'session/request_permission',
        ({ params }) =>
          // Asked through Logbook's gate as an action; its recorded result is the answer.
          new Promise<RequestPermissionResponse>((resolve) => {
            this.push({
              kind: 'permission',
              callId: `acp_permission_${++this.calls}`,
              request: params,
              answer: (optionId) =>
                resolve({
                  outcome: optionId ? { outcome: 'selected', optionId } : { outcome: 'cancelled' },
                }),
            });
          }),
      )
      .onRequest('fs/read_text_file', ({ params }) => {
        const path = this.absolute(params.path);
        return new Promise<{ content: string }>((resolve, reject) => {
          this.push({
            kind: 'read',
            callId: `acp_read_${++this.calls}`,
            path,
            ...(params.line != null ? { line: params.line } : {}),
            ...(params.limit != null ? { limit: params.limit } : {}),
            answer: (r) => (r instanceof Error ? reject(r) : resolve(r)),
          });
        });
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        const path = this.absolute(params.path);
        return new Promise<Record<string, never>>((resolve, reject) => {
          this.push({
            kind: 'write',
            callId: `acp_write_${++this.calls}`,
            path,
            content: params.content,
            answer: (err) => (err ? reject(err) : resolve({})),
          });
        });
      })
      .onRequest('terminal/create', ({ params }) => {
        const line = commandLine(params, this.shellCwd, this.opts.workspace);
        return new Promise<{ terminalId: string }>((resolve, reject) => {
          const callId = `acp_terminal_${++this.calls}`;
          this.push({
            kind: 'terminal',
            callId,
            command: line,
            outputByteLimit: params.outputByteLimit ?? null,
            // Followed while it runs: the agent reads its output before it ends.
            started: () => resolve({ terminalId: callId }),
            answer: (r) => {
              if (r instanceof Error) {
                if (this.terminals.isOpen(callId)) this.terminals.abandon(callId);
                else reject(r);
                return;
              }
              // The shell stays where the command left it; the next command starts from there.
              if (r.movedTo) this.shellCwd = r.movedTo;
              this.terminals.end(callId, r);
              resolve({ terminalId: callId });
            },
          });
        });
      })
      .onRequest('terminal/output', ({ params }) => this.terminals.output(params.terminalId))
      .onRequest('terminal/wait_for_exit', async ({ params }) => ({
        ...(await this.terminals.waitForExit(params.terminalId)),
      }))
      .onRequest('terminal/kill', async ({ params }) => (await this.terminals.kill(params.terminalId), {}))
      .onRequest(
        'terminal/release',
        async ({ params }) => (await this.terminals.release(params.terminalId), {}),
      );
    const stream = ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    this.connection = app.connect(stream);
    const failed = new Promise<never>((_, reject) => {
      child.once('exit', (code, signal) =>
        reject(
          new LlmError(
            'connection',
            `The agent "${this.opts.name}" exited (${signal ?? `code ${code}`}) before its session began.`,
          ),
        ),
      );
      child.once('error', (err) =>
        reject(new LlmError('connection', `The agent "${this.opts.name}" could not start: ${err.message}`)),
      );
    });
    const begin = async () => {
      await this.connection!.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        // Only what Logbook answers: reads and writes through its file tool, commands through its
        // terminal tool.
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: 'logbook', title: 'Logbook', version },
      });
      const made = await this.connection!.agent.request('session/new', { cwd: workspace, mcpServers: [] });
      this.sessionId = made.sessionId;
    };
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new LlmError('timeout', `The agent "${this.opts.name}" ${this.silence()}`)),
        this.timeoutMs(),
      );
    });
    try {
      await Promise.race([begin(), failed, silent]);
    } catch (err) {
      if (isLlmError(err) && err.kind === 'timeout') await this.close();
      if (isLlmError(err)) throw err;
      throw new LlmError(
        'bad_request',
        `The agent "${this.opts.name}" did not start a session: ${messageOf(err)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    failed.catch(() => undefined);
    silent.catch(() => undefined);
  }

  private update(u: SessionUpdate): void {
    this.heard?.();
    if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') {
      this.text += u.content.text;
      this.onDelta?.({ type: 'text', text: u.content.text });
    } else if (u.sessionUpdate === 'agent_thought_chunk' && u.content.type === 'text') {
      this.reasoning += u.content.text;
      this.onDelta?.({ type: 'reasoning', text: u.content.text });
    } else if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
      this.records.push({ key: ACP_TOOL_CALL_KEY, value: u });
    }
  }

  /** A path the agent names must be absolute (ACP's rule); the file tool bounds it to the workspace. */
  private absolute(path: string): string {
    if (!isAbsolute(path)) throw RequestError.invalidParams({ path }, 'The path must be absolute.');
    return path;
  }

  /** A workspace path as the file tool shows it (relative); any other absolute. */
  private shown(path: string): string {
    const rel = relative(this.opts.workspace, path);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  }

  /** The read as the file tool's view, so its read rules decide it and the log shows what was read. */
  private readArgs(r: Extract<Stop, { kind: 'read' }>): Record<string, unknown> {
    const first = Math.max(1, r.line ?? 1);
    const range =
      r.line != null || r.limit != null
        ? { view_range: [first, r.limit != null ? first + r.limit - 1 : -1] }
        : {};
    return {
      command: 'view',
      path: this.shown(r.path),
      ...range,
      summary: `${this.opts.name} reads ${this.shown(r.path)}`,
    };
  }

  /** The command as a terminal call that waits for it to end (its timeout stops it with Ctrl+C). */
  private terminalArgs(t: Extract<Stop, { kind: 'terminal' }>): Record<string, unknown> {
    return {
      command: t.command,
      timeout: AGENT_COMMAND_TIMEOUT_SEC,
      summary: `${this.opts.name} runs ${t.command}`,
    };
  }

  private writeArgs(w: Extract<Stop, { kind: 'write' }>): Record<string, unknown> {
    const shown = this.shown(w.path);
    const summary = `${this.opts.name} writes ${shown}`;
    // A hidden file's text would land in the log as old_str: the call names only the new text.
    if (this.isHidden(w.path)) return { command: 'create', path: shown, file_text: w.content, summary };
    let current: string | undefined;
    try {
      current = readFileSync(w.path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === undefined) return { command: 'create', path: shown, file_text: w.content, summary };
    if (current === '')
      return { command: 'insert', path: shown, insert_line: 0, new_str: w.content, summary };
    return { command: 'str_replace', path: shown, old_str: current, new_str: w.content, summary };
  }

  private isHidden(path: string): boolean {
    const hidden = this.opts.hidden;
    return hidden !== undefined && hiddenCheck(hidden, false)(path, realPath(path)) !== undefined;
  }

  /** The write's recorded result answers the agent: done when the file holds what it asked. */
  private answerWrite(w: Extract<Stop, { kind: 'write' }>, result: string): void {
    let now: string | undefined;
    try {
      // Not compared with a hidden file: "done" would tell the agent what it holds.
      now = this.isHidden(w.path) ? undefined : readFileSync(w.path, 'utf8');
    } catch {
      now = undefined;
    }
    if (now === w.content) w.answer();
    else w.answer(RequestError.internalError({ path: w.path }, `Logbook did not write the file: ${result}`));
  }

  /** Allowed once when the gate let the action run; any other result rejects (never "always"). */
  private answerPermission(p: Extract<Stop, { kind: 'permission' }>, result: string): void {
    const granted = result.startsWith(GRANTED);
    const pick = (kinds: string[]) => p.request.options.find((o) => kinds.includes(o.kind))?.optionId;
    p.answer(granted ? pick(['allow_once']) : pick(['reject_once', 'reject_always']));
  }

  private fail(message: string): void {
    if (this.closing) return;
    const text = `The agent "${this.opts.name}": ${message}.`;
    this.records.push({ key: ACP_ERROR_KEY, value: { message: text } });
    this.push({ kind: 'failed', message: text });
  }

  private push(stop: Stop): void {
    this.stops.push(stop);
    this.wake?.();
  }

  private timeoutMs(): number {
    return (this.opts.replyTimeoutSec ?? 600) * 1000;
  }

  private silence(): string {
    return `said nothing for ${this.timeoutMs() / 1000} s (acp.replyTimeoutSeconds)`;
  }

  /** What a turn given up left behind is refused, so the agent is not left waiting on it. */
  private dropStale(): void {
    refuseStops(this.stops.splice(0));
    this.text = '';
    this.reasoning = '';
  }

  /** The turn is given up: the agent is asked to cancel it, and the run gets an error. */
  private giveUp(): void {
    this.turn++;
    if (this.sessionId)
      void this.connection?.agent
        .notify('session/cancel', { sessionId: this.sessionId })
        .catch(() => undefined);
    const text = `The agent "${this.opts.name}" ${this.silence()}; its turn was cancelled. Send a message to go on.`;
    this.records.push({ key: ACP_ERROR_KEY, value: { message: text } });
    this.push({ kind: 'failed', message: text });
  }

  private nextStop(signal?: AbortSignal): Promise<Stop> {
    return new Promise((resolve, reject) => {
      // Each thing the agent says or asks counts as an answer: silence for the whole limit gives up.
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => this.giveUp(), this.timeoutMs());
        // Never what keeps the process alive (a run stopping closes the agent anyway).
        timer.unref();
      };
      this.heard = arm;
      const look = () => {
        const s = this.stops.shift();
        if (!s) return false;
        this.wake = undefined;
        this.heard = undefined;
        clearTimeout(timer);
        resolve(s);
        return true;
      };
      const stop = () => {
        clearTimeout(timer);
        this.heard = undefined;
        this.wake = undefined;
        if (this.sessionId)
          void this.connection?.agent
            .notify('session/cancel', { sessionId: this.sessionId })
            .catch(() => undefined);
        reject(new LlmError('aborted', 'Stopped by the user.'));
      };
      if (look()) return;
      // Stopped while the agent was starting: its turn is cancelled at once.
      if (signal?.aborted) return stop();
      arm();
      this.wake = () => void look();
      signal?.addEventListener('abort', stop, { once: true });
    });
  }
}
