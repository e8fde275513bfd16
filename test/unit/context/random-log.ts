// Random logs for property tests: parallel batches, reused call ids, stray and duplicate results,
// failed calls, condensations (also of events not appended yet) and internal events.
import fc from 'fast-check';
import { type ActionEvent, type Event } from '../../../src/core/events';
import {
  action,
  agentError,
  agentMsg,
  condensation,
  condensationRequest,
  idOf,
  Ids,
  observation,
  pause,
  rejection,
  systemPrompt,
  userMsg,
} from './events';

export type Op =
  | { op: 'user' | 'agent' | 'system' | 'pause' | 'request' }
  | { op: 'batch'; size: number; reuseCallId: boolean }
  | { op: 'result'; pick: number; how: 'observation' | 'reject' | 'error' | 'by_call_id' }
  | { op: 'failed_call'; pick: number }
  | { op: 'stray' }
  | { op: 'condense'; picks: number[]; ahead: number; summary: boolean; offset: number };

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Op>({ op: 'user' }, { op: 'agent' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Op>({ op: 'system' }, { op: 'pause' }, { op: 'request' }, { op: 'stray' }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('batch' as const),
      size: fc.integer({ min: 1, max: 3 }),
      reuseCallId: fc.boolean(),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('result' as const),
      pick: fc.nat(),
      how: fc.constantFrom(
        'observation' as const,
        'reject' as const,
        'error' as const,
        'by_call_id' as const,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('failed_call' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('condense' as const),
      picks: fc.array(fc.nat(), { maxLength: 6 }),
      ahead: fc.integer({ min: 0, max: 3 }),
      summary: fc.boolean(),
      offset: fc.integer({ min: 0, max: 8 }),
    }),
  },
);

export function materialize(ops: Op[]): Event[] {
  const ids = new Ids();
  const events: Event[] = [];
  const actions: ActionEvent[] = [];
  let responses = 0;
  for (const op of ops) {
    switch (op.op) {
      case 'user':
        events.push(userMsg(ids, `u${events.length}`));
        break;
      case 'agent':
        events.push(agentMsg(ids, `a${events.length}`));
        break;
      case 'system':
        events.push(systemPrompt(ids));
        break;
      case 'pause':
        events.push(pause(ids));
        break;
      case 'request':
        events.push(condensationRequest(ids));
        break;
      case 'stray':
        events.push(observation(ids, { id: idOf(999_999), tool_call_id: 'nobody' }));
        break;
      case 'batch': {
        const responseId = `resp${++responses}`;
        for (let i = 0; i < op.size; i++) {
          // Reused call ids exercise the tool_call_id fallback and the "latest pending" rule.
          const callId =
            op.reuseCallId && actions.length > 0 ? actions.at(-1)!.tool_call_id : `c${actions.length}`;
          const a = action(ids, callId, responseId, i === 0 ? `thought ${responseId}` : '');
          actions.push(a);
          events.push(a);
        }
        break;
      }
      case 'result': {
        const a = actions[op.pick % Math.max(1, actions.length)];
        if (!a) break;
        if (op.how === 'observation') events.push(observation(ids, a));
        else if (op.how === 'reject') events.push(rejection(ids, a));
        else if (op.how === 'error') events.push(agentError(ids, a.tool_call_id));
        else events.push(observation(ids, { id: idOf(888_888), tool_call_id: a.tool_call_id }));
        break;
      }
      case 'failed_call':
        events.push(agentError(ids, `failed${op.pick % 5}`, `resp${Math.max(1, responses)}`));
        break;
      case 'condense': {
        const forgotten = op.picks.map((p) => events[p % Math.max(1, events.length)]?.id ?? idOf(1));
        // Ids Ids will hand out next: events appended after this condensation.
        const next = new Ids();
        for (let i = 0; i < events.length + 1; i++) next.next();
        for (let i = 0; i < op.ahead; i++) forgotten.push(next.next());
        events.push(
          condensation(ids, forgotten, op.summary ? `summary ${events.length}` : undefined, op.offset),
        );
        break;
      }
    }
  }
  return events;
}
