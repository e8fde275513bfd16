import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkIntent, isExactBatch } from '../../../src/protocol/intent-guard';
import type { ConversationHeader } from '../../../src/protocol/messages';

const header: ConversationHeader = {
  id: 'c1',
  title: 't',
  status: 'waiting_for_confirmation',
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cost: 0,
  pendingActionIds: ['a1', 'a2'],
  readOnly: false,
};

describe('protocol: intent guard', () => {
  it('approve/reject pass only for exactly the pending batch of the shown conversation', () => {
    assert.ok(
      checkIntent({ type: 'approve', conversationId: 'c1', actionIds: ['a2', 'a1'] }, 'c1', header).ok,
    );
    assert.ok(
      checkIntent({ type: 'reject', conversationId: 'c1', actionIds: ['a1', 'a2'], reason: '' }, 'c1', header)
        .ok,
    );
    for (const actionIds of [['a1'], ['a1', 'a2', 'a3'], ['a1', 'a1'], ['a1', 'a1', 'a2'], ['x', 'y']])
      assert.equal(
        checkIntent({ type: 'approve', conversationId: 'c1', actionIds }, 'c1', header).ok,
        false,
        actionIds.join(),
      );
    assert.equal(
      checkIntent({ type: 'approve', conversationId: 'c2', actionIds: ['a1', 'a2'] }, 'c1', header).ok,
      false,
    );
    assert.equal(
      checkIntent({ type: 'approve', conversationId: 'c1', actionIds: ['a1', 'a2'] }, 'c1', {
        ...header,
        pendingActionIds: [],
      }).ok,
      false,
      'a batch already decided',
    );
  });

  it('refuses every targeted intent for a conversation that is not shown or unknown', () => {
    assert.equal(checkIntent({ type: 'pause', conversationId: 'c1' }, undefined, undefined).ok, false);
    assert.equal(
      checkIntent({ type: 'forkFrom', conversationId: 'c1', eventId: 'e' }, 'c1', undefined).ok,
      false,
    );
    assert.ok(checkIntent({ type: 'forkFrom', conversationId: 'c1', eventId: 'e' }, 'c1', header).ok);
  });

  it('always-allow needs a pending action; read-only conversations refuse changes', () => {
    assert.ok(
      checkIntent(
        { type: 'alwaysAllow', conversationId: 'c1', actionId: 'a1', commandPrefix: 'ls' },
        'c1',
        header,
      ).ok,
    );
    assert.equal(
      checkIntent(
        { type: 'alwaysAllow', conversationId: 'c1', actionId: 'zz', commandPrefix: 'ls' },
        'c1',
        header,
      ).ok,
      false,
    );
    const ro = { ...header, readOnly: true };
    assert.equal(
      checkIntent({ type: 'approve', conversationId: 'c1', actionIds: ['a1', 'a2'] }, 'c1', ro).ok,
      false,
    );
    assert.equal(checkIntent({ type: 'stop', conversationId: 'c1' }, 'c1', ro).ok, false);
    assert.equal(
      checkIntent(
        { type: 'sendMessage', text: 'x', attachActiveFile: false, attachSelection: false },
        'c1',
        ro,
      ).ok,
      false,
    );
    assert.ok(checkIntent({ type: 'openDiff', conversationId: 'c1', actionId: 'a1' }, 'c1', ro).ok);
  });

  it('plan mode: the toggle needs a writable conversation; a plan is approved only while it plans', () => {
    const tasks = [{ title: 'Step', notes: '' }];
    const planning = { ...header, mode: 'plan' as const };
    assert.ok(checkIntent({ type: 'setMode', conversationId: 'c1', mode: 'plan' }, 'c1', header).ok);
    assert.equal(
      checkIntent({ type: 'setMode', conversationId: 'c1', mode: 'act' }, 'c1', { ...header, readOnly: true })
        .ok,
      false,
    );
    assert.ok(checkIntent({ type: 'approvePlan', conversationId: 'c1', tasks }, 'c1', planning).ok);
    for (const h of [header, { ...header, mode: 'act' as const }, { ...planning, readOnly: true }])
      assert.equal(checkIntent({ type: 'approvePlan', conversationId: 'c1', tasks }, 'c1', h).ok, false);
    assert.equal(checkIntent({ type: 'approvePlan', conversationId: 'c2', tasks }, 'c1', planning).ok, false);
  });

  it('isExactBatch is set equality without duplicates (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.string()),
        (pending, ids) => {
          const expected =
            ids.length === pending.length &&
            new Set(ids).size === ids.length &&
            ids.every((i) => pending.includes(i));
          assert.equal(isExactBatch(ids, pending), expected);
          assert.ok(isExactBatch([...pending].reverse(), pending));
        },
      ),
    );
  });
});
