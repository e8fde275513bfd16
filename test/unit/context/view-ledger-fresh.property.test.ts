// A view kept up to date as events come (read, so settled and compacted, after every append, as a
// running conversation reads it) must checkpoint exactly as one rebuilt from the same log at once
// (an open that replays it, an import): same entries, same summary, and the same forgotten ids.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ViewBuilder, ViewLedger } from '../../../src/core/context';
import type { Event } from '../../../src/core/events';
import { action, condensation, Ids, observation } from './events';
import { materialize, opArb } from './random-log';

const idsOnly = (e: { id: string; kind: string }) => ({ id: e.id, kind: e.kind });

/** Some condensations name their run as a range (first and last), as a long one is stored. */
function withRanges(events: Event[], asRange: readonly boolean[]): Event[] {
  let n = 0;
  return events.map((e) => {
    if (e.kind !== 'Condensation' || !asRange[n++ % Math.max(1, asRange.length)]) return e;
    const ids = e.forgotten_event_ids;
    if (ids.length < 2) return e;
    return {
      ...e,
      forgotten_event_ids: [],
      forgotten_range: { first: ids[0]!, last: ids.at(-1)!, count: ids.length },
    };
  });
}

function fresh(events: readonly Event[]): ViewLedger<{ id: string; kind: string }> {
  const ledger = new ViewLedger(idsOnly);
  events.forEach((e, at) => ledger.append(e, at));
  return ledger;
}

describe('ViewLedger kept up to date against one rebuilt from the log (property)', () => {
  it('checkpoints the same after every append, forgotten ids included', () => {
    let condensed = 0;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.array(fc.boolean()), (ops, asRange) => {
        const events = withRanges(materialize(ops), asRange);
        if (events.filter((e) => e.kind === 'Condensation').length > 1) condensed++;
        const running = new ViewLedger(idsOnly);
        const builder = new ViewBuilder();
        events.forEach((e, i) => {
          running.append(e, i);
          builder.append(e, i);
          const rebuilt = fresh(events.slice(0, i + 1));
          assert.deepEqual(running.checkpoint(), rebuilt.checkpoint(), `after event ${i}`);
          assert.deepEqual(
            builder.events.map((x) => x.id),
            new ViewBuilder().appendAll(events.slice(0, i + 1)).events.map((x) => x.id),
          );
        });
      }),
      { numRuns: 500 },
    );
    assert.ok(condensed >= 50, `only ${condensed} of 500 runs held two condensations`);
  });

  it('a condensation naming again an event let go of: neither lists it differently', () => {
    const ids = new Ids();
    const a = action(ids, 'c1', 'r1', 'look');
    const events: Event[] = [a, observation(ids, a), condensation(ids, [a.id]), condensation(ids, [a.id])];
    const running = new ViewLedger(idsOnly);
    events.forEach((e, i) => {
      running.append(e, i);
      running.checkpoint(); // read after each event, as a running conversation does
    });
    assert.deepEqual(running.checkpoint(), fresh(events).checkpoint());
  });
});
