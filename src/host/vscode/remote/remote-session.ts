// A conversation whose agent runs on an OpenHands agent-server, in the chat. Its log is the one
// `logbook run --remote` writes (the same folder layout, remote.json, every event received marked
// with its server): the CLI's stream writes it here too, and each event appended goes to the chat
// as a local conversation's does. Between two streams the conversation waits on the server; each
// answer (Confirm, Reject, Resume, a new message) is sent, then a stream runs until the next stop.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { Event } from '../../../core/events';
import { isCorruptRecord, type Slot } from '../../../core/log/event-store';
import { type AgentMode, type ConversationState, IncrementalState } from '../../../core/state';
import type { ConversationStore } from '../../node/session/conversation-store';
import type { CliIo, StopSignal } from '../../node/cli/io';
import { EXIT } from '../../node/cli/exit-codes';
import {
  type AgentServerTarget,
  RemoteError,
  conversationStatus,
  interruptConversation,
  normalizeServerUrl,
  pauseConversation,
  respondToConfirmation,
  runConversation,
  sendUserMessage,
  setConfirmationPolicy,
  startConversation,
} from '../../node/remote/agent-server-api';
import type { RemoteDelta } from '../../node/remote/remote-deltas';
import { writeRemoteOrigin } from '../../node/remote/remote-origin';
import { forkOnServer, recordFork } from '../../node/remote/remote-fork-record';
import { streamRemote } from '../../node/remote/remote-run';
import { remoteRisk, type RemoteOrigin } from '../../node/remote/remote-risk';
import type { RemoteGate } from '../../node/remote/remote-gate';
import { heldActions, lastStatus } from '../../node/remote/remote-status';
import type { RemoteApplyResult } from '../../node/remote/remote-apply';
import { applyRemoteChanges, disposeRemoteReview, reviewRemoteChanges } from './remote-review';
import type { ConversationHeader, SequencedEvent } from '../chat/chat-backend';

export interface RemoteSessionDeps {
  dir: string;
  /** remote.json; its mode changes with setMode. */
  origin: RemoteOrigin;
  store: ConversationStore;
  /** The server's session key (from the editor's secret storage, asked once); undefined: none given. */
  key: () => Promise<string | undefined>;
  /** The server refused the key: it is forgotten, so the next answer asks again. */
  refused: () => Promise<void>;
  log: { info(m: string): void; warn(m: string): void };
  onAppend: (events: SequencedEvent[]) => void;
  /** The reply's text while the server streams it: the chat's live preview, never in the log. */
  onStream: (delta: RemoteDelta) => void;
  onHeader: () => void;
  /** A stream ended on something the user must read (the server gone, a refused key). */
  onProblem: (message: string) => void;
  /** The header's name of a server that has not answered since `since` (in the editor's words). */
  unreachableLabel?: (server: string, since: Date, everySeconds: number) => string;
  /** The user's confirmation settings now: Logbook's rules answer what they let run unasked. */
  confirmation: () => Pick<RemoteGate, 'confirmation' | 'allowRules'>;
  ownFolders: readonly string[]; // the window's own (storage, logs): Apply writes nowhere there
}

const STATUS_LINE = /^logbook run: /;
const RESUME_WAIT_MS = 30_000;
/** How often a server that went away is asked again whether it answers. */
export const RETRY_MS = 3_000;

// This module is a bundle of its own (scripts/lazy-bundles.mjs), loaded when a remote conversation
// is first started or opened; what the window needs of the API comes through it.
export { disposeRemoteReview, forkOnServer, normalizeServerUrl, recordFork, startConversation };

/** The server refused the key (a class is told apart by name across bundles, not by instanceof). */
export function refusedKey(err: unknown): boolean {
  return err instanceof RemoteError && (err.status === 401 || err.status === 403);
}

export class RemoteSession {
  readonly id: string;
  readonly dir: string;
  private readonly known: Record<string, unknown>[] = [];
  private readonly state: IncrementalState;
  private streaming: Promise<number> | undefined;
  private interrupt: ((signal: StopSignal) => void) | undefined;
  /** Logbook's answers in the stream under way (its mode follows setMode). */
  private gate: RemoteGate | undefined;
  /** What went wrong last (the server gone, a refused key), shown until the next stream. */
  private problem: string | undefined;
  /** Since when the server has not answered; undefined while it does (as far as known). */
  private unreachableSince: Date | undefined;
  /** Why the stream in flight found the server gone (set by the stream, read when it ends). */
  private goneWhy: string | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The server and key last used: what the retries ask with (never a prompt in the background). */
  private lastTarget: AgentServerTarget | undefined;
  private disposed = false;

  private constructor(
    private readonly deps: RemoteSessionDeps,
    records: readonly Slot<StoredConversationEvent>[],
  ) {
    this.id = deps.origin.conversation_id;
    this.dir = deps.dir;
    this.state = new IncrementalState(this.id);
    for (const r of records) if (!isCorruptRecord(r)) this.take(r as Event);
  }

  static async open(deps: RemoteSessionDeps): Promise<RemoteSession> {
    return new RemoteSession(deps, await deps.store.slice());
  }

  private take(e: Event): void {
    this.known.push(e as unknown as Record<string, unknown>);
    this.state.apply(e);
  }

  get server(): string {
    return this.deps.origin.server;
  }

  get conversationState(): ConversationState {
    return this.state.state;
  }

  /** The server's status as its events last said, or `running` while a stream waits for the first. */
  get status(): string {
    if (this.problem) return 'error';
    return lastStatus(this.known) ?? (this.streaming ? 'running' : 'idle');
  }

  get busy(): boolean {
    return this.streaming !== undefined;
  }

  header(): ConversationHeader {
    const s = this.state.state;
    const t = s.metrics.total;
    const waiting = !this.streaming && this.status === 'waiting_for_confirmation';
    const held = waiting ? heldActions(this.known) : [];
    return {
      id: this.id,
      title: s.title ?? 'Remote conversation',
      status: this.status,
      promptTokens: t.promptTokens,
      completionTokens: t.completionTokens,
      cachedTokens: t.cachedTokens,
      reasoningTokens: t.reasoningTokens,
      cost: t.cost,
      pendingActionIds: held.map((a) => String(a.id)),
      // Logbook's rules' rating and why; the card puts the server's own (security_risk) beside it.
      pendingRisks: held.map((a) => {
        const r = remoteRisk(a, this.deps.origin.working_dir);
        return { actionId: String(a.id), risk: r.logbook, reason: r.reasons.join('; '), byRules: true };
      }),
      readOnly: false,
      mode: this.mode,
      model: { name: this.serverLabel(), provider: 'remote' },
    };
  }

  /** The server's name in the header; while it does not answer, since when (the chat's clear state). */
  private serverLabel(): string {
    const since = this.unreachableSince;
    if (!since) return this.server;
    return (
      this.deps.unreachableLabel?.(this.server, since, RETRY_MS / 1000) ??
      `${this.server}: unreachable since ${since.toISOString()}, retrying every ${RETRY_MS / 1000} s`
    );
  }

  /** Since when the server has not answered, or undefined. */
  get unreachable(): Date | undefined {
    return this.unreachableSince;
  }

  /** What the user was last told went wrong, or undefined. */
  get problemText(): string | undefined {
    return this.problem;
  }

  get eventCount(): number {
    return this.deps.store.length;
  }

  async eventsAfter(afterSeq: number): Promise<SequencedEvent[]> {
    const from = Math.max(0, afterSeq + 1);
    return this.viewOf(from, await this.deps.store.slice(from));
  }

  async eventsBefore(beforeSeq: number, max: number): Promise<SequencedEvent[]> {
    const to = Math.min(Math.max(0, beforeSeq), this.deps.store.length);
    const from = Math.max(0, to - Math.max(0, max));
    return this.viewOf(from, await this.deps.store.slice(from, to));
  }

  private viewOf(from: number, slots: readonly Slot<StoredConversationEvent>[]): SequencedEvent[] {
    return slots.map((slot, i) => ({
      seq: from + i,
      event: JSON.parse(JSON.stringify(slot)) as SequencedEvent['event'],
    }));
  }

  /**
   * Streams the events of a conversation just started on the server (none received yet); `task`,
   * its first message, is sent once the stream is open, so the chat sees all of its run.
   */
  follow(target: AgentServerTarget, task?: string): void {
    this.stream(target, task === undefined ? {} : { send: () => sendUserMessage(target, this.id, task) });
  }

  async approve(ids: readonly string[]): Promise<void> {
    await this.answer(ids, true);
  }

  async reject(ids: readonly string[], reason: string): Promise<void> {
    await this.answer(ids, false, reason);
  }

  private async answer(ids: readonly string[], accept: boolean, reason?: string): Promise<void> {
    const held = heldActions(this.known).map((a) => String(a.id));
    if (!ids.some((id) => held.includes(id))) return;
    await this.send(async (target) => {
      // The server answers every held action at once.
      await respondToConfirmation(target, this.id, {
        accept,
        ...(reason?.trim() ? { reason: reason.trim() } : {}),
      });
      // After a rejection the server stops; the agent goes on with the reason, as in a local run.
      if (!accept) await runConversation(target, this.id);
    });
  }

  /** Resume (or continue): the server runs the conversation on. */
  async resume(): Promise<void> {
    await this.send(async (target) => {
      // Paused while a model call was in flight, the server finishes that step before it can run
      // again, and answers 409 until then: Resume waits for it (up to RESUME_WAIT_MS).
      for (let waited = 0; ; waited += 500) {
        try {
          return await runConversation(target, this.id);
        } catch (err) {
          if (!(err instanceof RemoteError && err.status === 409) || waited >= RESUME_WAIT_MS) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    });
  }

  /** Plan or act, as remote.json records it. */
  get mode(): AgentMode {
    return this.deps.origin.mode ?? 'act';
  }

  /**
   * Plan mode: the server holds every action, and Logbook rejects what writes or runs (remote-gate.ts);
   * act gives the server the user's own policy back. Takes effect at the next action the server holds.
   */
  async setMode(mode: AgentMode): Promise<void> {
    if (mode === this.mode) return;
    const policy = mode === 'plan' ? 'always' : this.deps.confirmation().confirmation;
    await this.withTarget((target) => setConfirmationPolicy(target, this.id, policy));
    const { mode: _was, ...rest } = this.deps.origin;
    this.deps.origin = mode === 'plan' ? { ...rest, mode } : rest;
    writeRemoteOrigin(this.dir, this.deps.origin);
    // A stream under way answers the next held action by the new mode.
    if (this.gate) this.gate.mode = mode;
    this.deps.onHeader();
  }

  /** A new message from the user (in the composer's mode): posted to the conversation, which runs on it. */
  async sendMessage(text: string, mode?: AgentMode): Promise<void> {
    if (mode) await this.setMode(mode);
    await this.send((target) => sendUserMessage(target, this.id, text));
  }

  /** Pause: the server stops between two steps and records a PauseEvent, which the log receives. */
  async pause(): Promise<void> {
    if (this.interrupt) return this.interrupt('SIGINT');
    await this.withTarget((target) => pauseConversation(target, this.id));
  }

  /**
   * Stop: `/interrupt`, which cancels the server's model call in flight (Pause waits for the step to
   * end) and leaves the conversation paused there; the stream then ends as after a Pause, taking
   * the server's last events into the log.
   */
  async stop(): Promise<void> {
    await this.withTarget((target) => interruptConversation(target, this.id));
    this.interrupt?.('SIGINT');
  }

  /** The server's change in its working folder, in the diff editor; resolves to the files changed. */
  async review(): Promise<number> {
    return this.withTarget((target) =>
      reviewRemoteChanges({ id: this.id, origin: this.deps.origin, target }),
    );
  }

  /** The server's change into the local working tree, only when the user asks (remote-review.ts). */
  async applyHere(confirmed = false, links?: readonly string[]): Promise<RemoteApplyResult | undefined> {
    const args = { id: this.id, origin: this.deps.origin, ownFolders: this.deps.ownFolders };
    return this.withTarget((target) => applyRemoteChanges({ ...args, target }, confirmed, links));
  }

  private async withTarget<T>(step: (target: AgentServerTarget) => Promise<T>): Promise<T> {
    const target = await this.target();
    await this.reachable(target);
    try {
      return await step(target);
    } catch (err) {
      if (refusedKey(err)) await this.deps.refused();
      throw this.unreachableError(err);
    }
  }

  private async target(): Promise<AgentServerTarget> {
    const key = await this.deps.key();
    if (!key) throw new Error(`No session key for the agent-server at ${this.server}: nothing was sent.`);
    this.lastTarget = { url: this.server, key };
    return this.lastTarget;
  }

  private async send(step: (target: AgentServerTarget) => Promise<void>): Promise<void> {
    if (this.streaming) await this.streaming;
    const target = await this.target();
    await this.reachable(target);
    // Back from an outage, the stream first catches up with what the server did meanwhile.
    if (this.streaming) await this.streaming;
    try {
      await step(target);
    } catch (err) {
      if (refusedKey(err)) await this.deps.refused();
      throw this.unreachableError(err);
    }
    this.stream(target);
  }

  /**
   * While the server is away, an answer is not sent: it is asked at once whether it is back (then
   * the answer goes), else this fails with since when it is away, instead of waiting on it.
   */
  private async reachable(target: AgentServerTarget): Promise<void> {
    if (!this.unreachableSince) return;
    if (await this.probe(target)) return;
    const message = `${this.unreachableText()} Nothing was sent.`;
    this.deps.onProblem(message);
    throw new RemoteError(message);
  }

  /** A request that could not reach the server: it counts as away from now, said clearly. */
  private unreachableError(err: unknown): unknown {
    if (!(err instanceof RemoteError) || err.status !== undefined || !/cannot be reached/.test(err.message))
      return err;
    this.lost(err.message);
    const message = `${this.unreachableText()} Nothing was sent.`;
    this.deps.onProblem(message);
    return new RemoteError(message);
  }

  private unreachableText(): string {
    const since = (this.unreachableSince ?? new Date()).toISOString();
    return (
      `The agent-server at ${this.server} has not answered since ${since}. Every event received is in ` +
      `the log; Logbook asks it again every ${RETRY_MS / 1000} s and goes on from the last event ` +
      `received once it answers.`
    );
  }

  /** The server went away: said once, then asked again every RETRY_MS until it answers. */
  private lost(why: string): void {
    const first = !this.unreachableSince;
    this.unreachableSince ??= new Date();
    this.problem = `${this.unreachableText()} (${why})`;
    this.deps.log.warn(`Remote conversation ${this.id}: ${this.problem}`);
    if (first) this.deps.onProblem(this.problem);
    this.deps.onHeader();
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.disposed || !this.lastTarget) return;
    const target = this.lastTarget;
    this.retryTimer = setTimeout(() => {
      void this.probe(target).then((back) => {
        this.retryTimer = undefined;
        if (!back && this.unreachableSince) this.scheduleRetry();
      });
    }, RETRY_MS);
  }

  /**
   * Asks the server for the conversation's status. When it answers, the outage ends and a stream
   * catches up from the last event received (each event once), until the server's next stop.
   */
  private async probe(target: AgentServerTarget): Promise<boolean> {
    try {
      await conversationStatus(target, this.id);
    } catch (err) {
      if (refusedKey(err)) {
        this.unreachableSince = undefined;
        this.problem = (err as Error).message;
        await this.deps.refused();
        this.deps.onProblem(this.problem);
        this.deps.onHeader();
        return false;
      }
      return false;
    }
    if (!this.unreachableSince || this.disposed) return true;
    this.deps.log.info(`Remote conversation ${this.id}: the agent-server at ${this.server} answers again`);
    this.unreachableSince = undefined;
    if (!this.streaming) this.stream(target, { catchUp: true });
    return true;
  }

  /** Streams from the last event in the log until the server's next stop. */
  private stream(
    target: AgentServerTarget,
    how: { send?: () => Promise<void>; catchUp?: boolean } = {},
  ): void {
    const { send, catchUp = false } = how;
    this.problem = undefined;
    this.goneWhy = undefined;
    this.lastTarget = target;
    const lines: string[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: (line) => {
        lines.push(line);
        this.deps.log.info(`Remote conversation ${this.id}: ${line}`);
      },
      env: {},
      cwd: this.dir,
      onInterrupt: (handler) => {
        this.interrupt = handler;
        return () => (this.interrupt = undefined);
      },
    };
    const opts = {
      target,
      remoteDir: this.deps.origin.working_dir,
      // The chat asks: the stream stops at a held action and the card's answer starts the next one.
      askInPlace: false,
      gate: (this.gate = {
        mode: this.mode,
        workingDir: this.deps.origin.working_dir,
        ...this.deps.confirmation(),
      }),
      json: false,
      endWhenStopped: catchUp,
      gone: (why: string) => {
        if (!/refused/.test(why)) this.goneWhy = why;
      },
      appended: (event: StoredConversationEvent, seq: number) => {
        this.take(event as Event);
        this.deps.onAppend([{ seq, event: JSON.parse(JSON.stringify(event)) as SequencedEvent['event'] }]);
        this.deps.onHeader();
      },
      delta: (delta: RemoteDelta) => this.deps.onStream(delta),
      ...(send ? { send } : {}),
    };
    this.streaming = streamRemote(io, opts, this.id, this.deps.store, [...this.known]);
    this.deps.onHeader();
    void this.streaming.then(
      (code) => this.ended(code, lines),
      (err: unknown) => this.ended(EXIT.failure, [...lines, String(err)]),
    );
  }

  private ended(code: number, lines: readonly string[]): void {
    this.streaming = undefined;
    if (code === EXIT.failure && this.goneWhy !== undefined && !this.disposed) {
      const why = this.goneWhy;
      this.goneWhy = undefined;
      return this.lost(why);
    }
    if (code === EXIT.failure) {
      const why = lines.filter((l) => STATUS_LINE.test(l) || /agent-server/.test(l)).at(-1) ?? lines.at(-1);
      this.problem = (why ?? 'the event stream ended').replace(STATUS_LINE, '');
      if (/refused the session key/.test(this.problem)) void this.deps.refused();
      this.deps.onProblem(this.problem);
    }
    this.deps.onHeader();
  }

  /** Waits for the stream in flight (if any) to stop. */
  async settled(): Promise<void> {
    await this.streaming;
  }

  /**
   * The window closes: a stream in flight pauses the conversation on the server (as a local run is
   * interrupted), so nothing runs there unwatched; one that waits for an answer keeps waiting.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.retryTimer);
    if (this.interrupt) {
      this.interrupt('SIGTERM');
      await Promise.race([this.streaming, new Promise((r) => setTimeout(r, 2_000))]);
    }
    await this.deps.store.close();
  }
}
