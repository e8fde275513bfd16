// An import's snapshots follow the view as it grows instead of walking it whole for each one; what
// they store must be exactly what a snapshot worked out from scratch at the same position stores.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConversationMemory, resumeDataOf } from '../../../src/core/agent/conversation-memory';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { RunningCheckpoint } from '../../../src/core/agent/running-checkpoint';
import { followWithSnapshots } from '../../../src/core/agent/snapshot-follower';
import { ViewLedger } from '../../../src/core/context';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import { encodeSnapshot } from '../../../src/core/state';
import { materialize, type Op, opArb } from '../context/random-log';

const keepIds = (e: { id: string; kind: string }) => ({ id: e.id, kind: e.kind });

/**
 * The resume data as the follower worked it out before it kept it running: a ledger fed the same
 * events, its whole checkpoint taken at each snapshot. (A ledger fed all of them at once can differ
 * in `forgotten` when a condensation names an event let go of before, so the twin settles at the
 * same points.)
 */
class Walked {
  readonly ledger = new ViewLedger(keepIds);
  resumeData(): string {
    const l = this.ledger;
    return JSON.stringify(resumeDataOf(l.checkpoint(), l.showsKind('SystemPromptEvent')));
  }
}

/** Condensations forget shown events, pending actions and events not appended yet, with and without summaries. */
const condensingLog: Op[] = [
  { op: 'system' },
  { op: 'user' },
  ...Array.from({ length: 40 }, (_, k): Op[] => [
    { op: 'batch', size: 2, reuseCallId: k % 3 === 0 },
    { op: 'result', pick: 2 * k, how: k % 4 === 0 ? 'reject' : 'observation' },
    ...(k % 5 === 2
      ? [{ op: 'condense', picks: [3 * k, 2 * k + 1], ahead: 2, summary: k % 2 === 0, offset: 1 } as Op]
      : []),
    { op: 'result', pick: 2 * k + 1, how: k % 7 === 0 ? 'error' : 'observation' },
    ...(k % 9 === 4 ? [{ op: 'request' } as Op] : []),
    { op: 'agent' },
  ]).flat(),
];

describe('running checkpoint', () => {
  it('gives at every snapshot what walking the whole ledger gives (random logs)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (ops, every) => {
        const events = materialize(ops);
        const ledger = new ViewLedger(keepIds);
        const running = new RunningCheckpoint(ledger);
        const walked = new Walked();
        events.forEach((e, i) => {
          ledger.append(e, i);
          walked.ledger.append(e, i);
          if (i % every !== every - 1 && i !== events.length - 1) return;
          assert.equal(JSON.stringify(running.resumeData()), walked.resumeData(), `at ${i}`);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('an import of a condensed log writes each snapshot as before: the state from scratch, the view walked whole', async () => {
    const events = materialize(condensingLog) as StoredConversationEvent[];
    assert.ok(events.filter((e) => e.kind === 'Condensation').length >= 6);
    const store = new MemoryEventStore<StoredConversationEvent>({ codec: conversationEventCodec });
    const follower = followWithSnapshots(store, 'c', { every: 7 });
    for (const e of events) await store.append(e);
    const written = await follower.finish();
    assert.ok(written.length >= events.length / 7, written.join(' '));
    const walked = new Walked();
    let fed = 0;
    for (const index of written) {
      for (; fed <= index; fed++) walked.ledger.append(events[fed]!, fed);
      const state = ConversationMemory.fromEvents(events.slice(0, index + 1), 'c').state;
      const resume = JSON.parse(walked.resumeData()) as object;
      assert.equal(
        (await store.latestSnapshot(index))!.json,
        encodeSnapshot(state, resume),
        `snapshot at ${index}`,
      );
    }
  });
});
