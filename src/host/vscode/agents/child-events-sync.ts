// Keeps the chat's copy of the shown conversation's delegated agents: each child's events go to the
// webview once in full (when the header first names the child) and then as they are appended, each
// at most once (by seq). Reset when the chat shows another conversation.
import { isEventJson, LIMITS, type HostMessage, type ViewEvent } from '../../../protocol/messages';
import type { ChildAgentView, ConversationHeader, SequencedEvent } from '../chat/chat-backend';

export interface ChildEventSource {
  childEventsAfter(conversationId: string, childId: string, afterSeq: number): Promise<SequencedEvent[]>;
}

export class ChildEventsSync {
  private shown: string | undefined;
  /** The last seq sent of each child (-1 while its first fetch is under way). */
  private readonly sent = new Map<string, number>();

  constructor(
    private readonly source: ChildEventSource,
    private readonly post: (msg: HostMessage) => void,
    private readonly warn: (message: string) => void,
  ) {}

  /** The chat shows `conversationId` now (or nothing): what was sent for another is forgotten. */
  show(conversationId: string | undefined): void {
    if (conversationId === this.shown) return;
    this.shown = conversationId;
    this.sent.clear();
  }

  /** A header of the shown conversation: children not sent yet get their events. */
  onHeader(header: ConversationHeader): void {
    if (header.id !== this.shown) return;
    for (const c of header.children ?? [])
      if (!this.sent.has(c.conversationId)) void this.fetch(c.conversationId);
  }

  onAppend(conversationId: string, childId: string, events: readonly SequencedEvent[]): void {
    if (conversationId !== this.shown) return;
    if (!this.sent.has(childId)) {
      void this.fetch(childId);
      return;
    }
    this.send(childId, events);
  }

  private async fetch(childId: string): Promise<void> {
    const parent = this.shown;
    if (!parent) return;
    this.sent.set(childId, -1);
    try {
      const events = await this.source.childEventsAfter(parent, childId, -1);
      if (parent === this.shown) this.send(childId, events);
    } catch (err) {
      this.sent.delete(childId);
      this.warn(`Chat view: could not read a delegated agent's events: ${String(err)}`);
    }
  }

  private send(childId: string, events: readonly SequencedEvent[]): void {
    const parent = this.shown;
    if (!parent) return;
    const last = this.sent.get(childId) ?? -1;
    const fresh: ViewEvent[] = events
      .filter((e) => e.seq > last && isEventJson(e.event))
      .map((e) => ({ seq: e.seq, event: e.event as ViewEvent['event'] }));
    if (!fresh.length) return;
    this.sent.set(childId, Math.max(last, ...fresh.map((e) => e.seq)));
    for (let i = 0; i < fresh.length; i += LIMITS.eventsPerMessage)
      this.post({
        type: 'childEvents',
        conversationId: parent,
        childId,
        events: fresh.slice(i, i + LIMITS.eventsPerMessage),
      });
  }
}

/** The header's children within the protocol's bounds. */
export function clampChildren(children: readonly ChildAgentView[]): ChildAgentView[] {
  const text = (s: string, max: number) => s.slice(0, max);
  return children
    .filter((c) => c.conversationId.length <= LIMITS.id)
    .slice(0, LIMITS.children)
    .map((c) => ({
      conversationId: c.conversationId,
      ...(c.parentConversationId && c.parentConversationId.length <= LIMITS.id
        ? { parentConversationId: c.parentConversationId }
        : {}),
      parentEventId: c.parentEventId && c.parentEventId.length <= LIMITS.id ? c.parentEventId : null,
      agentName: text(c.agentName, LIMITS.kind),
      branch: text(c.branch, LIMITS.kind),
      task: text(c.task, LIMITS.title),
      // What its definition did not get: the card says so (effective-grant.ts).
      ...(c.narrowed?.length
        ? { narrowed: c.narrowed.slice(0, LIMITS.actionIds).map((n) => text(n, LIMITS.title)) }
        : {}),
      ...(c.model ? { model: text(c.model, LIMITS.title) } : {}),
      status: text(c.status, LIMITS.status),
      cost: Number.isFinite(c.cost) && c.cost > 0 ? Math.min(c.cost, 1e12) : 0,
      tokens: Number.isFinite(c.tokens) && c.tokens > 0 ? Math.floor(c.tokens) : 0,
      pendingActionIds: c.pendingActionIds.filter((id) => id.length <= LIMITS.id).slice(0, LIMITS.actionIds),
      pendingRisks: c.pendingRisks
        .filter((r) => r.actionId.length <= LIMITS.id)
        .slice(0, LIMITS.actionIds)
        .map((r) => ({ ...r, reason: r.reason.slice(0, LIMITS.riskReason) })),
    }));
}
