// The codec an import copies events with: the same records as the conversation's own codec, from
// events it leaves unfrozen (nothing keeps them), read the same way.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  conversationEventCodec,
  importEventCodec,
  type StoredConversationEvent,
} from '../../../src/core/agent/event-codec';
import { createEvent, parseOwnedEvent } from '../../../src/core/events';
import { isCorruptRecord } from '../../../src/core/log';
import type { Slot } from '../../../src/core/log/event-store';
import { anyWireEventArb } from './arbitraries';

describe('the import codec', () => {
  it('writes every event exactly as the conversation codec does', () => {
    fc.assert(
      fc.property(anyWireEventArb, (wire) => {
        const line = JSON.stringify(wire);
        const frozen = conversationEventCodec.decode(line, 0);
        const unfrozen = importEventCodec.decode(line, 0);
        if (isCorruptRecord(frozen)) return assert.ok(isCorruptRecord(unfrozen));
        assert.equal(importEventCodec.encode(unfrozen), conversationEventCodec.encode(frozen));
      }),
      { numRuns: 300 },
    );
  });

  it('still stores a long argument once', () => {
    const text = 'const a = "é";\n'.repeat(600);
    const args = JSON.stringify({ command: 'create', path: 'a.ts', file_text: text });
    const e = createEvent('ActionEvent', {
      thought: [],
      action: { kind: 'FileEditorAction', command: 'create', path: 'a.ts', file_text: text },
      tool_name: 'file_editor',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', name: 'file_editor', arguments: args, origin: 'completion' },
      llm_response_id: 'resp_1',
    } as never) as StoredConversationEvent;
    const record = importEventCodec.encode(e);
    assert.equal(record, conversationEventCodec.encode(e));
    assert.ok(record.length < args.length + text.length / 2, 'the text is in the record once');
  });

  it('reads events unfrozen, where the conversation codec freezes them', () => {
    const line = JSON.stringify(
      createEvent('MessageEvent', {
        llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      } as never),
    );
    const read = importEventCodec.decode(line, 0) as unknown as { llm_message: object };
    assert.ok(!Object.isFrozen(read) && !Object.isFrozen(read.llm_message));
    assert.ok(Object.isFrozen(conversationEventCodec.decode(line, 0)));
  });

  it('reports a malformed record as the conversation codec does', () => {
    for (const line of ['{"kind":"MessageEvent"', '{"kind":"ActionEvent","id":"x"}', '[]']) {
      const a = importEventCodec.decode(line, 7) as Slot<StoredConversationEvent>;
      const b = conversationEventCodec.decode(line, 7) as Slot<StoredConversationEvent>;
      assert.ok(isCorruptRecord(a) && isCorruptRecord(b), line);
      assert.equal(a.reason, b.reason);
    }
  });

  it('parseOwnedEvent freezes unless told the event is not kept', () => {
    const value = () => JSON.parse(JSON.stringify(createEvent('PauseEvent', {} as never))) as unknown;
    const kept = parseOwnedEvent(value());
    const copied = parseOwnedEvent(value(), { unfrozen: true });
    assert.ok(kept.ok && copied.ok);
    assert.ok(Object.isFrozen(kept.event) && !Object.isFrozen(copied.event));
  });
});
