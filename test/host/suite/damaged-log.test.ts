import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { createEvent, type Event } from '../../../src/core/events';
import { SegmentEventStore } from '../../../src/core/log/segment-store';
import { logbook } from './helpers';

/** A short finished conversation written straight into a log under the extension's storage. */
async function writeConversation(dir: string, messages: number): Promise<Event[]> {
  const store = await SegmentEventStore.open<StoredConversationEvent>(dir, { codec: conversationEventCodec });
  const events: Event[] = [];
  let parent: string | null = null;
  for (let i = 0; i < messages; i++) {
    const e: Event = createEvent('MessageEvent', {
      source: i % 2 === 0 ? 'user' : 'agent',
      llm_message: {
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: [{ type: 'text', text: `message number ${i} with enough text to damage safely` }],
      },
      parent_id: parent,
    });
    await store.append(e as StoredConversationEvent);
    events.push(e);
    parent = e.id;
  }
  await store.close();
  return events;
}

/** Changes one letter inside the JSON of record `index` (its checksum no longer holds). */
function damageRecord(dir: string, index: number): void {
  const segments = join(dir, 'segments');
  const file = join(segments, readdirSync(segments).sort()[0]!);
  const text = readFileSync(file, 'latin1');
  let start = 0;
  for (let i = 0; i < index; i++) start = text.indexOf('\n', start) + 1;
  const at = text.indexOf('message number', start);
  writeFileSync(file, text.slice(0, at) + 'M' + text.slice(at + 1), 'latin1');
}

describe('A damaged conversation log', () => {
  it('opens with the unreadable record kept aside and shown in its place; every later event is served', async () => {
    const { service } = await logbook();
    const id = randomUUID();
    const dir = join(service.root, id);
    const written = await writeConversation(dir, 8);
    damageRecord(dir, 3);

    const session = await service.session(id);
    try {
      assert.equal(session.readOnly, false);
      const served = await session.eventsAfter(-1);
      // The log was written without a system prompt: opening it re-derives one and appends it.
      assert.equal(served.length, written.length + 1, 'no slot is dropped');
      const prompt = served.at(-1)!.event;
      assert.equal(prompt.kind, 'SystemPromptEvent');
      const bad = served[3]!.event as { kind: string; index?: number; reason?: string };
      assert.equal(bad.kind, 'CorruptRecord');
      assert.equal(bad.index, 3);
      assert.match(bad.reason ?? '', /checksum/);
      for (const i of [0, 1, 2, 4, 5, 6, 7]) assert.equal(served[i]!.event.id, written[i]!.id, `event ${i}`);
      const quarantine = join(dir, 'quarantine');
      assert.ok(existsSync(quarantine) && readdirSync(quarantine).length === 1, 'the damaged bytes are kept');
      // The conversation carries on after the damage: its state counts the readable events.
      assert.equal(session.conversation.state.eventCount, written.length - 1 + 1);
      assert.equal(session.conversation.state.head, prompt.id);
      await session.rename('Survived a damaged record');
      assert.equal(session.header().title, 'Survived a damaged record');
    } finally {
      await service.delete(id);
    }
  });
});
