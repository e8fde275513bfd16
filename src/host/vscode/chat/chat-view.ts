// The chat panel's host side. `ChatController` binds one webview (the sidebar view or an editor tab)
// to the ChatBackend: it validates every message from the webview (schema, then intent guard) before
// calling the backend, and sends the webview only deltas: events after the last seq it holds, header
// changes and stream deltas. Only type imports of 'vscode' here, so the controller runs in unit tests.
import type * as vscode from 'vscode';
import { checkIntent } from '../../../protocol/intent-guard';
import {
  type ConversationHeader,
  type HostMessage,
  isEventJson,
  LIMITS,
  type MentionItem,
  parseWebviewMessage,
  type StreamDelta,
  TimelinePoint,
  type ViewEvent,
} from '../../../protocol/messages';
import type { ChatBackend, SequencedEvent } from './chat-backend';
import { performIntent } from './chat-intents';
import { clampHeader, splitDelta, unreadable } from './chat-view-limits';
import { renderWebviewHtml, type WebviewL10n } from './webview-html';
import { ChildEventsSync } from '../agents/child-events-sync';

/** Events per message during a resync: keeps each postMessage small enough to clone quickly. */
export const SYNC_CHUNK = 1_000;
/**
 * A view starting from nothing gets at most this many of the newest events; "Show earlier events"
 * brings the rest a page at a time. The panel's part of opening a long conversation then costs the
 * same as a short one's, and the webview never has to hold a whole 100k-event log. One message's
 * worth: most of a long conversation's open time in VS Code is copying the window into the webview
 * (2,000 events of a generated 100k log were 6.5 MiB and took about 0.9 s to arrive and render).
 */
export const VIEW_WINDOW = SYNC_CHUNK;
/** One page of "Show earlier events": one message of the size a resync chunk has. */
export const EARLIER_PAGE = SYNC_CHUNK;

/** The part of vscode.Webview the controller uses. */
export interface WebviewPort {
  postMessage(message: unknown): Thenable<boolean>;
  readonly onDidReceiveMessage: vscode.Event<unknown>;
}

type Log = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;

export class ChatController implements vscode.Disposable {
  /** Conversation the webview displays (after our last 'conversation' message), and the last seq sent. */
  private shownId: string | undefined;
  private sentSeq = -1;
  /** False while the webview is hidden or not yet loaded: posts would be lost, 'ready' resyncs. */
  private live = false;
  /** Bumped by every resync so a slow eventsAfter from an older one is ignored. */
  private generation = 0;
  private pumping = false;
  private appendedWhilePumping = false;
  private streamBuffer: { conversationId: string; delta: StreamDelta } | undefined;
  private streamTimer: ReturnType<typeof setTimeout> | undefined;
  /** The timeline position waiting to be computed, and whether one is being computed. */
  private nextSeek: { conversationId: string; requestId: number; seq: number } | undefined;
  private seeking = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** A delegated agent's card to reveal once its conversation is shown (and the view is live). */
  private pendingReveal: { conversationId: string; childIds: string[] } | undefined;
  /** The shown conversation's delegated agents' events. */
  private readonly children = new ChildEventsSync(
    {
      childEventsAfter: (id, child, after) =>
        this.backend.childEventsAfter?.(id, child, after) ?? Promise.resolve([]),
    },
    (m) => this.post(m),
    (m) => this.log.warn(m),
  );

  constructor(
    private readonly webview: WebviewPort,
    private readonly backend: ChatBackend,
    private readonly log: Log,
  ) {
    this.disposables.push(
      webview.onDidReceiveMessage((raw) => this.receive(raw)),
      backend.onDidAppend((e) => this.onAppend(e.conversationId, e.events)),
      backend.onDidChangeActive(() => this.onActiveChanged()),
      backend.onDidChangeHeader((h) => this.onHeader(h)),
      backend.onDidStream((e) => this.onStream(e.conversationId, e.delta)),
    );
    const children = backend.onDidAppendChild;
    if (children && backend.childEventsAfter)
      this.disposables.push(
        children((e) => {
          if (this.live) this.children.onAppend(e.conversationId, e.childId, e.events);
        }),
      );
    if (backend.onDidRevealChild)
      this.disposables.push(
        backend.onDidRevealChild((target) => {
          this.pendingReveal = { conversationId: target.conversationId, childIds: [...target.childIds] };
          this.flushReveal();
        }),
      );
    if (backend.onDidReplay)
      this.disposables.push(
        backend.onDidReplay((e) => {
          if (this.live && e.conversationId === this.shownId)
            this.post({
              type: 'replay',
              conversationId: e.conversationId,
              ...(e.report ? { report: e.report } : {}),
            });
        }),
      );
  }

  /** The webview was hidden (its document is destroyed) or shown again (it will send 'ready'). */
  setVisible(visible: boolean): void {
    if (!visible) this.live = false;
  }

  receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.log.warn(`Chat view: dropped an invalid message ${parsed.error}`);
      return;
    }
    const msg = parsed.value;
    if (msg.type === 'ready') {
      void this.resync(msg.conversationId, msg.lastSeq);
      return;
    }
    if (msg.type === 'loadEarlier') {
      if (msg.conversationId !== this.shownId) {
        this.log.warn(
          `Chat view: refused "loadEarlier": conversation ${msg.conversationId} is not the one shown`,
        );
        return;
      }
      void this.sendEarlier(msg.conversationId, msg.beforeSeq);
      return;
    }
    if (msg.type === 'mentionQuery') {
      void this.answerMention(msg.requestId, msg.query, msg.prompts === true);
      return;
    }
    if (msg.type === 'loadImage') {
      if (msg.conversationId !== this.shownId) return;
      void this.sendImage(msg.conversationId, msg.url);
      return;
    }
    if (msg.type === 'timelineSeek') {
      if (msg.conversationId !== this.shownId) {
        this.log.warn(
          `Chat view: refused "timelineSeek": conversation ${msg.conversationId} is not the one shown`,
        );
        return;
      }
      this.seek(msg.conversationId, msg.requestId, msg.seq);
      return;
    }
    const shown = this.shownId;
    const header = shown !== undefined ? this.readHeader(shown) : undefined;
    const check = checkIntent(msg, shown, header);
    if (!check.ok) {
      this.log.warn(`Chat view: refused "${msg.type}": ${check.reason}`);
      return;
    }
    performIntent(this.backend, msg).catch((err: unknown) => {
      this.log.error(`Chat view: "${msg.type}" failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  /** Completion for a mention being typed; a failure answers with no items (the list closes). */
  private async answerMention(requestId: number, query: string, prompts: boolean): Promise<void> {
    let items: MentionItem[] = [];
    try {
      items = (await this.backend.mentionCandidates(query, prompts)).slice(0, LIMITS.mentionItems);
    } catch (err) {
      this.log.warn(
        `Chat view: mention completion failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (this.live) this.post({ type: 'mentionResults', requestId, items });
  }

  /** A stored image of the shown conversation, for its thumbnail. */
  private async sendImage(conversationId: string, url: string): Promise<void> {
    const dataUrl = await this.backend.imageDataUrl(conversationId, url).catch(() => undefined);
    if (this.live && conversationId === this.shownId)
      this.post({
        type: 'image',
        url,
        dataUrl: dataUrl && dataUrl.length <= LIMITS.imageBase64 + 100 ? dataUrl : null,
      });
  }

  /**
   * Answers the newest timeline position only: while one point is computed, a later request
   * replaces the waiting one (holding an arrow key asks for many), so the view never lags behind.
   */
  private seek(conversationId: string, requestId: number, seq: number): void {
    this.nextSeek = { conversationId, requestId, seq };
    if (this.seeking) return;
    this.seeking = true;
    void (async () => {
      try {
        for (let s = this.nextSeek; s; s = this.nextSeek) {
          this.nextSeek = undefined;
          const answer = await this.pointFor(s.conversationId, s.seq);
          if (this.live && s.conversationId === this.shownId)
            this.post({
              type: 'timelinePoint',
              conversationId: s.conversationId,
              requestId: s.requestId,
              ...answer,
            });
        }
      } finally {
        this.seeking = false;
      }
    })();
  }

  private async pointFor(
    conversationId: string,
    seq: number,
  ): Promise<{ point: TimelinePoint | null; error?: string }> {
    try {
      const point = await this.backend.timelinePoint(conversationId, seq);
      // The host's own answer is checked like any message: a bad point is an error, not a broken view.
      const checked = TimelinePoint.safeParse(point);
      if (checked.success) return { point: checked.data };
      this.log.warn(`Chat view: timeline point ${seq} does not fit the protocol`);
      return { point: null, error: `The state at event ${seq + 1} could not be shown.` };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn(`Chat view: timeline point ${seq}: ${message}`);
      return { point: null, error: message.slice(0, LIMITS.title) };
    }
  }

  /**
   * (Re)loads the webview: header, then every event after what it already holds, in chunks. A view
   * that holds nothing of this conversation, or too little to build on, gets only the newest
   * VIEW_WINDOW events (a 'window' message first tells it where they start).
   */
  private async resync(viewConversationId: string | null, viewLastSeq: number): Promise<void> {
    const gen = ++this.generation;
    const id = this.backend.activeId;
    const header = id !== undefined ? this.readHeader(id) : undefined;
    if (id === undefined || !header) {
      this.live = true;
      this.shownId = undefined;
      this.sentSeq = -1;
      this.post({ type: 'conversation', header: null, ...this.defaultMode() });
      return;
    }
    let count: number;
    try {
      count = await this.backend.eventCount(id);
    } catch (err) {
      this.log.error(`Chat view: could not read events: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    // Until the view is told what it shows, appends are not posted (the pump below fetches them).
    if (gen !== this.generation) return;
    this.live = true;
    this.shownId = id;
    // The view drops what it held of another conversation's children; a reload holds none.
    this.children.show(undefined);
    this.children.show(id);
    const held = viewConversationId === id ? viewLastSeq : -1;
    const start = Math.max(0, count - VIEW_WINDOW);
    this.post({ type: 'conversation', header: this.readHeader(id) ?? header, ...this.defaultMode() });
    if (held >= 0 && held >= start - 1) {
      this.sentSeq = held;
    } else {
      this.sentSeq = start - 1;
      this.post({ type: 'window', conversationId: id, firstSeq: start });
    }
    await this.pump();
    this.children.onHeader(this.readHeader(id) ?? header);
    this.flushReveal();
  }

  /** Posts the card to reveal once the view shows its conversation; another conversation shown drops it. */
  private flushReveal(): void {
    const r = this.pendingReveal;
    if (!r || !this.live || this.shownId === undefined) return;
    if (r.conversationId !== this.shownId) {
      // Still on its way to the view (a resync follows the active change): kept until it arrives.
      if (this.backend.activeId !== r.conversationId) this.pendingReveal = undefined;
      return;
    }
    this.pendingReveal = undefined;
    this.post({
      type: 'revealChild',
      conversationId: r.conversationId,
      childIds: r.childIds.slice(0, LIMITS.children),
    });
  }

  /** Answers "Show earlier events": the page of events just before the first one the view holds. */
  private async sendEarlier(id: string, beforeSeq: number): Promise<void> {
    try {
      const events = await this.backend.eventsBefore(id, beforeSeq, EARLIER_PAGE);
      if (id !== this.shownId || !this.live || events.length === 0) return;
      this.post({
        type: 'earlier',
        conversationId: id,
        events: events.map((e) => ({
          seq: e.seq,
          event: isEventJson(e.event) ? e.event : unreadable(e.seq),
        })),
      });
    } catch (err) {
      this.log.error(
        `Chat view: could not read earlier events: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** Sends every event after `sentSeq`; repeats while appends arrived during the fetch. */
  private async pump(): Promise<void> {
    if (this.pumping) {
      this.appendedWhilePumping = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.appendedWhilePumping = false;
        const id = this.shownId;
        const gen = this.generation;
        if (id === undefined) return;
        const events = await this.backend.eventsAfter(id, this.sentSeq);
        if (gen !== this.generation || id !== this.shownId || !this.live) {
          // A newer resync started meanwhile: let it send (it found `pumping` set, so loop again).
          this.appendedWhilePumping = this.live && this.shownId !== undefined;
          continue;
        }
        this.postEvents(id, events);
      } while (this.appendedWhilePumping);
    } catch (err) {
      this.log.error(`Chat view: could not read events: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.pumping = false;
    }
  }

  private onAppend(conversationId: string, events: readonly SequencedEvent[]): void {
    if (!this.live || conversationId !== this.shownId) return;
    if (this.pumping) {
      this.appendedWhilePumping = true;
      return;
    }
    this.postEvents(conversationId, events);
  }

  /** Posts only events the webview does not hold yet (seq > sentSeq), in ascending order, chunked. */
  private postEvents(conversationId: string, events: readonly SequencedEvent[]): void {
    const fresh: ViewEvent[] = [];
    let last = this.sentSeq;
    for (const e of events) {
      if (e.seq > last) {
        fresh.push({ seq: e.seq, event: isEventJson(e.event) ? e.event : unreadable(e.seq) });
        last = e.seq;
      }
    }
    if (fresh.length === 0) return;
    this.flushStream();
    for (let i = 0; i < fresh.length; i += SYNC_CHUNK) {
      this.post({ type: 'events', conversationId, events: fresh.slice(i, i + SYNC_CHUNK) });
    }
    this.sentSeq = last;
  }

  private onActiveChanged(): void {
    if (!this.live) return;
    const id = this.backend.activeId;
    if (id === this.shownId) return;
    // A different conversation: the webview drops what it holds and receives the new one from seq 0.
    void this.resync(null, -1);
  }

  private onHeader(header: ConversationHeader): void {
    if (!this.live || header.id !== this.shownId) return;
    this.flushStream();
    this.post({ type: 'header', header: clampHeader(header) });
    this.children.onHeader(header);
  }

  /** Coalesces consecutive text deltas of one kind: a fast model can send hundreds per second. */
  private onStream(conversationId: string, delta: StreamDelta): void {
    if (!this.live || conversationId !== this.shownId) return;
    const buf = this.streamBuffer;
    if (
      buf &&
      buf.conversationId === conversationId &&
      (delta.type === 'text' || delta.type === 'reasoning') &&
      buf.delta.type === delta.type &&
      buf.delta.text.length + delta.text.length <= LIMITS.streamText
    ) {
      buf.delta = { type: delta.type, text: buf.delta.text + delta.text };
    } else {
      this.flushStream();
      this.streamBuffer = { conversationId, delta: splitDelta(delta) };
    }
    this.streamTimer ??= setTimeout(() => this.flushStream(), 16);
  }

  private flushStream(): void {
    if (this.streamTimer !== undefined) clearTimeout(this.streamTimer);
    this.streamTimer = undefined;
    const buf = this.streamBuffer;
    this.streamBuffer = undefined;
    if (buf && buf.conversationId === this.shownId && this.live)
      this.post({ type: 'stream', conversationId: buf.conversationId, delta: buf.delta });
  }

  private defaultMode(): { defaultMode?: 'plan' | 'act'; demoTasks?: string[] } {
    const mode = this.backend.defaultMode?.();
    const demo = this.backend.demoTasks?.();
    return { ...(mode ? { defaultMode: mode } : {}), ...(demo?.length ? { demoTasks: [...demo] } : {}) };
  }

  private readHeader(id: string): ConversationHeader | undefined {
    const h = this.backend.header(id);
    return h ? clampHeader(h) : undefined;
  }

  private post(msg: HostMessage): void {
    void this.webview.postMessage(msg).then(undefined, (err: unknown) => {
      this.log.warn(`Chat view: could not post "${msg.type}": ${String(err)}`);
    });
  }

  dispose(): void {
    this.live = false;
    if (this.streamTimer !== undefined) clearTimeout(this.streamTimer);
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

/** The sidebar chat view. Constructor shape is fixed: the extension wires it with its backend. */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'logbook.chat';
  private controller: ChatController | undefined;
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly backend: ChatBackend,
    private readonly log: vscode.LogOutputChannel,
    /** The chat's words in the display language (English without it). */
    private readonly l10n?: () => WebviewL10n,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const dist = this.extensionUri.with({ path: `${this.extensionUri.path}/dist` });
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    this.controller?.dispose();
    const controller = new ChatController(view.webview, this.backend, this.log);
    this.controller = controller;
    this.view = view;
    view.onDidChangeVisibility(() => controller.setVisible(view.visible));
    view.onDidDispose(() => {
      controller.dispose();
      if (this.controller === controller) this.controller = undefined;
      if (this.view === view) this.view = undefined;
    });
    view.webview.html = renderWebviewHtml(
      view.webview,
      this.extensionUri,
      'Logbook',
      'sidebar',
      this.l10n?.(),
      this.backend.demoTasks?.(),
    );
  }

  /** Whether the chat is on screen in the sidebar now. */
  get inView(): boolean {
    return this.view?.visible === true;
  }

  dispose(): void {
    this.controller?.dispose();
    this.controller = undefined;
  }
}
