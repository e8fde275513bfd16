// The incremental ViewBuilder must agree with View.fromEvents (the reference) after every append,
// for arbitrary logs: parallel batches, reused call ids, stray and duplicate results, failed calls,
// condensations (also of events not appended yet) and internal events.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { View, ViewBuilder, ViewLedger } from '../../../src/core/context';
import { type ActionEvent, type Event, eventsToMessages, isLlmConvertible } from '../../../src/core/events';
import { validateMessages } from '../../support/llm-server';
import { agentMsg, condensation, Ids, userMsg } from './events';
import { materialize, type Op, opArb } from './random-log';

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
    let condensed = 0;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const events = materialize(ops);
        if (events.some((e) => e.kind === 'Condensation')) condensed++;
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
    // The rules worth checking are the condensation's: enough runs must have one.
    assert.ok(condensed >= 50, `only ${condensed} of 300 runs held a condensation`);
  });

  it('restores from a checkpoint to a builder that agrees with the full one on every later append', () => {
    let restoredRuns = 0;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.nat(), (ops, cut) => {
        const events = materialize(ops);
        const at = events.length ? cut % (events.length + 1) : 0;
        const full = new ViewBuilder().appendAll(events.slice(0, at));
        const cp = JSON.parse(JSON.stringify(full.checkpoint())) as ReturnType<ViewBuilder['checkpoint']>;
        const byId = new Map(events.slice(0, at).map((e) => [e.id, e]));
        const restored = ViewBuilder.restore(cp, (id) => byId.get(id));
        assert.ok(restored, 'a checkpoint restores from the events it names');
        // Only what may still be shown is named, never the whole prefix.
        const shown = new Set(full.events.map((e) => e.id));
        for (const id of cp.entries) {
          const e = byId.get(id)!;
          assert.ok(shown.has(id) || e.kind === 'ActionEvent', 'a retained event is shown or an action');
        }
        for (let i = at; i < events.length; i++) {
          const e = events[i]!;
          // The one documented difference: a result naming an answered action the checkpoint dropped.
          if (restored.referencesUnknownAction(e) && byId.has((e as { action_id: string }).action_id)) return;
          restored.append(e);
          full.append(e);
          assert.deepEqual(
            restored.events.map((x) => x.id),
            full.events.map((x) => x.id),
          );
          assert.equal(restored.unhandledCondensationRequest, full.unhandledCondensationRequest);
          assert.deepEqual(restored.messages(), full.messages());
        }
        assert.deepEqual(restored.messages(), View.fromEvents(events).messages());
        assert.equal(restored.estimatedTokens, full.estimatedTokens);
        restoredRuns++;
      }),
      { numRuns: 400 },
    );
    assert.ok(restoredRuns > 200, `most runs compare to the end (${restoredRuns})`);
  });

  it('a ledger that keeps only ids and kinds checkpoints exactly as the builder does', () => {
    let condensed = 0;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const events = materialize(ops);
        if (events.some((e) => e.kind === 'Condensation')) condensed++;
        const builder = new ViewBuilder();
        const ledger = new ViewLedger((e) => ({ id: e.id, kind: e.kind }));
        events.forEach((e, i) => {
          builder.append(e, i);
          ledger.append(e, i);
          if (i % 2 === 1 && i !== events.length - 1) return;
          assert.deepEqual(ledger.checkpoint(), builder.checkpoint());
          for (const kind of ['SystemPromptEvent', 'ActionEvent'] as const) {
            const shown = builder.events.some((x) => x.kind === kind);
            assert.equal(ledger.showsKind(kind), shown, kind);
            assert.equal(builder.showsKind(kind), shown, kind);
          }
        });
      }),
      { numRuns: 300 },
    );
    assert.ok(condensed >= 50, `only ${condensed} of 300 runs held a condensation`);
  });

  it('refuses a checkpoint whose events are missing or of the wrong kind', () => {
    const ids = new Ids();
    const events = materialize([{ op: 'user' }, { op: 'batch', size: 1, reuseCallId: false }]);
    const cp = new ViewBuilder().appendAll(events).checkpoint();
    assert.equal(cp.entries.length, 2);
    assert.equal(
      ViewBuilder.restore(cp, () => undefined),
      undefined,
    );
    const other = userMsg(ids, 'not the action');
    const byId = new Map(events.map((e) => [e.id, e]));
    assert.equal(
      ViewBuilder.restore(cp, (id) => (id === cp.entries[1] ? other : byId.get(id))),
      undefined,
    );
    assert.ok(ViewBuilder.restore(cp, (id) => byId.get(id)));
  });

  it('lets go of forgotten events: what it keeps follows the view, not the log', () => {
    const ops: Op[] = [];
    for (let i = 0; i < 200; i++) ops.push({ op: 'user' }, { op: 'agent' });
    const events = materialize(ops);
    const builder = new ViewBuilder();
    events.forEach((e, at) => builder.append(e, at));
    const ids = new Ids();
    for (let i = 0; i < events.length + 1; i++) ids.next();
    const forget = condensation(
      ids,
      events.slice(2).map((e) => e.id),
      'summary',
      1,
    );
    builder.append(forget, events.length);
    assert.equal(builder.size, 3, 'two kept events and the summary');
    const cp = builder.checkpoint();
    assert.deepEqual(cp.entries, [events[0]!.id, events[1]!.id]);
    assert.deepEqual(cp.at, [0, 1], 'where to read them back');
    assert.deepEqual(cp.summary, { id: forget.id, before: 2, at: events.length });
    assert.deepEqual(cp.forgotten, [], 'forgotten events left with their ids');
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
