import assert from 'node:assert/strict';
import {
  deriveState,
  inDoubtActions,
  initialState,
  recoveryEventsOnOpen,
  RecoveryValueSchema,
  resolveInDoubt,
  SKIPPED_AFTER_CRASH,
} from '../../../src/core/state';
import { counterIds, LogBuilder } from './builders';

const ctx = () => ({ timestamp: '2026-02-01T00:00:00.000Z', newId: counterIds() });

/** A run that crashed while executing c2 of a three-call batch (c1 done, c3 not started). */
function crashedRun() {
  const b = new LogBuilder();
  b.user('do three things');
  b.status('running');
  const a1 = b.action('c1', 'r1');
  const a2 = b.action('c2', 'r1');
  const a3 = b.action('c3', 'r1');
  b.started(a1);
  b.observe(a1);
  b.started(a2);
  return { b, a1, a2, a3 };
}

describe('state: in-doubt actions and crash recovery', () => {
  it('an action started but unanswered is in doubt; one never started is only pending', () => {
    const { b, a2, a3 } = crashedRun();
    const s = deriveState(b.events);
    assert.deepEqual(s.inDoubt, [a2.id]);
    assert.deepEqual(
      s.pendingActions.map((p) => p.actionId),
      [a2.id, a3.id],
    );
    assert.deepEqual(
      inDoubtActions(s).map((p) => p.toolCallId),
      ['c2'],
    );
  });

  it('an answer clears the doubt; starting twice lists it once; starting an unknown action warns', () => {
    const { b, a2 } = crashedRun();
    b.started(a2);
    assert.deepEqual(deriveState(b.events).inDoubt, [a2.id]);
    b.observe(a2);
    b.update('action_started', { action_id: a2.id }); // already answered
    b.update('action_started', { nope: true });
    const s = deriveState(b.events);
    assert.deepEqual(s.inDoubt, []);
    assert.equal(s.warnings.length, 2);
    assert.match(s.warnings[0]!, /started but is not pending/);
    assert.match(s.warnings[1]!, /invalid action_started/);
  });

  it('a conversation found running is paused, with a recovery update listing the in-doubt actions', () => {
    const { b, a2 } = crashedRun();
    const before = deriveState(b.events);
    const events = recoveryEventsOnOpen(before, ctx());
    assert.deepEqual(
      events.map((e) => [e.kind, e.key]),
      [
        ['ConversationStateUpdateEvent', 'recovery'],
        ['ConversationStateUpdateEvent', 'execution_status'],
      ],
    );
    const recovery = RecoveryValueSchema.parse(events[0]!.value);
    assert.deepEqual(recovery.in_doubt_action_ids, [a2.id]);
    assert.match(recovery.reason, /1 action\(s\) had started without a recorded result/);
    assert.equal(events[1]!.value, 'paused');
    assert.ok(
      events.every((e) => e.parent_id === undefined),
      'no parent_id unless asked',
    );

    b.append(...events);
    const after = deriveState(b.events);
    assert.equal(after.status, 'paused');
    assert.deepEqual(after.inDoubt, [a2.id], 'still in doubt: nothing is re-run silently');
    assert.deepEqual(after.warnings, []);
    assert.deepEqual(recoveryEventsOnOpen(after, ctx()), [], 'opening again adds nothing');
  });

  it('recovery events are deterministic given the context, and chain parent_id when asked', () => {
    const { b } = crashedRun();
    const s = deriveState(b.events);
    assert.deepEqual(recoveryEventsOnOpen(s, ctx()), recoveryEventsOnOpen(s, ctx()));
    const chained = recoveryEventsOnOpen(s, { ...ctx(), parentId: s.head! });
    assert.equal(chained[0]!.parent_id, s.head);
    assert.equal(chained[1]!.parent_id, chained[0]!.id);
  });

  it('a running conversation with nothing in doubt is still paused on open', () => {
    const b = new LogBuilder();
    b.user('hi');
    b.status('running');
    const events = recoveryEventsOnOpen(deriveState(b.events), ctx());
    assert.equal(events.length, 2);
    assert.deepEqual(RecoveryValueSchema.parse(events[0]!.value).in_doubt_action_ids, []);
  });

  it('the recovery message mentions a torn last record only when the store cut one off', () => {
    const b = new LogBuilder();
    b.user('hi');
    b.status('running');
    const s = deriveState(b.events);
    const reasonOf = (events: ReturnType<typeof recoveryEventsOnOpen>) =>
      RecoveryValueSchema.parse(events[0]!.value).reason;
    assert.match(
      reasonOf(recoveryEventsOnOpen(s, ctx(), { truncatedBytes: 42 })),
      /partly written \(42 bytes\)/,
    );
    assert.doesNotMatch(reasonOf(recoveryEventsOnOpen(s, ctx(), { truncatedBytes: 0 })), /partly written/);
    assert.doesNotMatch(reasonOf(recoveryEventsOnOpen(s, ctx())), /partly written/);
  });

  it('nothing to recover unless the status is running', () => {
    for (const status of [
      'idle',
      'paused',
      'waiting_for_confirmation',
      'finished',
      'error',
      'stuck',
    ] as const) {
      assert.deepEqual(
        recoveryEventsOnOpen({ ...initialState(), status, inDoubt: ['x'] }, ctx()),
        [],
        status,
      );
    }
  });

  it('skip answers the call with an AgentErrorEvent; rerun appends nothing (the runtime re-runs)', () => {
    const { b, a2, a3 } = crashedRun();
    b.append(...recoveryEventsOnOpen(deriveState(b.events), ctx()));
    const [pending] = inDoubtActions(deriveState(b.events));
    assert.deepEqual(resolveInDoubt(pending!, 'rerun', ctx()), []);
    const skip = resolveInDoubt(pending!, 'skip', ctx());
    assert.equal(skip.length, 1);
    assert.equal(skip[0]!.kind, 'AgentErrorEvent');
    assert.equal(skip[0]!.error, SKIPPED_AFTER_CRASH);
    assert.equal(skip[0]!.tool_call_id, 'c2');
    b.append(...skip);
    const s = deriveState(b.events);
    assert.deepEqual(s.inDoubt, []);
    assert.deepEqual(
      s.pendingActions.map((p) => p.actionId),
      [a3.id],
    );
    assert.notEqual(a2.id, a3.id);
    assert.equal(s.lastError?.message, SKIPPED_AFTER_CRASH);
  });
});
