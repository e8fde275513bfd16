// The journal every part records through, and recovery: what is recorded on open after a crash,
// which actions are in doubt, and how they and the calls a stop left open are answered.
import * as assert from 'node:assert/strict';
import type { Event } from '../../../../src/core/events';
import { isCorruptRecord } from '../../../../src/core/log/event-store';
import {
  answerWithError,
  inDoubtOf,
  recoverOnOpen,
  skipInDoubt,
} from '../../../../src/core/agent/conversation-recovery';
import {
  ACTION_STARTED_KEY,
  EXECUTION_STATUS_KEY,
  RECOVERY_KEY,
  SKIPPED_AFTER_CRASH,
} from '../../../../src/core/state';
import { recordActions } from '../../../../src/core/agent/reply-actions';
import { ofKind, openJournal, policiesOver, reply, noteTool, updates } from '../../../support/loop-parts';

async function storedEvents(f: Awaited<ReturnType<typeof openJournal>>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const slot of f.store.iterate(0)) if (!isCorruptRecord(slot)) out.push(slot as Event);
  return out;
}

describe('conversation journal', () => {
  it('chains appends made at once after each other, durable or not, in the order they were asked', async () => {
    const f = await openJournal();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        f.journal.append('ConversationStateUpdateEvent', { key: 'title', value: `t${i}` }, i % 3 === 0),
      ),
    );
    const events = await storedEvents(f);
    assert.deepEqual(
      events.map((e) => (e as { value?: unknown }).value),
      Array.from({ length: 12 }, (_, i) => `t${i}`),
    );
    events.forEach((e, i) => assert.equal(e.parent_id ?? null, i === 0 ? null : events[i - 1]!.id));
    assert.equal(f.journal.state.head, events.at(-1)!.id);
    assert.deepEqual(f.seen, events, 'listeners see each event as stored, in order');
  });

  it('redacts known secrets before the store and the listeners see an event', async () => {
    const secret = 'sk-parts-0123456789abcdef';
    const f = await openJournal({ secrets: [{ name: 'API key', value: secret }] });
    await f.journal.fail('llm_auth', `the key ${secret} was refused`);
    const stored = JSON.stringify(await storedEvents(f));
    assert.ok(!stored.includes(secret), stored);
    assert.ok(!JSON.stringify(f.seen).includes(secret));
    assert.match(ofKind(f.seen, 'ConversationErrorEvent')[0]!.detail, /the key .+ was refused/);
  });

  it('records a status only when it changes; a pause leaves the conversation paused', async () => {
    const f = await openJournal();
    await f.journal.setStatus('running');
    await f.journal.setStatus('running');
    assert.deepEqual(
      updates(f.seen, EXECUTION_STATUS_KEY).map((e) => e.value),
      ['running'],
    );
    await f.journal.pause();
    assert.equal(ofKind(f.seen, 'PauseEvent').length, 1);
    assert.equal(f.journal.state.status, 'paused');
  });

  it('writes a snapshot every N events, at the event that completes each N', async () => {
    const f = await openJournal({ snapshotEvery: 4 });
    for (let i = 0; i < 9; i++)
      await f.journal.append('ConversationStateUpdateEvent', { key: 'title', value: `t${i}` });
    assert.equal((await f.store.latestSnapshot())?.index, 7);
    assert.equal((await f.store.latestSnapshot(6))?.index, 3);
  });
});

describe('conversation recovery', () => {
  /** A batch of two actions recorded, the first started, then the conversation left running. */
  async function crashedMidBatch() {
    const f = await openJournal();
    const note = noteTool('note');
    const [first, second] = await recordActions(
      reply([
        { name: 'note', args: { text: 'one', security_risk: 'LOW' } },
        { name: 'note', args: { text: 'two', security_risk: 'LOW' } },
      ]),
      { log: f.journal, policies: policiesOver([], f), tools: () => [note] },
    );
    await f.journal.setStatus('running');
    await f.journal.append(
      'ConversationStateUpdateEvent',
      { key: ACTION_STARTED_KEY, value: { action_id: first!.id } },
      true,
    );
    return { f, first: first!, second: second! };
  }

  it('on open, a conversation left running is paused, naming the actions in doubt', async () => {
    const { f, first, second } = await crashedMidBatch();
    await recoverOnOpen(f.journal, f.store);
    const [recovery] = updates(f.seen, RECOVERY_KEY);
    assert.deepEqual((recovery?.value as { in_doubt_action_ids: string[] }).in_doubt_action_ids, [first.id]);
    assert.equal(f.journal.state.status, 'paused');
    assert.deepEqual(
      inDoubtOf(f.journal.state, [first, second]).map((a) => a.id),
      [first.id],
    );
  });

  it('on open, a conversation that was not running gets nothing recorded', async () => {
    const f = await openJournal();
    await f.journal.setStatus('finished');
    const before = f.seen.length;
    await recoverOnOpen(f.journal, f.store);
    assert.equal(f.seen.length, before);
  });

  it('a skipped action in doubt is answered as skipped and is no longer pending or in doubt', async () => {
    const { f, first, second } = await crashedMidBatch();
    await recoverOnOpen(f.journal, f.store);
    await skipInDoubt(f.journal, [first]);
    const [answer] = ofKind(f.seen, 'AgentErrorEvent');
    assert.equal(answer?.error, SKIPPED_AFTER_CRASH);
    assert.equal(answer?.tool_call_id, first.tool_call_id);
    assert.deepEqual(f.journal.state.inDoubt, []);
    assert.deepEqual(
      f.journal.state.pendingActions.map((p) => p.actionId),
      [second.id],
    );
  });

  it('calls left open when the user stops the agent are each answered, so none stays unpaired', async () => {
    const { f, first, second } = await crashedMidBatch();
    await answerWithError(f.journal, [first, second], 'stopped');
    assert.deepEqual(
      ofKind(f.seen, 'AgentErrorEvent').map((e) => [e.tool_call_id, e.error]),
      [
        [first.tool_call_id, 'stopped'],
        [second.tool_call_id, 'stopped'],
      ],
    );
    assert.deepEqual(f.journal.state.pendingActions, []);
  });
});
