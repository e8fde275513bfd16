import { type Event, isKind } from '../events';
import { idsInRange } from './forgotten-range';
import { ViewLedger } from './view-ledger';

/**
 * Spells out the ranges of a log's Condensations as lists of the view events they forgot, for a
 * reader that knows only lists (the OpenHands export). Fed every event of the log in order; holds
 * the view's ids, not its events.
 */
export class ForgottenRangeLister {
  private readonly ledger = new ViewLedger((e) => ({ id: e.id, kind: e.kind }));

  /** `e`, a range in it replaced by the ids it forgot; every event must pass through, in log order. */
  list<E extends Event>(e: E): E {
    let out = e;
    if (isKind(e, 'Condensation') && e.forgotten_range) {
      this.ledger.settle();
      const { forgotten_range: range, ...rest } = e;
      const run = idsInRange(
        range,
        this.ledger.log.map((entry) => entry.e.id),
      );
      const shown = new Set(this.ledger.log.filter((entry) => this.ledger.isShown(entry)).map((x) => x.e.id));
      const forgotten = [...e.forgotten_event_ids, ...run.filter((id) => shown.has(id))];
      out = { ...rest, forgotten_event_ids: forgotten } as unknown as E;
    }
    this.ledger.append(e);
    return out;
  }
}
