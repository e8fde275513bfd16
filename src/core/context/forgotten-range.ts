/**
 * How a Condensation names what it forgets. A condensation forgets one run of the view (between
 * the kept head and the kept tail, condensation-plan.ts), so a long run is stored as its first and
 * last event rather than every id: the first condensation of a long imported conversation that
 * was never condensed would otherwise list about every event of the log in one record. A short run
 * keeps the list, as OpenHands writes it; the OpenHands export always spells the list out.
 *
 * A range forgets every event the view was given from `first` through `last`, in log order. Its
 * events that the view no longer showed (forgotten before, dropped with their pair) stay hidden,
 * so it forgets exactly what the list of the run would.
 */
import type { Condensation } from '../events';

/** Most ids a Condensation lists; a longer run is stored as a range (about 37 bytes an id). */
export const FORGOTTEN_LIST_MAX = 256;

export interface ForgottenRange {
  first: string;
  last: string;
  /** Events of the view it forgot (what the chat and the CLI report). */
  count: number;
}

/** The Condensation fields naming these forgotten view events (in view order, one run). */
export function forgottenFields(
  forgotten: readonly { id: string }[],
  listMax = FORGOTTEN_LIST_MAX,
): {
  forgotten_event_ids: string[];
  forgotten_range?: ForgottenRange;
} {
  if (forgotten.length <= listMax) return { forgotten_event_ids: forgotten.map((e) => e.id) };
  return {
    forgotten_event_ids: [],
    forgotten_range: { first: forgotten[0]!.id, last: forgotten.at(-1)!.id, count: forgotten.length },
  };
}

/** How many view events a Condensation forgot. */
export function forgottenCount(c: Pick<Condensation, 'forgotten_event_ids' | 'forgotten_range'>): number {
  return c.forgotten_event_ids.length + (c.forgotten_range?.count ?? 0);
}

/**
 * The ids of a range among `ids` (the events the view was given, in log order, or any ordered
 * subset holding the range's ends): from `first` through `last`. Empty when an end is missing or
 * they are out of order: nothing is forgotten that the range does not clearly name.
 */
export function idsInRange(
  range: Pick<ForgottenRange, 'first' | 'last'>,
  ids: readonly string[],
  positionOf: (id: string) => number = (id) => ids.indexOf(id),
): string[] {
  const from = positionOf(range.first);
  const to = positionOf(range.last);
  return from < 0 || to < from ? [] : ids.slice(from, to + 1);
}
