// A long argument is stored once (the codec cuts it out of tool_call.arguments and puts it back on
// read) and a create's observation refers to its action's text; both stay invisible to readers: the
// decoded event and every export are the OpenHands wire format, byte for byte.
import * as assert from 'node:assert/strict';
import {
  conversationEventCodec,
  openHandsEventCodec,
  type StoredConversationEvent,
} from '../../../src/core/agent/event-codec';
import {
  createEvent,
  type Event,
  MIN_SHARED_CHARS,
  ObservationRefResolver,
  observationNewContent,
  serializeEvent,
} from '../../../src/core/events';
import { isCorruptRecord } from '../../../src/core/log';

const text = 'export const greeting = "héllo\\tworld";\n'.repeat(2000); // ~80 KB, quotes, tabs, non-ASCII

function createAction(args: string, fileText: string) {
  return createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'FileEditorAction', command: 'create', path: 'a.ts', file_text: fileText },
    tool_name: 'file_editor',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'file_editor', arguments: args, origin: 'completion' },
    llm_response_id: 'resp_1',
  } as never);
}

const roundTrip = (e: Event) =>
  conversationEventCodec.decode(conversationEventCodec.encode(e as StoredConversationEvent), 0);

describe('a long argument is stored once', () => {
  it('a create: the record holds the text once and reads back byte for byte', () => {
    const args = JSON.stringify({ command: 'create', path: 'a.ts', file_text: text, security_risk: 'LOW' });
    const e = createAction(args, text);
    const record = conversationEventCodec.encode(e as StoredConversationEvent);
    const full = serializeEvent(e);
    assert.ok(record.length < JSON.stringify(text).length + 2000, `record ${record.length} bytes`);
    assert.ok(full.length > 2 * JSON.stringify(text).length, 'the wire format carries it twice');
    const back = conversationEventCodec.decode(record, 0);
    assert.equal(serializeEvent(back), full);
    assert.deepEqual(back, e);
    // OpenHands gets the whole event.
    assert.equal(openHandsEventCodec.encode(e as StoredConversationEvent), full);
  });

  it("the model's own spacing and Python-style \\u escapes survive", () => {
    const literal = JSON.stringify(text).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const args = `{"command": "create", "path": "a.ts", "file_text": ${literal}, "security_risk": "LOW"}`;
    const e = createAction(args, text);
    const record = conversationEventCodec.encode(e as StoredConversationEvent);
    assert.ok(record.length < serializeEvent(e).length / 1.5);
    assert.equal(serializeEvent(conversationEventCodec.decode(record, 0)), serializeEvent(e));
  });

  it('two long fields (str_replace) are both cut out; short events are stored as OpenHands writes them', () => {
    const oldStr = 'a'.repeat(MIN_SHARED_CHARS);
    const newStr = 'b\n'.repeat(MIN_SHARED_CHARS);
    const args = JSON.stringify({ command: 'str_replace', path: 'a.ts', old_str: oldStr, new_str: newStr });
    const e = createEvent('ActionEvent', {
      thought: [],
      action: {
        kind: 'FileEditorAction',
        command: 'str_replace',
        path: 'a.ts',
        old_str: oldStr,
        new_str: newStr,
      },
      tool_name: 'file_editor',
      tool_call_id: 'call_2',
      tool_call: { id: 'call_2', name: 'file_editor', arguments: args },
      llm_response_id: 'resp_2',
    } as never);
    const record = conversationEventCodec.encode(e as StoredConversationEvent);
    assert.ok(record.length < args.length + 1000);
    assert.equal(serializeEvent(roundTrip(e)), serializeEvent(e));

    const small = createAction(JSON.stringify({ command: 'create', path: 'a.ts', file_text: 'hi' }), 'hi');
    assert.equal(conversationEventCodec.encode(small as StoredConversationEvent), serializeEvent(small));
  });

  it('a record whose note does not fit is reported as corrupt, never misread', () => {
    const args = JSON.stringify({ command: 'create', path: 'a.ts', file_text: text });
    const record = JSON.parse(
      conversationEventCodec.encode(createAction(args, text) as StoredConversationEvent),
    );
    record.tool_call.arguments_refs[0].at = record.tool_call.arguments.length + 1;
    assert.ok(isCorruptRecord(conversationEventCodec.decode(JSON.stringify(record), 7)));
    record.tool_call.arguments_refs[0].at = 0;
    record.action.file_text = null;
    assert.ok(isCorruptRecord(conversationEventCodec.decode(JSON.stringify(record), 7)));
  });
});

describe("a create's observation refers to its action's text", () => {
  const action = createAction(JSON.stringify({ command: 'create', path: 'a.ts', file_text: text }), text);
  const observation = createEvent('ObservationEvent', {
    observation: {
      kind: 'FileEditorObservation',
      content: [{ type: 'text', text: 'Created a.ts (2001 lines).' }],
      is_error: false,
      command: 'create',
      path: '/ws/a.ts',
      prev_exist: false,
      old_content: null,
      new_content: null,
      new_content_from_action: 'file_text',
    },
    action_id: action.id,
    tool_name: 'file_editor',
    tool_call_id: 'call_1',
  } as never);

  it('readers resolve it from the action', () => {
    assert.equal(observationNewContent(observation.observation, action), text);
    assert.equal(observationNewContent(observation.observation, undefined), undefined);
    assert.equal(observationNewContent({ new_content: 'own' }, action), 'own');
  });

  it('an OpenHands export gets new_content back, in its place, and no reference', () => {
    const refs = new ObservationRefResolver();
    const [a, o] = [action, observation].map((e) => refs.resolve(e));
    assert.equal(a, action);
    const obs = (o as typeof observation).observation as Record<string, unknown>;
    assert.equal(obs.new_content, text);
    assert.equal('new_content_from_action' in obs, false);
    assert.deepEqual(Object.keys(obs), [
      'kind',
      'content',
      'is_error',
      'command',
      'path',
      'prev_exist',
      'old_content',
      'new_content',
    ]);
  });
});
