import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  type ActionEvent,
  createEvent,
  type Event,
  isKind,
  isOpaque,
  parseEvent,
  type PayloadSchemas,
  serializeEvent,
} from '../../../src/core/events';
import { payloadSchemasOf } from '../../../src/core/tools';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'openhands', 'real-events.jsonl');
const lines = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

function mustParse(json: unknown): Event {
  const r = parseEvent(json);
  if (!r.ok) assert.fail(r.error.message);
  return r.event;
}

describe('events codec', () => {
  it('parses every real OpenHands event and writes the same JSON back (key order included)', () => {
    assert.equal(lines.length, 10);
    lines.forEach((line, index) => {
      const r = parseEvent(line, { index });
      if (!r.ok) assert.fail(r.error.message);
      assert.equal(isOpaque(r.event), false, `line ${index} should be a known kind`);
      // JSON.stringify(JSON.parse(line)) only normalises number spelling (0.0 -> 0).
      assert.equal(serializeEvent(r.event), JSON.stringify(JSON.parse(line)));
    });
  });

  it('types the fixture: ActionEvent fields and the nested TerminalAction', () => {
    const e = mustParse(lines[3]);
    assert.ok(isKind(e, 'ActionEvent'));
    assert.equal(e.action?.kind, 'TerminalAction');
    assert.equal(e.tool_call.name, 'terminal');
    assert.equal(e.llm_response_id, '0680149d625114e6a97f54b158714212');
  });

  it('narrows the Event union with a plain kind comparison (type-checked)', () => {
    const e: Event = mustParse(lines[3]);
    if (e.kind !== 'ActionEvent') return assert.fail('expected an ActionEvent');
    const args: string = e.tool_call.arguments; // compiles only if OpaqueEvent was narrowed away
    assert.match(args, /security_risk/);
  });

  it('keeps unknown fields of a known kind', () => {
    const obj = { ...JSON.parse(lines[0] as string), added_in_v2: { deep: [1, 2] } };
    const e = mustParse(JSON.stringify(obj));
    assert.equal(isOpaque(e), false);
    assert.deepEqual(JSON.parse(serializeEvent(e)), obj);
  });

  it('keeps an unknown kind as an opaque event that round-trips unchanged', () => {
    const raw =
      '{"id":"x-1","timestamp":"2030-01-01T00:00:00","source":"robot","kind":"HologramEvent","z":[null]}';
    const e = mustParse(raw);
    assert.ok(isOpaque(e));
    assert.equal(e.kind, 'OpaqueEvent');
    assert.equal(e.original_kind, 'HologramEvent');
    assert.equal(JSON.stringify(e), raw, 'plain JSON.stringify writes the record too');
    assert.equal(serializeEvent(e), raw);
    assert.ok(Object.isFrozen(e));
  });

  it('names the record and the field path of an invalid event', () => {
    const obj = JSON.parse(lines[3] as string);
    obj.tool_call.arguments = 42;
    const r = parseEvent(obj, { index: 7 });
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.match(r.error.message, /#7/);
    assert.match(r.error.message, /id e54cbba2-3be2-4494-aa13-83af6044c5a7/);
    assert.match(r.error.message, /tool_call\.arguments/);
    assert.deepEqual(r.error.issues[0]?.path, ['tool_call', 'arguments']);
    assert.equal(r.error.index, 7);
  });

  it('rejects non-JSON, non-objects, and opaque records without an id', () => {
    for (const bad of ['{', '[]', '3', 'null', '{"kind":"Nope"}', { kind: 'PauseEvent' }]) {
      const r = parseEvent(bad, { index: 1 });
      assert.equal(r.ok, false, JSON.stringify(bad));
      if (!r.ok) assert.match(r.error.message, /^Invalid event \(#1/);
    }
  });

  it('validates timestamps and sources', () => {
    const base = { id: '03d5b5c0-6890-4b43-831a-5b079d0e889e', source: 'user', kind: 'PauseEvent' };
    assert.ok(parseEvent({ ...base, timestamp: '2026-06-16T05:39:18.809928' }).ok);
    assert.ok(parseEvent({ ...base, timestamp: '2026-06-16T05:39:18+02:00' }).ok);
    assert.equal(parseEvent({ ...base, timestamp: 'yesterday' }).ok, false);
    assert.equal(parseEvent({ ...base, timestamp: '2026-06-16T05:39:18Z', source: 'martian' }).ok, false);
  });

  it('does not freeze the caller object it was given', () => {
    const obj = JSON.parse(lines[0] as string);
    mustParse(obj);
    assert.equal(Object.isFrozen(obj), false);
  });

  it('createEvent fills id, zoned timestamp, source and defaults, with kind last', () => {
    const e = createEvent('MessageEvent', {
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
    assert.match(e.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(e.timestamp, /Z$/);
    assert.equal(e.source, 'user');
    assert.deepEqual(e.extended_content, []);
    assert.equal(Object.keys(e).at(-1), 'kind');
    const back = mustParse(serializeEvent(e));
    assert.deepEqual(back, e);
    const a = createEvent('PauseEvent', {});
    assert.equal(a.source, 'user');
  });

  it("createEvent keeps a source given over the kind's default (a user's action is not the agent's)", () => {
    const call = { id: 'c1', name: 'terminal', arguments: '{}' };
    const fields = { tool_name: 'terminal', tool_call_id: 'c1', tool_call: call, llm_response_id: 'r1' };
    const e = createEvent('ActionEvent', { ...fields, action: null, reasoning_content: null, summary: null });
    assert.equal(e.source, 'agent');
    assert.equal(
      createEvent('ActionEvent', {
        ...fields,
        action: null,
        source: 'user',
        reasoning_content: null,
        summary: null,
      }).source,
      'user',
    );
    assert.deepEqual(Object.keys(e).slice(0, 3), ['id', 'timestamp', 'source']);
  });

  it('createEvent throws with the field path on invalid input', () => {
    assert.throws(
      () => createEvent('ConversationErrorEvent', { code: 'E', detail: 5 as unknown as string }),
      /kind ConversationErrorEvent\): detail: /,
    );
  });

  it('validates action payloads against the tool schemas it is given, and only those', () => {
    const obj = JSON.parse(lines[3] as string);
    obj.action.is_input = 'no';
    assert.ok(parseEvent(obj).ok, 'without schemas the payload is open');
    const terminal: PayloadSchemas = {
      actions: new Map([['TerminalAction', z.looseObject({ command: z.string(), is_input: z.boolean() })]]),
      observations: new Map(),
    };
    assert.ok(parseEvent(lines[3], { payloads: terminal }).ok);
    const r = parseEvent(obj, { payloads: terminal });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error.message, /action\.is_input/);
    assert.ok(parseEvent(obj, { payloads: payloadSchemasOf([]) }).ok, 'another set does not carry it');
    assert.ok(parseEvent(obj).ok, 'and checking with it left nothing behind');
    assert.throws(
      () => createEvent('ActionEvent', { ...obj, kind: undefined } as never, terminal),
      /action\.is_input/,
    );
  });

  it('accepts an ActionEvent whose action could not be validated (null)', () => {
    const obj = JSON.parse(lines[3] as string);
    obj.action = null;
    assert.ok(parseEvent(obj).ok);
  });
});

describe('events immutability', () => {
  it('deep-freezes parsed and created events: assignment throws in strict mode', () => {
    const e = mustParse(lines[3]) as ActionEvent;
    assert.throws(() => {
      // @ts-expect-error readonly at compile time
      e.tool_name = 'x';
    }, TypeError);
    assert.throws(() => {
      // @ts-expect-error nested readonly too
      e.tool_call.arguments = '{}';
    }, TypeError);
    assert.throws(() => {
      // @ts-expect-error arrays are readonly
      e.thought.push({ type: 'text', text: 'more' });
    }, TypeError);
    const created = createEvent('ConversationStateUpdateEvent', { key: 'k', value: { a: [1] } });
    assert.throws(() => {
      // @ts-expect-error readonly
      created.key = 'other';
    }, TypeError);
    assert.ok(Object.isFrozen((created.value as { a: number[] }).a));
  });
});
