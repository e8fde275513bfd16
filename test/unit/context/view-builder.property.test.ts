// The incremental ViewBuilder must agree with View.fromEvents (the reference) after every append,
// for arbitrary logs: parallel batches, reused call ids, stray and duplicate results, failed calls,
// condensations (also of events not appended yet) and internal events.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { View, ViewBuilder } from '../../../src/core/context';
import { type ActionEvent, type Event, eventsToMessages, isLlmConvertible } from '../../../src/core/events';
import { validateMessages } from '../../support/llm-server';
import { agentMsg, Ids, userMsg } from './events';
import { materialize, opArb } from './random-log';

/**
 * The View's rules written out naively and independently of its code: pair each result with its
 * call the way to-messages.ts documents it, then keep what is neither forgotten nor paired with
 * something forgotten. Returns the kept ids in log order (without the summary).
 */
function naiveKeptIds(log: readonly Event[]): string[] {
  const forgotten = new Set<string>();
  for (const e of log) {
    if (e.kind === 'Condensation') {
      e.forgotten_event_ids.forEach((id) => forgotten.add(id));
      forgotten.add(e.id);
    }
  }
  const llm = log.filter((e) => isLlmConvertible(e));
  const actions: { e: ActionEvent; answer?: Event }[] = [];
  const partner = new Map<Event, Event>();
  const orphans = new Set<Event>();
  const latestUnanswered = (callId: string) =>
    actions.filter((a) => !a.answer && a.e.tool_call_id === callId).at(-1);
  for (const e of llm) {
    if (e.kind === 'ActionEvent') actions.push({ e });
    if (e.kind !== 'ObservationEvent' && e.kind !== 'UserRejectObservation' && e.kind !== 'AgentErrorEvent')
      continue;
    const byId = e.kind === 'AgentErrorEvent' ? undefined : actions.find((a) => a.e.id === e.action_id);
    const target = byId ? (byId.answer ? undefined : byId) : latestUnanswered(e.tool_call_id);
    if (target) {
      target.answer = e;
      partner.set(e, target.e);
      partner.set(target.e, e);
    } else if (e.kind !== 'AgentErrorEvent') {
      orphans.add(e);
    }
  }
  return llm
    .filter((e) => !forgotten.has(e.id) && !orphans.has(e))
    .filter((e) => {
      const p = partner.get(e);
      return p === undefined || !forgotten.has(p.id);
    })
    .map((e) => e.id);
}

describe('ViewBuilder (property)', () => {
  it('equals a from-scratch View after every append, messages included', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const events = materialize(ops);
        const builder = new ViewBuilder();
        events.forEach((e, i) => {
          builder.append(e);
          // Reading only now and then lets several appends pile up between two reads.
          if (i % 3 !== 2 && i !== events.length - 1) return;
          const reference = View.fromEvents(events.slice(0, i + 1));
          assert.deepEqual(
            builder.events.map((x) => x.id),
            reference.events.map((x) => x.id),
          );
          assert.equal(builder.size, reference.size);
          assert.deepEqual(
            builder.events.filter((x) => x !== builder.summary).map((x) => x.id),
            naiveKeptIds(events.slice(0, i + 1)),
            'kept events follow the rules',
          );
          assert.equal(builder.unhandledCondensationRequest, reference.unhandledCondensationRequest);
          assert.equal(builder.estimatedTokens, reference.estimatedTokens);
          const messages = builder.messages();
          assert.deepEqual(messages, eventsToMessages(reference.events));
          if (messages.length > 0) assert.deepEqual(validateMessages(messages), []);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never mutates messages it handed out', () => {
    const ids = new Ids();
    const builder = new ViewBuilder();
    builder.append(userMsg(ids, 'one'));
    const first = builder.messages();
    const snapshot = structuredClone(first);
    builder.append(userMsg(ids, 'two'));
    builder.append(agentMsg(ids, 'three'));
    builder.append(userMsg(ids, 'four'));
    assert.deepEqual(first, snapshot);
    assert.deepEqual(builder.messages()[0], { role: 'user', content: 'one\n\ntwo' });
    assert.ok(Object.isFrozen(builder.messages()[1]));
  });
});
