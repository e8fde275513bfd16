/**
 * The View: what the LLM sees of a conversation. From the log it keeps the LLM-convertible events,
 * minus those forgotten by Condensations, plus the latest summary at its offset. Rules:
 * - an action and its result are kept or dropped together: forgetting either drops both;
 * - results that answer no call (or answer an already answered one) are dropped;
 * - an action still waiting for its result stays (the pending batch); `eventsToMessages` leaves
 *   its call out of the prompt until the result exists;
 * - the summary of the latest Condensation that has one is inserted at `summary_offset`, counted
 *   among the kept events that precede that Condensation in the log;
 * - a CondensationRequest after the last Condensation is reported as unhandled.
 *
 * `View.fromEvents` computes this from scratch and is the reference; `ViewBuilder` maintains the
 * same result incrementally.
 */
import {
  type CondensationSummaryEvent,
  type Condensation,
  createEvent,
  type Event,
  eventsToMessages,
  isKind,
  isLlmConvertible,
  type ChatMessage,
  type LlmConvertibleEvent,
} from '../events';
import { CallPairing, type CallRole } from './call-pairing';
import { idsInRange } from './forgotten-range';
import { estimateTokensOf } from './token-estimate';

/** What condensers read from a view (both View and ViewBuilder provide it). */
export interface ViewLike {
  /** In prompt order, the summary included. */
  readonly events: readonly LlmConvertibleEvent[];
  readonly size: number;
  /** The inserted summary, if any (it is not a log event: it cannot be forgotten by id). */
  readonly summary: CondensationSummaryEvent | undefined;
  /** A CondensationRequest came after the last Condensation. */
  readonly unhandledCondensationRequest: boolean;
  /** Rough prompt size of `events` (chars / 4). */
  readonly estimatedTokens: number;
}

export class View implements ViewLike {
  private constructor(
    readonly events: readonly LlmConvertibleEvent[],
    readonly summary: CondensationSummaryEvent | undefined,
    readonly unhandledCondensationRequest: boolean,
  ) {}

  get size(): number {
    return this.events.length;
  }

  get estimatedTokens(): number {
    return estimateTokensOf(this.events);
  }

  messages(): ChatMessage[] {
    return eventsToMessages(this.events);
  }

  static fromEvents(events: Iterable<Event>): View {
    const all = [...events];
    const forgotten = new Set<string>();
    let summarySource: { condensation: Condensation; at: number } | undefined;
    let unhandledRequest = false;
    all.forEach((e, at) => {
      if (isKind(e, 'Condensation')) {
        for (const id of e.forgotten_event_ids) forgotten.add(id);
        forgotten.add(e.id);
        if (hasSummary(e)) summarySource = { condensation: e, at };
        unhandledRequest = false;
      } else if (isKind(e, 'CondensationRequest')) {
        unhandledRequest = true;
      }
    });

    const pairing = new CallPairing();
    const candidates: { e: LlmConvertibleEvent; role: CallRole; at: number }[] = [];
    all.forEach((e, at) => {
      if (isLlmConvertible(e)) candidates.push({ e, role: pairing.add(e), at });
    });
    const ranges = all.flatMap((e) =>
      isKind(e, 'Condensation') && e.forgotten_range ? [e.forgotten_range] : [],
    );
    if (ranges.length > 0) {
      const ids = candidates.map((c) => c.e.id);
      const position = new Map(ids.map((id, i) => [id, i]));
      for (const r of ranges) {
        for (const id of idsInRange(r, ids, (x) => position.get(x) ?? -1)) forgotten.add(id);
      }
    }
    const dropped = droppedActions(candidates, forgotten);
    const kept = candidates.filter((c) => isKept(c.e, c.role, forgotten, dropped));

    const out = kept.map((c) => c.e);
    let summary: CondensationSummaryEvent | undefined;
    if (summarySource) {
      const before = kept.filter((c) => c.at < summarySource!.at).length;
      summary = summaryEvent(summarySource.condensation);
      out.splice(Math.min(summarySource.condensation.summary_offset!, before), 0, summary);
    }
    return new View(out, summary, unhandledRequest);
  }
}

export function hasSummary(c: Condensation): boolean {
  return (
    c.summary !== null &&
    c.summary !== undefined &&
    c.summary_offset !== null &&
    c.summary_offset !== undefined
  );
}

/** Actions to drop because they, or their result, were forgotten. */
export function droppedActions(
  candidates: readonly { e: { readonly id: string }; role: CallRole }[],
  forgotten: ReadonlySet<string>,
): Set<string> {
  const dropped = new Set<string>();
  for (const { e, role } of candidates) {
    if (!forgotten.has(e.id)) continue;
    if (role.type === 'action') dropped.add(e.id);
    else if (role.type === 'result') dropped.add(role.actionId);
  }
  return dropped;
}

export function isKept(
  e: { readonly id: string },
  role: CallRole,
  forgotten: ReadonlySet<string>,
  dropped: ReadonlySet<string>,
): boolean {
  if (forgotten.has(e.id)) return false;
  switch (role.type) {
    case 'action':
      return !dropped.has(e.id);
    case 'result':
      return !dropped.has(role.actionId);
    case 'orphan':
      return false;
    default:
      return true;
  }
}

/** The summary as an LLM-convertible event; it takes the Condensation's id, which the view never shows. */
export function summaryEvent(c: Condensation): CondensationSummaryEvent {
  return createEvent('CondensationSummaryEvent', { id: c.id, timestamp: c.timestamp, summary: c.summary! });
}
