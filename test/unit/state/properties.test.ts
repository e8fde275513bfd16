import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deepFreeze } from '../../../src/core/events';
import {
  branchOf,
  type ConversationState,
  ConversationStateSchema,
  decodeSnapshot,
  deriveState,
  encodeSnapshot,
  IncrementalState,
  initialState,
  reduce,
} from '../../../src/core/state';
import { forkedLog, linearLog } from './arbitraries';

const RUNS = { numRuns: 150 };

/** Invariants any derived state must satisfy, whatever the events. */
function checkInvariants(s: ConversationState): void {
  const pendingIds = s.pendingActions.map((p) => p.actionId);
  assert.equal(new Set(pendingIds).size, pendingIds.length, 'no action pending twice');
  assert.deepEqual(s.pendingBatchIds, [...new Set(s.pendingActions.map((p) => p.llmResponseId))]);
  for (const id of s.inDoubt) assert.ok(pendingIds.includes(id), 'in doubt implies pending');
  assert.equal(new Set(s.inDoubt).size, s.inDoubt.length);
  for (const id of s.approved) assert.ok(pendingIds.includes(id), 'approved implies pending');
  assert.equal(new Set(s.approved).size, s.approved.length);
  assert.ok(s.iterationsThisRun <= s.iteration);
  assert.ok(s.metrics.total.calls >= 0 && s.metrics.total.cost >= 0);
  assert.ok(ConversationStateSchema.safeParse(s).success, 'matches the snapshot schema');
}

describe('state: properties', () => {
  it('deterministic: the same events give deep-equal states, for every prefix', () => {
    fc.assert(
      fc.property(forkedLog(), (events) => {
        for (let i = 0; i <= events.length; i++) {
          const prefix = events.slice(0, i);
          const a = deriveState(prefix, { id: 'c' });
          const b = deriveState(structuredClone(prefix), { id: 'c' });
          assert.deepStrictEqual(a, b);
          checkInvariants(a);
        }
      }),
      RUNS,
    );
  });

  it('incremental application equals batch derivation (forks included)', () => {
    fc.assert(
      fc.property(forkedLog(), (events) => {
        const inc = new IncrementalState('c');
        events.forEach((e, i) => {
          inc.apply(e);
          assert.deepStrictEqual(inc.state, deriveState(events.slice(0, i + 1), { id: 'c' }));
        });
      }),
      RUNS,
    );
  });

  it('on a linear log, deriveState is a plain left fold of reduce', () => {
    fc.assert(
      fc.property(linearLog(), (events) => {
        assert.equal(branchOf(events).length, events.length);
        assert.deepStrictEqual(deriveState(events), events.reduce(reduce, initialState()));
        assert.equal(deriveState(events).eventCount, events.length);
      }),
      RUNS,
    );
  });

  it('reduce never mutates: replaying over deep-frozen states gives the same result', () => {
    fc.assert(
      fc.property(forkedLog(40), (events) => {
        const branch = branchOf(events);
        let frozen = deepFreeze(initialState()) as ConversationState;
        for (const e of branch) frozen = deepFreeze(reduce(frozen, e)) as ConversationState;
        assert.deepStrictEqual(frozen, deriveState(events));
      }),
      { numRuns: 100 },
    );
  });

  it('every state survives a JSON snapshot round trip deep-equal', () => {
    fc.assert(
      fc.property(forkedLog(), (events) => {
        let s = initialState('conv');
        for (const e of branchOf(events)) {
          s = reduce(s, e);
          assert.deepStrictEqual(JSON.parse(JSON.stringify(s)), s);
          assert.deepStrictEqual(decodeSnapshot(encodeSnapshot(s)), s);
        }
      }),
      { numRuns: 100 },
    );
  });
});
