// `logbook run --remote URL`: the task runs on an OpenHands agent-server. Its events stream over
// the WebSocket and each one is appended to the local signed log as received, marked with the
// server it came from (`received_from`), so show and verify work on it as on a local
// conversation. The server's parent_id is a tree link (a state update names its action), so the
// local log is one line in arrival order instead (see remote-chain.ts). Held actions are asked about in place (a terminal) and answered with
// respond_to_confirmation; a script gets exit code 2. A dropped stream resumes from the last
// event received; ids already in the log are not written again.
import { join } from 'node:path';
import { parseOwnedEvent } from '../../../core/events';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { cliHeadFile } from '../config-dir';
import { openConversationStore, type ConversationStore } from '../session/conversation-store';
import { cliSigningIdentity } from '../cli/signing';
import type { CliSettings } from '../cli/cli-settings';
import type { CliIo } from '../cli/io';
import { EXIT } from '../cli/exit-codes';
import type { StopSignal } from '../cli/io';
import { signalExitCode } from '../cli/drive';
import {
  type AgentServerTarget,
  RemoteError,
  allEvents,
  conversationStatus,
  eventsSocketUrl,
  pauseConversation,
  respondToConfirmation,
  runConversation,
  startConversation,
} from './agent-server-api';
import { serverHeadCommit } from './agent-server-git';
import { openWebSocket, type WebSocketLink } from './websocket-client';
import { heldActions, lastStatus, remoteStatus, type RemoteStatus } from './remote-status';
import { describeRemoteEvent } from './remote-lines';
import { chainRemoteEvent } from './remote-chain';
import { type RemoteDelta, RemoteReplyPreview } from './remote-deltas';
import { remoteRisk, remoteRiskText, writeRemoteOrigin } from './remote-risk';
import type { RuntimeOrigin } from './remote-origin';
import { gateHeld, type GateVerdict, type RemoteGate } from './remote-gate';

export interface RemoteRunOptions {
  target: AgentServerTarget;
  task: string;
  /** The local folder the log goes under (.logbook/conversations/<id>). */
  workspace: string;
  /** The working folder on the server's machine. */
  remoteDir: string;
  settings: CliSettings;
  model: { model: string; baseUrl: string | undefined; apiKey: string | undefined };
  confirmation: string;
  maxIterations?: number;
  /** Asks in place when held actions wait (a person at a terminal). */
  askInPlace: boolean;
  json: boolean;
  /** The runtime API that started the server, recorded in remote.json. */
  runtime?: RuntimeOrigin;
  /** Logbook's answers to what the server holds (its rules, plan mode); the policy sent follows its mode. */
  gate?: RemoteGate;
}

/** How long a dropped stream is tried again before the server counts as gone. */
const RECONNECT_MS = 5_000;
/** How long the run waits after the server's last status for the updates written with it. */
const SETTLE_MS = 300;
/** How long a running conversation's stream may stay silent before the server is asked its status. */
const QUIET_MS = 10_000;

export async function remoteRun(io: CliIo, opts: RemoteRunOptions): Promise<number> {
  const { target } = opts;
  // Before the agent can commit anything: the base its change is taken against.
  const base = await serverHeadCommit(target, opts.remoteDir);
  const id = await startConversation(target, {
    workingDir: opts.remoteDir,
    task: opts.task,
    // In plan mode the server holds every action, for Logbook to refuse what writes or runs.
    confirmation: opts.gate?.mode === 'plan' ? 'always' : opts.confirmation,
    model: opts.model,
    ...(opts.maxIterations ? { maxIterations: opts.maxIterations } : {}),
  });
  const storeDir = join(opts.workspace, '.logbook', 'conversations', id);
  io.err(`conversation: ${storeDir}`);
  io.err(`running on ${target.url} (conversation ${id})`);
  const store = await openConversationStore(storeDir, {
    signing: cliSigningIdentity(io, opts.settings),
    conversationId: id,
    headFile: cliHeadFile(io.env, storeDir),
    lockHolder: `logbook run --remote (pid ${process.pid})`,
  });
  try {
    writeRemoteOrigin(storeDir, {
      server: target.url,
      conversation_id: id,
      working_dir: opts.remoteDir,
      ...(opts.runtime ? { runtime: opts.runtime } : {}),
      ...(opts.gate?.mode === 'plan' ? { mode: 'plan' as const } : {}),
      ...(base ? { base_commit: base } : {}),
    });
    return await new RemoteStream(io, opts, id, store).run();
  } finally {
    await store.close();
  }
}

/** What streaming a remote conversation into its log needs. */
export type RemoteStreamOptions = Pick<
  RemoteRunOptions,
  'target' | 'remoteDir' | 'askInPlace' | 'json' | 'gate'
> & {
  /** Told of each event once it is in the log, with its place there (the editor's chat shows it). */
  appended?: (event: StoredConversationEvent, seq: number) => void;
  /** Told of the reply's text as the server streams it (the chat's live preview); never logged. */
  delta?: (delta: RemoteDelta) => void;
  /**
   * Sends the next task once the stream is open and the server's snapshot of the conversation has
   * arrived: that snapshot's status is the one from before the task, and every later one is its run's.
   */
  send?: () => Promise<void>;
  /** The server went away (the stream could not be opened again, or a request failed): why. */
  gone?: (why: string) => void;
  /**
   * Ends the stream at a paused or idle status too (catching up with a conversation that waits
   * there; a stream after an answer waits for the run that answer starts instead).
   */
  endWhenStopped?: boolean;
};

/** How long the stream waits for the server's snapshot before it sends the task anyway. */
const SNAPSHOT_MS = 5_000;

/**
 * Streams a conversation the log already holds events of (`known`, oldest first) until its next
 * stop: the stream resumes after the last of them, and none is written again.
 */
export function streamRemote(
  io: CliIo,
  opts: RemoteStreamOptions,
  id: string,
  store: ConversationStore,
  known: readonly Record<string, unknown>[],
): Promise<number> {
  const stream = new RemoteStream(io, opts, id, store);
  stream.seed(known);
  return stream.run();
}

class RemoteStream {
  private readonly seen = new Set<string>();
  /** The last event in the log: the next one received is appended after it. */
  private head: string | undefined;
  private readonly events: Record<string, unknown>[] = [];
  private lastTimestamp: string | undefined;
  private status: RemoteStatus = 'running';
  private answering = false;
  /** The server said it waits before the held action reached us: ask when it comes. */
  private heldToCome = false;
  private link: WebSocketLink | undefined;
  private settle!: (code: number) => void;
  private writes: Promise<void> = Promise.resolve();
  private sendState: 'none' | 'pending' | 'sending' | 'sent';
  private readonly preview: RemoteReplyPreview;

  constructor(
    private readonly io: CliIo,
    private readonly opts: RemoteStreamOptions,
    private readonly id: string,
    private readonly store: ConversationStore,
  ) {
    this.sendState = opts.send ? 'pending' : 'none';
    this.preview = new RemoteReplyPreview(opts.delta);
  }

  /** Events already in the log: not written again, and the stream resumes after the last. */
  seed(known: readonly Record<string, unknown>[]): void {
    for (const e of known) {
      if (typeof e.id !== 'string') continue;
      this.seen.add(e.id);
      this.head = e.id;
      this.events.push(e);
      if (typeof e.timestamp === 'string') this.lastTimestamp = e.timestamp;
    }
  }

  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.settle = resolve));
    const stopInterrupt = this.io.onInterrupt((signal) => void this.pause(signal));
    void this.connect().catch((err: unknown) => this.gone(err));
    const quiet = setInterval(() => void this.checkQuiet(), QUIET_MS);
    quiet.unref();
    return done.finally(() => {
      clearInterval(quiet);
      stopInterrupt();
      this.link?.close();
    });
  }

  /** Ctrl+C or SIGTERM: the conversation pauses on the server, and the run ends with the signal's code. */
  private async pause(signal: StopSignal): Promise<void> {
    if (this.finished || this.pausing) return;
    this.pausing = true;
    const { url } = this.opts.target;
    try {
      // The server pauses between steps: its answer comes once the step in flight has ended.
      await pauseConversation(this.opts.target, this.id);
      const events = await allEvents(this.opts.target, this.id);
      const status = lastStatus(events) ?? this.status;
      const paused = status === 'paused' || status === 'idle';
      const resume = `logbook run --remote ${url} --store ${this.store.dir}`;
      this.io.err(
        paused
          ? `interrupted: the conversation is paused on ${url}; its events so far are in ${this.store.dir}. Resume it with: ${resume}`
          : `interrupted: the conversation was no longer running on ${url} (last status: ${status}); its events are in ${this.store.dir}.`,
      );
    } catch (err) {
      this.io.err(
        `interrupted: pausing on the server failed (${(err as Error).message}); the conversation may go on there.`,
      );
    }
    this.finish(signalExitCode(signal));
  }

  private pausing = false;
  private finished = false;
  private finish(code: number, serverGone = false): void {
    if (this.finished) return;
    this.finished = true;
    this.preview.ended();
    // Every event received is written before the run ends.
    void (async () => {
      // The server's list has what a resumed stream skipped (its resend goes by timestamp, and
      // timestamps are not always in order) and what it wrote just after its last status.
      if (!serverGone && !this.unreadable) await this.fillGaps().catch(() => undefined);
      await this.writes;
    })().then(
      () => this.settle(this.writeFailed ? EXIT.failure : code),
      () => this.settle(EXIT.failure),
    );
  }

  /** The server's events the stream did not bring, in the server's order. */
  private async fillGaps(): Promise<void> {
    for (const e of await allEvents(this.opts.target, this.id)) {
      if (typeof e.id !== 'string' || this.seen.has(e.id)) continue;
      this.seen.add(e.id);
      this.events.push(e);
      if (!this.unreadable) this.write(e);
    }
  }

  private async connect(): Promise<void> {
    const url = eventsSocketUrl(this.opts.target, this.id, this.lastTimestamp);
    this.link = await openWebSocket(url, {
      message: (text) => this.receive(text),
      closed: (why) => {
        if (this.finished) return;
        this.preview.dropped();
        void this.reconnect(why);
      },
    });
    // A link that opened after the run ended would keep the process alive.
    if (this.finished) return this.link.close();
    this.link.send(JSON.stringify({ type: 'auth', session_api_key: this.opts.target.key }));
    if (this.sendState === 'pending') setTimeout(() => void this.sendTask(), SNAPSHOT_MS).unref();
  }

  /** The next task goes to the server, once. */
  private async sendTask(): Promise<void> {
    if (this.sendState !== 'pending' || this.finished) return;
    this.sendState = 'sending';
    try {
      await this.opts.send!();
      this.sendState = 'sent';
    } catch (err) {
      this.io.err(`logbook run --remote: sending the task failed: ${(err as Error).message}`);
      this.finish(EXIT.failure);
    }
  }

  /** The stream dropped: try again (from the last event received) until the server is gone. */
  private async reconnect(why: string): Promise<void> {
    if (/\(4001/.test(why)) {
      this.gone(
        new RemoteError(
          `the agent-server refused the session key on the event stream: check LOGBOOK_REMOTE_KEY.`,
        ),
      );
      return;
    }
    const end = Date.now() + RECONNECT_MS;
    let last: unknown = new Error(why);
    while (Date.now() < end && !this.finished) {
      await new Promise((r) => setTimeout(r, 250));
      try {
        await this.connect();
        this.io.err(`the event stream dropped (${why}); resumed after the last event received`);
        return;
      } catch (err) {
        last = err;
      }
    }
    this.gone(last);
  }

  private gone(err: unknown): void {
    if (this.finished) return;
    const why = err instanceof Error ? err.message : String(err);
    this.io.err(
      `logbook run: the agent-server at ${this.opts.target.url} is gone (${why}). ` +
        `The ${this.seen.size} event(s) received are in ${this.store.dir}; the conversation's state on the ` +
        `server is unknown (last known: ${this.status}).`,
    );
    this.opts.gone?.(why);
    this.finish(EXIT.failure, true);
  }

  private lastFrame = Date.now();

  /**
   * A server can stop a run without a status on the stream (an error it records only in its
   * state): after QUIET_MS of silence while running, it is asked; if it says otherwise, the stream
   * is opened again after the last event received, and the server's snapshot on connecting (a
   * state update, recorded like any other) brings its status.
   */
  private async checkQuiet(): Promise<void> {
    if (this.finished || this.answering || this.pausing || this.status !== 'running' || !this.link) return;
    if (Date.now() - this.lastFrame < QUIET_MS) return;
    const now = await conversationStatus(this.opts.target, this.id).catch(() => undefined);
    if (!now || now === 'running' || this.finished || this.status !== 'running') return;
    this.lastFrame = Date.now();
    this.link.close();
  }

  private receive(text: string): void {
    this.lastFrame = Date.now();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return; // not an event: nothing to record
    }
    const e = value as Record<string, unknown> | null;
    if (!e || typeof e.id !== 'string' || typeof e.kind !== 'string') return;
    if (this.seen.has(e.id)) return; // a resend after a reconnect
    // Partial text: shown live, never recorded; the whole message follows.
    if (/Streaming|Delta/.test(e.kind)) return this.preview.delta(e);
    this.preview.event(e);
    this.seen.add(e.id);
    if (typeof e.timestamp === 'string') this.lastTimestamp = e.timestamp;
    this.events.push(e);
    if (!this.unreadable) this.write(e);
    const line = describeRemoteEvent(e);
    if (line && !this.opts.json) this.io.out(line);
    if (this.opts.json) this.io.out(JSON.stringify(e));
    const status = remoteStatus(e);
    if (status && this.sendState === 'pending') {
      // The status from before the task (the snapshot sent on connecting): the task goes now.
      // Any status after it is the task's run (the server's answer to the send can come later).
      this.status = status;
      void this.sendTask();
    } else if (status) this.onStatus(status);
    else if (this.heldToCome && e.kind === 'ActionEvent') void this.held();
  }

  /** Appends one received event after the one before it, marked with its server and when it came. */
  private write(e: Record<string, unknown>): void {
    const record = chainRemoteEvent(e, this.head, {
      server: this.opts.target.url,
      at: new Date().toISOString(),
    });
    const parsed = parseOwnedEvent(record);
    if (!parsed.ok) {
      // Nothing after it is taken; what came before is still written (finish waits for it).
      this.unreadable = true;
      this.io.err(`logbook run: the server sent an event Logbook cannot read: ${parsed.error.message}`);
      this.finish(EXIT.failure);
      return;
    }
    this.head = parsed.event.id;
    const event = parsed.event as StoredConversationEvent;
    this.writes = this.writes.then(async () => {
      if (this.writeFailed) return;
      const seq = await this.store.append(event, { durable: true });
      this.opts.appended?.(event, seq);
    });
    this.writes.catch((err: unknown) => this.failWrite(`writing the log failed: ${(err as Error).message}`));
  }

  private writeFailed = false;
  private unreadable = false;
  private failWrite(why: string): void {
    if (this.writeFailed) return;
    this.writeFailed = true;
    this.writes = Promise.resolve();
    this.io.err(`logbook run: ${why}`);
    this.finish(EXIT.failure);
  }

  private onStatus(status: RemoteStatus): void {
    this.status = status;
    this.heldToCome = false;
    // The server writes its last updates just after the status: give them a moment to arrive.
    if (status === 'finished') setTimeout(() => this.finish(EXIT.ok), SETTLE_MS);
    else if (status === 'error' || status === 'stuck')
      setTimeout(() => this.finish(EXIT.agentError), SETTLE_MS);
    else if (status === 'waiting_for_confirmation') void this.held();
    else if (this.opts.endWhenStopped && (status === 'paused' || status === 'idle'))
      setTimeout(() => this.finish(EXIT.ok), SETTLE_MS);
  }

  /** What a held action does, with the server's rating and Logbook's own (and its reasons). */
  private heldLine(action: Record<string, unknown>): string {
    const what = describeRemoteEvent(action) ?? 'run an action';
    return `${what}\n  ${remoteRiskText(remoteRisk(action, this.opts.remoteDir))}`;
  }

  private async held(): Promise<void> {
    // Two updates can both say it waits (the status, then the full state): ask once.
    if (this.answering || this.finished) return;
    const held = heldActions(this.events);
    // The status can overtake the action it is about (the stream does not keep their order).
    this.heldToCome = held.length === 0;
    if (this.heldToCome) return;
    const verdict = this.opts.gate ? gateHeld(held, this.opts.gate) : undefined;
    if (verdict && verdict.kind !== 'ask') return this.answer(verdict);
    if (!this.opts.askInPlace || !this.io.ask) {
      this.io.err(
        `${held.length} action(s) wait for confirmation on the server; the conversation stays there, waiting.`,
      );
      for (const action of held) this.io.err(`  ${this.heldLine(action)}`);
      this.finish(EXIT.waiting);
      return;
    }
    this.answering = true;
    try {
      for (const action of held) {
        const answer = await this.io.ask(
          `The agent wants to: ${this.heldLine(action)}\nApprove? [y/N, or a reason to reject] `,
        );
        if (answer === undefined) return this.finish(EXIT.waiting);
        const yes = /^\s*y(es)?\s*$/i.test(answer);
        await respondToConfirmation(this.opts.target, this.id, {
          accept: yes,
          ...(yes || !answer.trim() || /^\s*no?\s*$/i.test(answer) ? {} : { reason: answer.trim() }),
        });
        // The rejected action's reason goes to the model, and the agent goes on, as in a local run.
        if (!yes) await runConversation(this.opts.target, this.id);
        // The server answers every held action at once.
        break;
      }
    } catch (err) {
      this.gone(err);
    } finally {
      this.answering = false;
    }
  }

  /** Logbook's own answer (its rules, plan mode), sent as the user's would be; after a rejection the agent goes on. */
  private async answer(verdict: Exclude<GateVerdict, { kind: 'ask' }>): Promise<void> {
    this.answering = true;
    try {
      const accept = verdict.kind === 'accept';
      this.io.err(verdict.line);
      await respondToConfirmation(this.opts.target, this.id, {
        accept,
        ...(verdict.kind === 'reject' ? { reason: verdict.reason } : {}),
      });
      if (!accept) await runConversation(this.opts.target, this.id);
    } catch (err) {
      this.gone(err);
    } finally {
      this.answering = false;
    }
  }
}
