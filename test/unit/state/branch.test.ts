import assert from 'node:assert/strict';
import {
  branchHeads,
  branchOf,
  deriveState,
  forkPoints,
  IncrementalState,
  LogTree,
} from '../../../src/core/state';
import { eventId, LogBuilder } from './builders';

const ids = (events: readonly { id: string }[]) => events.map((e) => e.id);

/**
 * u1 - running - a1 - o1 - m1     first branch
 *   \
 *    u2 - running - m2            forked from u1 (a different follow-up), the head
 */
function forkedLog() {
  const b = new LogBuilder();
  const u1 = b.user('first question');
  b.status('running');
  const a1 = b.action('c1', 'r1');
  b.observe(a1);
  const m1 = b.agent('answer one', 'r2');
  // The user edits their follow-up: a new branch from the first user message.
  const u2 = b.forkFrom(u1.id).user('different follow-up');
  b.status('running');
  const m2 = b.agent('answer two', 'r3');
  return { b, u1, a1, m1, u2, m2 };
}

describe('state: branches (forks)', () => {
  it('a log without parent_id is one branch: every event follows its predecessor', () => {
    const b = new LogBuilder();
    b.user();
    b.status('running');
    b.agent('x', 'r1');
    assert.deepEqual(ids(branchOf(b.events)), ids(b.events));
    assert.deepEqual(ids(branchOf(b.events, b.events[1]!.id)), ids(b.events.slice(0, 2)));
    assert.deepEqual(branchOf([]), []);
  });

  it('events after a fork point continue the new branch; the old branch stays reachable', () => {
    const { b, u1, a1, m1, u2, m2 } = forkedLog();
    const head = branchOf(b.events);
    assert.deepEqual(ids(head), [u1.id, u2.id, b.events[6]!.id, m2.id]);
    const old = branchOf(b.events, m1.id);
    assert.deepEqual(ids(old), ids(b.events.slice(0, 5)));
    assert.ok(ids(old).includes(a1.id));
    assert.deepEqual(forkPoints(b.events), [u1.id]);
    assert.deepEqual(branchHeads(b.events), [m1.id, m2.id]);
  });

  it('state is derived from the current branch only', () => {
    const { b, u2, m2 } = forkedLog();
    const s = deriveState(b.events);
    assert.equal(s.eventCount, 4);
    assert.equal(s.iteration, 1, 'the first branch took two steps; this one one');
    assert.equal(s.lastUserMessageId, u2.id);
    assert.equal(s.head, m2.id);
    assert.equal(s.status, 'finished');
    assert.equal(s.title, 'first question');
    const old = deriveState(b.events, { headId: b.events[4]!.id });
    assert.equal(old.iteration, 2);
    assert.equal(old.eventCount, 5);
  });

  it('an explicit parent equal to the previous event is not a fork', () => {
    const b = new LogBuilder();
    const u = b.user();
    b.forkFrom(u.id).agent('x', 'r1');
    assert.deepEqual(forkPoints(b.events), []);
    assert.equal(deriveState(b.events).eventCount, 2);
  });

  it('a parent_id that names no earlier event falls back to the predecessor', () => {
    const b = new LogBuilder();
    b.user();
    b.forkFrom(eventId(424242)).agent('x', 'r1');
    assert.equal(branchOf(b.events).length, 2);
    const tree = new LogTree();
    tree.add({ id: 'a' });
    tree.add({ id: 'b', parent_id: 'c' }); // names a later event: not a parent
    tree.add({ id: 'c', parent_id: 'a' });
    assert.deepEqual(tree.pathTo(1), [0, 1]);
    assert.deepEqual(tree.pathTo(2), [0, 2]);
    assert.equal(tree.depthOf(2), 1);
  });

  it('an unknown head or index is an error', () => {
    const { b } = forkedLog();
    assert.throws(() => branchOf(b.events, 'missing'), RangeError);
    assert.throws(() => branchOf([], 'missing'), RangeError);
    assert.throws(() => new LogTree().pathTo(0), RangeError);
  });

  it('IncrementalState follows forks and equals deriveState after every append', () => {
    const { b } = forkedLog();
    const inc = new IncrementalState('c');
    b.events.forEach((e, i) => {
      inc.apply(e);
      assert.deepEqual(inc.state, deriveState(b.events.slice(0, i + 1), { id: 'c' }), `after event ${i}`);
    });
    assert.equal(inc.length, b.events.length);
    assert.deepEqual(new IncrementalState('c', b.events).state, inc.state);
  });
});
