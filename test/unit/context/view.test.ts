import assert from 'node:assert/strict';
import { type Event, eventsToMessages } from '../../../src/core/events';
import { View, ViewBuilder } from '../../../src/core/context';
import { validateMessages } from '../../support/llm-server';
import {
  action,
  agentError,
  agentMsg,
  condensation,
  condensationRequest,
  conversation,
  Ids,
  observation,
  pause,
  rejection,
  stateUpdate,
  systemPrompt,
  userMsg,
} from './events';

const kinds = (v: { events: readonly Event[] }) => v.events.map((e) => e.kind);

/** Both implementations, checked against each other on every case. */
function views(events: Event[]): View {
  const view = View.fromEvents(events);
  const builder = new ViewBuilder().appendAll(events);
  assert.deepEqual(
    builder.events.map((e) => e.id),
    view.events.map((e) => e.id),
    'ViewBuilder agrees with View.fromEvents',
  );
  assert.deepEqual(builder.messages(), view.messages());
  if (view.size > 0) assert.deepEqual(validateMessages(view.messages()), []);
  return view;
}

describe('View', () => {
  it('keeps only LLM-convertible events', () => {
    const ids = new Ids();
    const events = [
      systemPrompt(ids),
      pause(ids),
      userMsg(ids, 'hi'),
      stateUpdate(ids),
      condensationRequest(ids),
    ];
    const view = views(events);
    assert.deepEqual(kinds(view), ['SystemPromptEvent', 'MessageEvent']);
    assert.equal(view.unhandledCondensationRequest, true);
  });

  it('drops forgotten events and the Condensation itself, and inserts the summary at its offset', () => {
    const ids = new Ids();
    const events = conversation(ids, 6); // system, user, 6 pairs (no remark yet)
    const forgotten = events.slice(2, 8).map((e) => e.id); // three pairs
    const c = condensation(ids, forgotten, 'SUMMARY', 2);
    const view = views([...events, c, userMsg(ids, 'next')]);

    assert.equal(view.size, events.length - 6 + 1 + 1);
    assert.equal(view.events[2]?.kind, 'CondensationSummaryEvent');
    assert.equal(view.summary?.summary, 'SUMMARY');
    assert.equal(view.summary?.id, c.id);
    assert.ok(!view.events.some((e) => forgotten.includes(e.id)));
    assert.ok(!view.events.some((e) => (e.kind as string) === 'Condensation'));
    const messages = view.messages();
    // The summary is a user message, merged with the task right before it.
    assert.deepEqual(messages[1], { role: 'user', content: 'Fix the bug in parser.ts\n\nSUMMARY' });
    assert.equal(messages[2]?.role, 'assistant');
    assert.equal(view.unhandledCondensationRequest, false);
  });

  it('shows only the latest summary, placed among the events before its Condensation', () => {
    const ids = new Ids();
    const events = conversation(ids, 4);
    const first = condensation(ids, [events[2]!.id, events[3]!.id], 'FIRST', 2);
    const second = condensation(ids, [events[4]!.id, events[5]!.id], 'SECOND', 99);
    const after = userMsg(ids, 'after');
    const view = views([...events, first, second, after]);
    const summaries = view.events.filter((e) => e.kind === 'CondensationSummaryEvent');
    assert.deepEqual(
      summaries.map((s) => s.summary),
      ['SECOND'],
    );
    // Offset 99 is clamped to the 6 events kept before the second condensation, not past `after`.
    assert.equal(view.events.indexOf(view.summary!), 6);
    assert.equal(view.events.at(-1)?.id, after.id);
  });

  it('keeps the previous summary when a later condensation has none', () => {
    const ids = new Ids();
    const events = conversation(ids, 4);
    const view = views([
      ...events,
      condensation(ids, [events[2]!.id, events[3]!.id], 'KEPT', 2),
      condensation(ids, [events[4]!.id, events[5]!.id]),
    ]);
    assert.equal(view.summary?.summary, 'KEPT');
  });

  it('drops the observation of a forgotten action, and the action of a forgotten observation', () => {
    const ids = new Ids();
    const a1 = action(ids, 'c1', 'r1');
    const o1 = observation(ids, a1);
    const a2 = action(ids, 'c2', 'r2');
    const o2 = observation(ids, a2);
    const view = views([userMsg(ids, 'go'), a1, o1, a2, o2, condensation(ids, [a1.id, o2.id])]);
    assert.deepEqual(kinds(view), ['MessageEvent']);
  });

  it('drops a whole parallel call when one of its events is forgotten, keeping the rest of the batch', () => {
    const ids = new Ids();
    const a = action(ids, 'ca', 'batch', 'two reads');
    const b = action(ids, 'cb', 'batch');
    const oa = observation(ids, a);
    const ob = observation(ids, b);
    const view = views([userMsg(ids, 'go'), a, b, oa, ob, condensation(ids, [oa.id])]);
    assert.deepEqual(
      view.events.map((e) => e.id),
      [view.events[0]!.id, b.id, ob.id],
    );
  });

  it('drops the error answering a forgotten action, but keeps a failed call on its own', () => {
    const ids = new Ids();
    const a = action(ids, 'c1', 'r1');
    const err = agentError(ids, 'c1');
    const failed = agentError(ids, 'bad', 'r2');
    const view = views([userMsg(ids, 'go'), a, err, failed, condensation(ids, [a.id])]);
    assert.deepEqual(
      view.events.map((e) => e.id),
      [view.events[0]!.id, failed.id],
    );
    assert.equal(view.messages()[1]?.role, 'assistant');
  });

  it('drops results that answer nothing and second results', () => {
    const ids = new Ids();
    const a = action(ids, 'c1', 'r1');
    const stray = observation(ids, { id: ids.next(), tool_call_id: 'nobody' });
    const o = observation(ids, a);
    const again = rejection(ids, a);
    const view = views([userMsg(ids, 'go'), stray, a, o, again]);
    assert.deepEqual(
      view.events.map((e) => e.id),
      [view.events[0]!.id, a.id, o.id],
    );
  });

  it('keeps a pending batch in the view but not in the messages until its results arrive', () => {
    const ids = new Ids();
    const a = action(ids, 'c1', 'r1', 'let me look');
    const events = [userMsg(ids, 'go'), a];
    const pending = views(events);
    assert.deepEqual(kinds(pending), ['MessageEvent', 'ActionEvent']);
    assert.deepEqual(pending.messages().at(-1), { role: 'assistant', content: 'let me look' });
    const answered = views([...events, observation(ids, a)]);
    assert.equal(answered.messages().at(-1)?.role, 'tool');
  });

  it('matches a result by tool_call_id when its action_id is unknown', () => {
    const ids = new Ids();
    const a = action(ids, 'c1', 'r1');
    const viaCallId = observation(ids, { id: ids.next(), tool_call_id: 'c1' });
    const view = views([userMsg(ids, 'go'), a, viaCallId, condensation(ids, [viaCallId.id])]);
    assert.deepEqual(kinds(view), ['MessageEvent'], 'forgetting that result drops its action too');
  });

  it('produces messages equal to eventsToMessages of its events', () => {
    const ids = new Ids();
    const events = conversation(ids, 10);
    const view = views([
      ...events,
      condensation(
        ids,
        events.slice(2, 12).map((e) => e.id),
        'S',
        2,
      ),
    ]);
    assert.deepEqual(view.messages(), eventsToMessages(view.events));
  });

  it('handles a Condensation that forgets an event appended after it', () => {
    const ids = new Ids();
    const head = [systemPrompt(ids), userMsg(ids, 'go')];
    const a = action(ids, 'c1', 'r1');
    const futureId = ids.next();
    const c = condensation(ids, [futureId]);
    const o = { ...observation(ids, a), id: futureId } as Event;
    const view = views([...head, a, c, o, agentMsg(ids, 'done')]);
    assert.deepEqual(kinds(view), ['SystemPromptEvent', 'MessageEvent', 'MessageEvent']);
  });
});
