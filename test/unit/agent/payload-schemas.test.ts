// Tool payload schemas are a value each conversation is given (built from its own tools), never a
// process-wide registry: two conversations with different tools check their events each by its own
// set, and building a tool list changes nothing for anyone else.
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { conversationEventCodecWith, conversationEventCodec } from '../../../src/core/agent/event-codec';
import * as eventsModule from '../../../src/core/events';
import * as payloadsModule from '../../../src/core/events/payloads';
import { createEvent, parseEvent, serializeEvent } from '../../../src/core/events';
import { isCorruptRecord } from '../../../src/core/log/event-store';
import * as toolsModule from '../../../src/core/tools';
import { defaultTools, payloadSchemasOf, type ToolSpec } from '../../../src/core/tools';
import { openJournal } from '../../support/loop-parts';

/** A tool whose actions of kind ProbeAction must carry a numeric `n`. */
const probe = {
  name: 'probe',
  actionKind: 'ProbeAction',
  actionPayloadSchema: z.looseObject({ n: z.number() }),
} as unknown as ToolSpec;

const probeAction = (n: unknown) =>
  ({
    tool_name: 'probe',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'probe', arguments: '{}', origin: 'completion' },
    llm_response_id: 'r1',
    action: { kind: 'ProbeAction', n },
    thought: [],
    summary: 'probe',
  }) as never;

describe('payload schemas: each conversation checks with its own tools', () => {
  it("a conversation's journal refuses a payload its tool refuses; one without the tool records it", async () => {
    const withProbe = await openJournal({ payloads: payloadSchemasOf([probe]) });
    const without = await openJournal({ payloads: payloadSchemasOf(defaultTools()) });
    await assert.rejects(withProbe.journal.append('ActionEvent', probeAction('one')), /action\.n/);
    await without.journal.append('ActionEvent', probeAction('one'));
    // Order does not matter: the second conversation's tools left nothing in the first.
    await assert.rejects(withProbe.journal.append('ActionEvent', probeAction('two')), /action\.n/);
    await withProbe.journal.append('ActionEvent', probeAction(2));
    assert.equal(without.seen.length, 1);
    assert.equal(withProbe.seen.length, 1);
  });

  it("a store's codec reads a payload by its own set: a record its tool refuses is a corrupt record", () => {
    const line = serializeEvent(createEvent('ActionEvent', probeAction('x')));
    const own = conversationEventCodecWith(payloadSchemasOf([probe])).decode(line, 0);
    assert.ok(isCorruptRecord(own), 'its own tool refuses it');
    assert.ok(!isCorruptRecord(conversationEventCodecWith(payloadSchemasOf(defaultTools())).decode(line, 0)));
    assert.ok(!isCorruptRecord(conversationEventCodec.decode(line, 0)), 'a reader with no tools reads it');
  });

  it('building a tool list registers nothing: parsing elsewhere is unchanged', () => {
    const terminal = { kind: 'TerminalAction', command: 42 };
    const record = {
      ...JSON.parse(serializeEvent(createEvent('ActionEvent', probeAction(1)))),
      action: terminal,
    };
    assert.ok(parseEvent(record).ok, 'no tools given: the payload is open');
    defaultTools();
    payloadSchemasOf([...defaultTools(), probe]);
    assert.ok(parseEvent(record).ok, 'still open after tool lists were built');
    assert.equal(parseEvent(record, { payloads: payloadSchemasOf(defaultTools()) }).ok, false);
  });

  it('no module keeps a registry: nothing to register with, no module-level map of schemas', () => {
    for (const [name, mod] of Object.entries({ eventsModule, payloadsModule, toolsModule })) {
      for (const [key, value] of Object.entries(mod)) {
        assert.doesNotMatch(key, /^(un)?register.*schema|PayloadSchemas$/i, `${name}.${key}`);
        assert.ok(
          !(value instanceof Map) && !(value instanceof Set),
          `${name}.${key} is a shared collection`,
        );
      }
    }
  });
});
