/**
 * The View, maintained as events are appended, so the next prompt costs about the same at 10k
 * events as at 1k: each event is paired and converted once. The view is cut into segments at safe
 * boundaries (see boundaries.ts); closed segments are converted by `eventsToMessages` once and
 * their messages kept, only the open tail is converted per prompt. A Condensation, or a forgotten
 * result whose action is already shown, marks the view for one rebuild from the events in memory.
 *
 * Memory stays bounded by the view, not the log: a rebuild lets go of every event that can never
 * be shown again (forgotten, dropped with its pair, or an orphan), keeping only those that are shown
 * or may still be (an action waiting for its result). For the same reason a `checkpoint()` (a few
 * ids) is enough to `restore` an equal builder later from those events alone.
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
  /** Where the event is in its log, when the caller said (see `append`). */
  at: number | undefined;
}

/** What `ViewBuilder.restore` needs, besides the events it names, to equal the builder it came from. */
export interface ViewCheckpoint {
  /** Ids of the events that are shown or may still be, in log order. */
  entries: string[];
  /** Their positions in the log (null where `append` was not told), so a restore can read them in runs. */
  at: (number | null)[];
  /** The Condensation whose summary is shown, how many of `entries` precede it, and its position. */
  summary: { id: string; before: number; at: number | null } | null;
  /** A CondensationRequest came after the last Condensation. */
  request: boolean;
  /** Forgotten ids that still matter: of retained events, or of events not in the log yet. */
  forgotten: string[];
}

export class ViewBuilder implements ViewLike {
  /** Every LLM-convertible event appended, with its role: what a rebuild starts from. */
  private readonly log: Entry[] = [];
  private readonly pairing = new CallPairing();
  private readonly forgotten = new Set<string>();
  private readonly dropped = new Set<string>();
  /** Latest Condensation with a summary, and how many log entries preceded it. */
  private summarySource:
    { condensation: Condensation; logLength: number; at: number | undefined } | undefined;
  private unhandledRequest = false;
  private stale = false;

  private viewEvents: LlmConvertibleEvent[] = [];
  private summaryShown: CondensationSummaryEvent | undefined;
  private tokens = 0;
  private tracker = new BoundaryTracker();
  private closed: ChatMessage[] = [];
  private tail: LlmConvertibleEvent[] = [];
  private tailMessages: readonly ChatMessage[] | undefined;

  /** Adds the next event of the log; `at`, its index there, only serves `checkpoint`. */
  append(e: Event, at?: number): void {
    if (isKind(e, 'Condensation')) {
      // Its own id is not noted (View.fromEvents does): a Condensation is never shown, and ids
      // are unique, so it would only make `forgotten` and every checkpoint grow with the log.
      for (const id of e.forgotten_event_ids) this.forgotten.add(id);
      if (hasSummary(e)) this.summarySource = { condensation: e, logLength: this.log.length, at };
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
    this.log.push({ e, role, at });
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

  /**
   * What a later `restore` needs to rebuild this builder from a handful of events: the kept ones and
   * the actions still waiting for a result. Its size follows the view, not the log.
   */
  checkpoint(): ViewCheckpoint {
    this.refresh();
    const source = this.summarySource;
    const entries: string[] = [];
    const at: (number | null)[] = [];
    let before = 0;
    this.log.forEach((entry, i) => {
      if (!this.mayShowLater(entry)) return;
      entries.push(entry.e.id);
      at.push(entry.at ?? null);
      if (source && i < source.logLength) before++;
    });
    const logIds = new Set(this.log.map(({ e }) => e.id));
    const retained = new Set(entries);
    return {
      entries,
      at,
      summary: source ? { id: source.condensation.id, before, at: source.at ?? null } : null,
      request: this.unhandledRequest,
      forgotten: [...this.forgotten].filter((id) => retained.has(id) || !logIds.has(id)),
    };
  }

  /**
   * A builder equal to the one `checkpoint` was taken from, given the events it names (by id).
   * Undefined when one is missing or is not what the checkpoint says it is.
   *
   * Equal for every event appended afterwards but one kind: a result naming, by `action_id`, an
   * answered action the checkpoint let go of. The full builder knows that action and treats the
   * result as an orphan; a restored one does not know it (see `referencesUnknownAction`).
   */
  static restore(cp: ViewCheckpoint, eventById: (id: string) => Event | undefined): ViewBuilder | undefined {
    const b = new ViewBuilder();
    for (const id of cp.forgotten) b.forgotten.add(id);
    for (const [i, id] of cp.entries.entries()) {
      const e = eventById(id);
      if (!e || e.id !== id || !isLlmConvertible(e)) return undefined;
      b.log.push({ e, role: b.pairing.add(e), at: cp.at[i] ?? undefined });
    }
    if (cp.summary) {
      const c = eventById(cp.summary.id);
      const before = cp.summary.before;
      if (!c || !isKind(c, 'Condensation') || !hasSummary(c)) return undefined;
      if (!Number.isInteger(before) || before < 0 || before > b.log.length) return undefined;
      b.summarySource = { condensation: c, logLength: before, at: cp.summary.at ?? undefined };
    }
    b.unhandledRequest = cp.request;
    b.stale = true;
    return b;
  }

  /**
   * True when `e` is a result that names by `action_id` an action this builder has not seen: after
   * a `restore`, appending it may differ from the full builder if that action was in the log before
   * the checkpoint. The runtime never writes such results (it answers pending actions only).
   */
  referencesUnknownAction(e: Event): boolean {
    return (
      (e.kind === 'ObservationEvent' || e.kind === 'UserRejectObservation') &&
      !this.pairing.knows(e.action_id)
    );
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

  /** Shown now, or may be later: an action still waiting for its result. */
  private mayShowLater({ e, role }: Entry): boolean {
    return (
      isKept(e, role, this.forgotten, this.dropped) ||
      (role.type === 'action' && this.pairing.isPending(e.id))
    );
  }

  /**
   * Lets go of the events that can never be shown again. Whether an event is shown only changes
   * through its own id or its pair's, and a retained event's pair is retained too, so the view is
   * the same without them; their ids leave `forgotten` with them (ids never repeat in a log).
   */
  private compact(): void {
    const source = this.summarySource;
    const retained: Entry[] = [];
    let before = 0;
    this.log.forEach((entry, i) => {
      if (this.mayShowLater(entry)) {
        retained.push(entry);
        if (source && i < source.logLength) before++;
      } else {
        this.forgotten.delete(entry.e.id);
      }
    });
    if (retained.length === this.log.length) return;
    this.log.length = 0;
    this.log.push(...retained);
    if (source) this.summarySource = { ...source, logLength: before };
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
    this.compact();

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
