// The view converts its closed segments to messages when a prompt first asks, not as events are
// appended: a long view read back only to be condensed is never converted whole.
import * as assert from 'node:assert/strict';
import { View, ViewBuilder } from '../../../src/core/context';
import type { Event, MessageEvent } from '../../../src/core/events';
import { agentMsg, Ids, systemPrompt, userMsg } from './events';

/** `e` with its message behind a getter that counts each read. */
function counted(e: MessageEvent): { event: MessageEvent; reads: () => number } {
  let reads = 0;
  const event = { ...e };
  Object.defineProperty(event, 'llm_message', {
    enumerable: true,
    get: () => {
      reads++;
      return e.llm_message;
    },
  });
  return { event, reads: () => reads };
}

describe('ViewBuilder: messages on demand', () => {
  it('reads an early event`s message only when a prompt is asked for, and gives the same prompt', () => {
    const ids = new Ids();
    const first = counted(userMsg(ids, 'the task'));
    const events: Event[] = [systemPrompt(ids), first.event];
    for (let i = 0; i < 50; i++) events.push(agentMsg(ids, `step ${i}`), userMsg(ids, `more ${i}`));
    const builder = new ViewBuilder().appendAll(events);
    const afterAppends = first.reads();
    const messages = builder.messages();
    assert.ok(
      first.reads() > afterAppends,
      'the first message, long in a closed segment, is converted when the prompt is built',
    );
    assert.deepEqual(messages, View.fromEvents(events).messages());
    // Converted once: later prompts reuse it, and events appended since join at the end.
    const later = [agentMsg(ids, 'later'), userMsg(ids, 'and then')];
    const expected = View.fromEvents([...events, ...later]).messages();
    const again = first.reads();
    builder.appendAll(later);
    assert.deepEqual(builder.messages(), expected);
    assert.equal(first.reads(), again);
  });
});
