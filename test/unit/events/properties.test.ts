// Property tests: wire round trip for any valid event, and Chat Completions validity (plus an exact
// model of the expected output) for any interleaving the agent can produce.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  type ChatMessage,
  createEvent,
  type Event,
  EVENT_KINDS,
  eventsToMessages,
  isOpaque,
  parseEvent,
  serializeEvent,
} from '../../../src/core/events';
import { validateMessages } from '../../support/llm-server/validate-messages';
import { anyWireEventArb, wireEventArb } from './arbitraries';
import { action, agentMsg, execError, failedCall, observation, reject, userMsg } from './builders';
import { chatProblems } from './chat-checker';
import { TOOL_PAYLOAD_SCHEMAS } from './payload-schemas';

function assertValid(messages: ChatMessage[]): void {
  assert.deepEqual(chatProblems(messages), []);
  if (messages.length > 0) assert.deepEqual(validateMessages(messages), []);
}

describe('event properties', () => {
  // Payloads of the real tools' kinds are checked only when a reader is given their schemas, so
  // the round trip runs both without and with the built-in tools' set.
  for (const mode of ['without', 'with'] as const) {
    describe(`${mode} the tool payload schemas`, () => {
      const where = mode === 'with' ? { payloads: TOOL_PAYLOAD_SCHEMAS } : {};

      it('every valid event of every kind round-trips through JSON unchanged', () => {
        for (const kind of EVENT_KINDS) {
          fc.assert(
            fc.property(wireEventArb(kind), (obj) => {
              const json = JSON.stringify(obj);
              const r = parseEvent(json, where);
              if (!r.ok) throw new Error(r.error.message);
              assert.equal(isOpaque(r.event), false);
              assert.equal(serializeEvent(r.event), json);
              assert.ok(Object.isFrozen(r.event));
            }),
            { numRuns: 60 },
          );
        }
      });
    });
  }

  it('an unknown kind is kept opaque and round-trips unchanged', () => {
    const renamed = fc
      .tuple(anyWireEventArb, fc.string({ minLength: 1, maxLength: 12 }))
      .map(([obj, suffix]) => ({ ...obj, kind: `Future${suffix}` }));
    fc.assert(
      fc.property(renamed, (obj) => {
        const json = JSON.stringify(obj);
        const r = parseEvent(json);
        if (!r.ok) throw new Error(r.error.message);
        assert.ok(isOpaque(r.event));
        assert.equal(serializeEvent(r.event), json);
      }),
    );
  });

  it('parseEvent never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string()), fc.nat(), (value, index) => {
        const r = parseEvent(value, { index });
        if (!r.ok) assert.match(r.error.message, new RegExp(`#${index}`));
      }),
    );
  });
});

// ---- Model of what the agent writes, and of the messages it must produce -----------------------

type Result = 'obs' | 'reject' | 'error' | 'missing';
interface CallSpec {
  valid: boolean;
  withToolCall: boolean;
  result: Result;
  order: number; // position of the result among the batch's results
}
type Step =
  | { t: 'user' | 'summary' | 'agent'; text: string }
  | {
      t: 'batch';
      calls: CallSpec[];
      thought: string;
      later: string;
      reasoning: string;
      reuse: boolean;
      idLess: boolean;
    };

const text = fc.string({ maxLength: 8 });
const callArb = fc.record({
  valid: fc.boolean(),
  withToolCall: fc.boolean(),
  result: fc.constantFrom<Result>('obs', 'obs', 'reject', 'error', 'missing'),
  order: fc.nat(100),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constantFrom<'user' | 'summary' | 'agent'>('user', 'summary', 'agent'), text }),
  fc.record({
    t: fc.constant<'batch'>('batch'),
    calls: fc.array(callArb, { minLength: 1, maxLength: 4 }),
    thought: text,
    later: text,
    reasoning: text,
    reuse: fc.boolean(),
    idLess: fc.boolean(),
  }),
);

function scenario(steps: Step[]): { events: Event[]; expected: ChatMessage[] } {
  const events: Event[] = [];
  const expected: ChatMessage[] = [];
  const pushUser = (content: string) => {
    const last = expected.at(-1);
    if (last?.role === 'user') last.content = `${last.content as string}\n\n${content}`;
    else expected.push({ role: 'user', content });
  };
  const lastBatch = steps.findLastIndex((s) => s.t === 'batch');
  steps.forEach((step, i) => {
    if (step.t !== 'batch') {
      if (step.t === 'agent') {
        events.push(agentMsg(step.text));
        expected.push({ role: 'assistant', content: step.text });
        return;
      }
      events.push(
        step.t === 'user'
          ? userMsg(step.text)
          : createEvent('CondensationSummaryEvent', { summary: step.text }),
      );
      pushUser(step.text);
      return;
    }
    const responseId = `r${i}`;
    const firstValid = step.calls.findIndex((c) => c.valid);
    const prev = steps[i - 1];
    const prevAllFailed = prev?.t === 'batch' && prev.calls.every((c) => !c.valid);
    // Without llm_response_id a failed call is placed by position, which is ambiguous right after
    // a batch of failed calls or when no action of its own batch exists; the agent sets the id.
    const idLess = step.idLess && firstValid >= 0 && (firstValid === 0 || !prevAllFailed);
    const results: { order: number; event: Event }[] = [];
    const answered: { id: string; name: string; args: string; content: string }[] = [];
    step.calls.forEach((c, j) => {
      const id = step.reuse ? `call_${j}` : `c${i}_${j}`;
      if (!c.valid) {
        events.push(failedCall(id, idLess ? undefined : responseId, c.withToolCall));
        answered.push({
          id,
          name: 'terminal',
          args: c.withToolCall ? '{"cmd":1}' : '{}',
          content: `bad arguments for ${id}`,
        });
        return;
      }
      const result: Result = c.result === 'missing' && i !== lastBatch ? 'obs' : c.result;
      const a = action(id, responseId, j === firstValid ? step.thought : step.later);
      const withReasoning =
        j === firstValid && step.reasoning !== ''
          ? { ...JSON.parse(serializeEvent(a)), reasoning_content: step.reasoning }
          : undefined;
      const ev = withReasoning ? (parseEvent(withReasoning) as { ok: true; event: Event }).event : a;
      events.push(ev);
      if (result === 'missing') return;
      const r = result === 'obs' ? observation(a) : result === 'reject' ? reject(a, 'why') : execError(a);
      results.push({ order: c.order, event: r });
      const content =
        result === 'obs' ? `out ${id}` : result === 'reject' ? 'The user rejected this action: why' : 'boom';
      answered.push({ id, name: 'terminal', args: a.tool_call.arguments, content });
    });
    // Results come after the whole batch, in any order.
    results.sort((x, y) => x.order - y.order).forEach((r) => events.push(r.event));
    const order = step.calls.map((_, j) => (step.reuse ? `call_${j}` : `c${i}_${j}`));
    answered.sort((x, y) => order.indexOf(x.id) - order.indexOf(y.id));
    const thought = firstValid >= 0 ? step.thought : '';
    const reasoning = firstValid >= 0 ? step.reasoning : '';
    if (answered.length === 0 && thought === '') return;
    const assistant: ChatMessage = { role: 'assistant', content: thought === '' ? null : thought };
    if (answered.length > 0) {
      assistant.tool_calls = answered.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.args },
      }));
    }
    if (reasoning !== '') assistant.reasoning_content = reasoning;
    expected.push(assistant);
    for (const c of answered) expected.push({ role: 'tool', tool_call_id: c.id, content: c.content });
  });
  return { events, expected };
}

/** Internal events (state updates, unknown kinds) may land anywhere and change nothing. */
function withNoise(events: Event[], positions: number[]): Event[] {
  const out = [...events];
  for (const p of positions) {
    const noise =
      p % 2 === 0 ? createEvent('ConversationStateUpdateEvent', { key: 'stats', value: p }) : opaqueEvent();
    out.splice(p % (out.length + 1), 0, noise);
  }
  return out;
}

function opaqueEvent(): Event {
  const r = parseEvent({
    id: 'opaque-1',
    timestamp: '2030-01-01T00:00:00Z',
    source: 'agent',
    kind: 'FutureEvent',
    note: 'ignored',
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.event;
}

describe('eventsToMessages properties', () => {
  it('matches the model for any interleaving the agent produces, and is always valid', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 8 }),
        fc.array(fc.nat(1000), { maxLength: 4 }),
        (steps, noise) => {
          const { events, expected } = scenario(steps);
          const messages = eventsToMessages(withNoise(events, noise));
          assertValid(messages);
          assert.deepEqual(messages, expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays valid for arbitrary, even nonsensical, event orders', () => {
    const specArb = fc.oneof(
      fc.record({
        t: fc.constant('action' as const),
        call: fc.constantFrom('a', 'b', 'c'),
        resp: fc.constantFrom('r1', 'r2'),
        thought: text,
      }),
      fc.record({ t: fc.constantFrom('obs' as const, 'reject' as const, 'exec' as const), ref: fc.nat() }),
      fc.record({
        t: fc.constant('failed' as const),
        call: fc.constantFrom('a', 'b', 'c'),
        resp: fc.option(fc.constantFrom('r1', 'r2'), { nil: undefined }),
      }),
      fc.record({ t: fc.constantFrom('user' as const, 'agent' as const), text }),
    );
    fc.assert(
      fc.property(fc.array(specArb, { maxLength: 14 }), (specs) => {
        const actions = specs.flatMap((s) => (s.t === 'action' ? [action(s.call, s.resp, s.thought)] : []));
        let k = 0;
        const events: Event[] = specs.flatMap((s): Event[] => {
          switch (s.t) {
            case 'action':
              return [actions[k++] as Event];
            case 'obs':
            case 'reject':
            case 'exec': {
              const a = actions[s.ref % Math.max(1, actions.length)];
              if (!a) return [];
              return [s.t === 'obs' ? observation(a) : s.t === 'reject' ? reject(a) : execError(a)];
            }
            case 'failed':
              return [failedCall(s.call, s.resp)];
            case 'user':
              return [userMsg(s.text)];
            case 'agent':
              return [agentMsg(s.text)];
          }
        });
        assertValid(eventsToMessages(events));
      }),
      { numRuns: 500 },
    );
  });
});
