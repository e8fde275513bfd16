/**
 * The View, maintained as events are appended, so the next prompt costs about the same at 10k
 * events as at 1k: each event is paired and converted once. The view is cut into segments at safe
 * boundaries (see boundaries.ts); closed segments are converted by `eventsToMessages` once and
 * their messages kept, only the open tail is converted per prompt. A Condensation, or a forgotten
 * result whose action is already shown, marks the view for one rebuild from the events in memory.
 */
import {
  type ChatMessage,
  type Condensation,
  type CondensationSummaryEvent,
  deepFreeze,
  type Event,
  eventsToMessages,
  isKind,
  isLlmConvertible,
  type LlmConvertibleEvent,
} from '../events';
import { BoundaryTracker } from './boundaries';
import { CallPairing, type CallRole } from './call-pairing';
import { appendMessages, joinMessages } from './message-concat';
import { estimateTokens } from './token-estimate';
import { droppedActions, hasSummary, isKept, summaryEvent, type ViewLike } from './view';

interface Entry {
  e: LlmConvertibleEvent;
  role: CallRole;
}

export class ViewBuilder implements ViewLike {
  /** Every LLM-convertible event appended, with its role: what a rebuild starts from. */
  private readonly log: Entry[] = [];
  private readonly pairing = new CallPairing();
  private readonly forgotten = new Set<string>();
  private readonly dropped = new Set<string>();
  /** Latest Condensation with a summary, and how many log entries preceded it. */
  private summarySource: { condensation: Condensation; logLength: number } | undefined;
  private unhandledRequest = false;
  private stale = false;

  private viewEvents: LlmConvertibleEvent[] = [];
  private summaryShown: CondensationSummaryEvent | undefined;
  private tokens = 0;
  private tracker = new BoundaryTracker();
  private closed: ChatMessage[] = [];
  private tail: LlmConvertibleEvent[] = [];
  private tailMessages: readonly ChatMessage[] | undefined;

  append(e: Event): void {
    if (isKind(e, 'Condensation')) {
      for (const id of e.forgotten_event_ids) this.forgotten.add(id);
      this.forgotten.add(e.id);
      if (hasSummary(e)) this.summarySource = { condensation: e, logLength: this.log.length };
      this.unhandledRequest = false;
      this.stale = true;
      return;
    }
    if (isKind(e, 'CondensationRequest')) {
      this.unhandledRequest = true;
      return;
    }
    if (!isLlmConvertible(e)) return;
    const role = this.pairing.add(e);
    this.log.push({ e, role });
    if (this.stale) return; // the coming rebuild sees it

    if (this.forgotten.has(e.id)) {
      // Forgotten before it arrived: drop it and its pair; rebuild only if the pair is on screen.
      const pair = role.type === 'action' ? e.id : role.type === 'result' ? role.actionId : undefined;
      if (pair !== undefined && !this.dropped.has(pair)) {
        this.dropped.add(pair);
        if (role.type === 'result') this.stale = true;
      }
      return;
    }
    if (isKept(e, role, this.forgotten, this.dropped)) this.show(e, role);
  }

  appendAll(events: Iterable<Event>): this {
    for (const e of events) this.append(e);
    return this;
  }

  get events(): readonly LlmConvertibleEvent[] {
    this.refresh();
    return this.viewEvents;
  }

  get size(): number {
    this.refresh();
    return this.viewEvents.length;
  }

  get summary(): CondensationSummaryEvent | undefined {
    this.refresh();
    return this.summaryShown;
  }

  get unhandledCondensationRequest(): boolean {
    return this.unhandledRequest;
  }

  get estimatedTokens(): number {
    this.refresh();
    return this.tokens;
  }

  /** The prompt messages of the view: a new array of shared, frozen message objects. */
  messages(): ChatMessage[] {
    this.refresh();
    this.tailMessages ??= deepFreeze(eventsToMessages(this.tail)) as readonly ChatMessage[];
    return joinMessages(this.closed, this.tailMessages);
  }

  private show(e: LlmConvertibleEvent, role: CallRole): void {
    this.viewEvents.push(e);
    this.tokens += estimateTokens(e);
    if (this.tracker.canCutBefore(role) && this.tail.length > 0) {
      appendMessages(this.closed, deepFreeze(eventsToMessages(this.tail)) as readonly ChatMessage[]);
      this.tail = [];
    }
    this.tail.push(e);
    this.tailMessages = undefined;
    this.tracker.add(e, role);
  }

  private refresh(): void {
    if (this.stale) this.rebuild();
  }

  /** Recomputes the view from the events in memory: after a condensation, O(events) once. */
  private rebuild(): void {
    this.stale = false;
    this.viewEvents = [];
    this.summaryShown = undefined;
    this.tokens = 0;
    this.tracker = new BoundaryTracker();
    this.closed = [];
    this.tail = [];
    this.tailMessages = undefined;
    this.dropped.clear();
    for (const id of droppedActions(this.log, this.forgotten)) this.dropped.add(id);

    const source = this.summarySource;
    let keptBeforeSource = 0;
    let summaryAt = -1;
    if (source) {
      for (let i = 0; i < source.logLength; i++) {
        const { e, role } = this.log[i]!;
        if (isKept(e, role, this.forgotten, this.dropped)) keptBeforeSource++;
      }
      summaryAt = Math.min(source.condensation.summary_offset!, keptBeforeSource);
    }
    let shown = 0;
    const showSummary = () => {
      this.summaryShown = summaryEvent(source!.condensation);
      this.show(this.summaryShown, { type: 'plain' });
    };
    for (const { e, role } of this.log) {
      if (!isKept(e, role, this.forgotten, this.dropped)) continue;
      if (shown === summaryAt) showSummary();
      this.show(e, role);
      shown++;
    }
    if (summaryAt >= 0 && shown === summaryAt) showSummary();
  }
}
