/**
 * The View, maintained as events are appended, so the next prompt costs about the same at 10k
 * events as at 1k: each event is paired and converted once. The view is cut into segments at safe
 * boundaries (see boundaries.ts); closed segments are converted by `eventsToMessages` once, when
 * a prompt first needs them, and their messages kept; only the open tail is converted per prompt
 * (a long view read back only to be condensed is never converted whole). A Condensation, or a
 * forgotten result whose action is already shown, marks the view for one rebuild from the events
 * in memory.
 *
 * Memory stays bounded by the view, not the log: a rebuild lets go of every event that can never
 * be shown again (forgotten, dropped with its pair, or an orphan), keeping only those that are shown
 * or may still be (an action waiting for its result). For the same reason a `checkpoint()` (a few
 * ids) is enough to `restore` an equal builder later from those events alone. Which events those
 * are is the ViewLedger's to say (view-ledger.ts); this class builds the prompt from them.
 */
import {
  type ChatMessage,
  type CondensationSummaryEvent,
  deepFreeze,
  type Event,
  eventsToMessages,
  type LlmConvertibleEvent,
} from '../events';
import { BoundaryTracker } from './boundaries';
import type { CallRole } from './call-pairing';
import { appendMessages, joinMessages } from './message-concat';
import { estimateTokens } from './token-estimate';
import { summaryEvent, type ViewLike } from './view';
import { type ViewCheckpoint, ViewLedger } from './view-ledger';

export type { ViewCheckpoint } from './view-ledger';

const wholeEvent = (e: LlmConvertibleEvent): LlmConvertibleEvent => e;

export class ViewBuilder implements ViewLike {
  private ledger = new ViewLedger(wholeEvent);

  private viewEvents: LlmConvertibleEvent[] = [];
  private summaryShown: CondensationSummaryEvent | undefined;
  private tokens = 0;
  private tracker = new BoundaryTracker();
  private closed: ChatMessage[] = [];
  /** Closed segments whose messages no prompt has asked for yet, in order (they follow `closed`). */
  private unconverted: LlmConvertibleEvent[][] = [];
  private tail: LlmConvertibleEvent[] = [];
  private tailMessages: readonly ChatMessage[] | undefined;

  /** Adds the next event of the log; `at`, its index there, only serves `checkpoint`. */
  append(e: Event, at?: number): void {
    const shown = this.ledger.append(e, at);
    if (shown) this.show(shown.e, shown.role);
  }

  /**
   * What a later `restore` needs to rebuild this builder from a handful of events: the kept ones and
   * the actions still waiting for a result. Its size follows the view, not the log.
   */
  checkpoint(): ViewCheckpoint {
    this.refresh();
    return this.ledger.checkpoint();
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
    const ledger = ViewLedger.restore(cp, eventById, wholeEvent);
    if (!ledger) return undefined;
    const b = new ViewBuilder();
    b.ledger = ledger; // awaits a settle: the first read rebuilds the view
    return b;
  }

  /**
   * True when `e` is a result that names by `action_id` an action this builder has not seen: after
   * a `restore`, appending it may differ from the full builder if that action was in the log before
   * the checkpoint. The runtime never writes such results (it answers pending actions only).
   */
  referencesUnknownAction(e: Event): boolean {
    return (
      (e.kind === 'ObservationEvent' || e.kind === 'UserRejectObservation') && !this.ledger.knows(e.action_id)
    );
  }

  /** Whether the view shows an event of this kind. */
  showsKind(kind: Event['kind']): boolean {
    this.refresh();
    return this.ledger.showsKind(kind);
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
    return this.ledger.unhandledRequest;
  }

  get estimatedTokens(): number {
    this.refresh();
    return this.tokens;
  }

  /** The prompt messages of the view: a new array of shared, frozen message objects. */
  messages(): ChatMessage[] {
    this.refresh();
    for (const segment of this.unconverted)
      appendMessages(this.closed, deepFreeze(eventsToMessages(segment)) as readonly ChatMessage[]);
    this.unconverted = [];
    this.tailMessages ??= deepFreeze(eventsToMessages(this.tail)) as readonly ChatMessage[];
    return joinMessages(this.closed, this.tailMessages);
  }

  private show(e: LlmConvertibleEvent, role: CallRole): void {
    this.viewEvents.push(e);
    this.tokens += estimateTokens(e);
    if (this.tracker.canCutBefore(role) && this.tail.length > 0) {
      this.unconverted.push(this.tail);
      this.tail = [];
    }
    this.tail.push(e);
    this.tailMessages = undefined;
    this.tracker.add(e, role);
  }

  private refresh(): void {
    if (this.ledger.settle()) this.rebuild();
  }

  /** Recomputes the view from the events in memory: after a condensation, O(events) once. */
  private rebuild(): void {
    this.viewEvents = [];
    this.summaryShown = undefined;
    this.tokens = 0;
    this.tracker = new BoundaryTracker();
    this.closed = [];
    this.unconverted = [];
    this.tail = [];
    this.tailMessages = undefined;

    const { log, summarySource: source } = this.ledger;
    let keptBeforeSource = 0;
    let summaryAt = -1;
    if (source) {
      for (let i = 0; i < source.logLength; i++) if (this.ledger.isShown(log[i]!)) keptBeforeSource++;
      summaryAt = Math.min(source.condensation.summary_offset!, keptBeforeSource);
    }
    let shown = 0;
    const showSummary = () => {
      this.summaryShown = summaryEvent(source!.condensation);
      this.show(this.summaryShown, { type: 'plain' });
    };
    for (const entry of log) {
      if (!this.ledger.isShown(entry)) continue;
      if (shown === summaryAt) showSummary();
      this.show(entry.e, entry.role);
      shown++;
    }
    if (summaryAt >= 0 && shown === summaryAt) showSummary();
  }
}
