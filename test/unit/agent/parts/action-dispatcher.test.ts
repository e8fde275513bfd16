// The dispatcher of pending actions: gate (the user's confirmation, a policy's refusal, a rating
// that rose), run (its start recorded before its tool runs) and observe (one answer per action).
import * as assert from 'node:assert/strict';
import type { ActionEvent } from '../../../../src/core/events';
import { ActionDispatcher } from '../../../../src/core/agent/action-dispatcher';
import { ActionCheckpoints } from '../../../../src/core/agent/action-checkpoints';
import type { ConfirmationGate } from '../../../../src/core/agent/ports';
import type { ConversationPolicy } from '../../../../src/core/agent/policies/policy';
import { recordActions } from '../../../../src/core/agent/reply-actions';
import { ACTION_STARTED_KEY, RECONFIRM_KEY } from '../../../../src/core/state';
import type { ToolPorts } from '../../../../src/core/tools';
import { noteTool, ofKind, openJournal, policiesOver, reply, updates } from '../../../support/loop-parts';

/** Holds (MEDIUM) the actions whose text is listed; lets the rest through (LOW). */
function holdingGate(held: Set<string>): ConfirmationGate {
  return {
    decide: (actions) =>
      actions.map((a) => {
        const hold = held.has(String((a.action as { text?: unknown }).text));
        return { actionId: a.id, confirm: hold, risk: hold ? 'MEDIUM' : 'LOW', reasons: ['test gate'] };
      }),
  };
}

async function setUp(
  texts: string[],
  opts: {
    held?: Set<string>;
    policies?: ConversationPolicy[];
    aborted?: boolean;
    onRun?: (text: string) => void;
  } = {},
) {
  const f = await openJournal();
  const held = opts.held ?? new Set<string>();
  const whileRunning: { text: string; awaiting: string[] }[] = [];
  const note = noteTool('note', {
    onRun: (text) => {
      opts.onRun?.(text);
      whileRunning.push({
        text,
        awaiting: dispatcher.awaiting().map((a) => String((a.action as { text?: unknown }).text)),
      });
    },
  });
  const tools = () => [note];
  const policies = policiesOver(opts.policies ?? [], f);
  const batch = await recordActions(
    reply(texts.map((text) => ({ name: 'note', args: { text, security_risk: 'LOW' } }))),
    { log: f.journal, policies, tools },
  );
  const pending = () =>
    f.journal.state.pendingActions
      .map((p) => batch.find((a) => a.id === p.actionId))
      .filter((a): a is ActionEvent => a !== undefined);
  const dispatcher: ActionDispatcher = new ActionDispatcher({
    log: f.journal,
    pending,
    gate: holdingGate(held),
    policies,
    checkpoints: new ActionCheckpoints('parts-test', f.journal, undefined, tools),
    tools,
    ports: () => ({}) as ToolPorts,
    cwd: '/ws',
    abortable: () => (opts.aborted ? AbortSignal.abort(new Error('stopped')) : new AbortController().signal),
  });
  return { f, note, batch, dispatcher, held, whileRunning };
}

const answers = (events: Parameters<typeof ofKind>[0]) =>
  ofKind(events, 'ObservationEvent').map((o) => ({
    id: o.action_id,
    text: (o.observation.content?.[0] as { text: string }).text,
    error: o.observation.is_error,
  }));

describe('action dispatcher', () => {
  it('runs the batch in order: each start recorded before its tool runs, each answered once', async () => {
    const { f, note, batch, dispatcher } = await setUp(['a', 'b']);
    assert.equal(await dispatcher.dispatch(batch), 'executed');
    assert.deepEqual(note.runs, ['a', 'b']);
    assert.deepEqual(
      answers(f.seen).map((a) => a.text),
      ['noted a', 'noted b'],
    );
    const order = f.seen
      .filter(
        (e) =>
          e.kind === 'ObservationEvent' ||
          (e.kind === 'ConversationStateUpdateEvent' && e.key === ACTION_STARTED_KEY),
      )
      .map((e) => e.kind);
    assert.deepEqual(order, [
      'ConversationStateUpdateEvent',
      'ObservationEvent',
      'ConversationStateUpdateEvent',
      'ObservationEvent',
    ]);
    assert.deepEqual(f.journal.state.pendingActions, []);
  });

  it('waits, running nothing, while one action of the batch must be confirmed', async () => {
    const { f, note, batch, dispatcher } = await setUp(['a', 'b'], { held: new Set(['b']) });
    assert.equal(await dispatcher.dispatch(batch), 'waiting');
    assert.deepEqual(note.runs, []);
    assert.equal(f.journal.state.status, 'waiting_for_confirmation');
    assert.deepEqual(
      dispatcher.awaiting().map((a) => a.id),
      [batch[1]!.id],
    );
  });

  it('answers an action a policy refuses with the refusal, and runs the rest', async () => {
    const refuseB: ConversationPolicy = {
      name: 'no-b',
      refuseAction: (a) => ((a.action as { text?: unknown }).text === 'b' ? 'b is refused now' : null),
    };
    const { f, note, batch, dispatcher } = await setUp(['a', 'b', 'c'], { policies: [refuseB] });
    assert.equal(await dispatcher.dispatch(batch), 'executed');
    assert.deepEqual(note.runs, ['a', 'c']);
    assert.deepEqual(answers(f.seen), [
      { id: batch[0]!.id, text: 'noted a', error: false },
      { id: batch[1]!.id, text: 'b is refused now', error: true },
      { id: batch[2]!.id, text: 'noted c', error: false },
    ]);
  });

  it('an action whose rating rose since the batch was let through waits again, and so does the rest', async () => {
    const held = new Set<string>();
    // What `a` does makes `b` riskier, as a symlink would.
    const s = await setUp(['a', 'b', 'c'], { held, onRun: (text) => void (text === 'a' && held.add('b')) });
    assert.equal(await s.dispatcher.dispatch(s.batch), 'waiting');
    assert.deepEqual(s.note.runs, ['a']);
    const [again] = updates(s.f.seen, RECONFIRM_KEY);
    assert.deepEqual(
      {
        id: (again?.value as { action_id: string }).action_id,
        risk: (again?.value as { risk: string }).risk,
      },
      { id: s.batch[1]!.id, risk: 'MEDIUM' },
    );
    assert.equal(s.f.journal.state.status, 'waiting_for_confirmation');
  });

  it('the action running now is never also awaiting confirmation', async () => {
    const { batch, dispatcher, whileRunning } = await setUp(['a', 'b']);
    await dispatcher.dispatch(batch);
    // Started and not yet answered, each looks in doubt while its tool runs.
    assert.deepEqual(whileRunning, [
      { text: 'a', awaiting: [] },
      { text: 'b', awaiting: [] },
    ]);
  });

  it('once stopped, answers every action as not run and runs none', async () => {
    const { f, note, batch, dispatcher } = await setUp(['a', 'b'], { aborted: true });
    assert.equal(await dispatcher.dispatch(batch), 'stopped');
    assert.deepEqual(note.runs, []);
    assert.deepEqual(
      answers(f.seen).map((a) => [a.text, a.error]),
      [
        ['The user stopped the agent before this action ran.', true],
        ['The user stopped the agent before this action ran.', true],
      ],
    );
  });
});
