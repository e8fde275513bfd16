import assert from 'node:assert/strict';
import type { Event } from '../../../src/core/events';
import {
  type ConversationState,
  EXECUTION_STATUSES,
  type ExecutionStatus,
  IMPLICIT_TRIGGERS,
  type ImplicitTrigger,
  implicitTransition,
  initialState,
  isValidTransition,
  parseExecutionStatus,
  reduce,
} from '../../../src/core/state';
import { LogBuilder } from './builders';

// Written out independently of src/core/state/transitions.ts: a change there must show up here.
const EXPLICIT_OK: Record<ExecutionStatus, ExecutionStatus[]> = {
  idle: ['idle', 'running', 'paused', 'finished', 'error'],
  running: ['running', 'idle', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck'],
  paused: ['paused', 'idle', 'running', 'finished', 'error'],
  waiting_for_confirmation: ['waiting_for_confirmation', 'idle', 'running', 'paused', 'error'],
  finished: ['finished', 'idle', 'running', 'error'],
  error: ['error', 'idle', 'running'],
  stuck: ['stuck', 'idle', 'running', 'error'],
};

// [idle, running, paused, waiting_for_confirmation, finished, error, stuck]
const IMPLICIT_EXPECTED: Record<ImplicitTrigger, ExecutionStatus[]> = {
  user_message: ['idle', 'running', 'paused', 'waiting_for_confirmation', 'idle', 'idle', 'idle'],
  pause: ['paused', 'paused', 'paused', 'paused', 'finished', 'error', 'stuck'],
  conversation_error: ['error', 'error', 'error', 'error', 'error', 'error', 'error'],
  agent_final_message: [
    'finished',
    'finished',
    'finished',
    'waiting_for_confirmation',
    'finished',
    'error',
    'stuck',
  ],
  finish_observation: [
    'finished',
    'finished',
    'finished',
    'waiting_for_confirmation',
    'finished',
    'error',
    'stuck',
  ],
};

function stateIn(status: ExecutionStatus): ConversationState {
  return { ...initialState('c'), status };
}

/** The real event(s) behind each implicit trigger; the last one is the trigger. */
function triggerEvents(trigger: ImplicitTrigger): Event[] {
  const b = new LogBuilder();
  switch (trigger) {
    case 'user_message':
      b.user('again');
      break;
    case 'pause':
      b.pause();
      break;
    case 'conversation_error':
      b.conversationError();
      break;
    case 'agent_final_message':
      b.agent('all done', 'r-final');
      break;
    case 'finish_observation': {
      const a = b.action('call-finish', 'r-finish', {
        tool: 'finish',
        payload: { kind: 'FinishAction', message: 'ok' },
      });
      b.observe(a);
      break;
    }
  }
  return b.events;
}

describe('state: status transitions', () => {
  it('the explicit table allows exactly the documented transitions (all 49 pairs)', () => {
    let checked = 0;
    for (const from of EXECUTION_STATUSES) {
      for (const to of EXECUTION_STATUSES) {
        assert.equal(isValidTransition(from, to), EXPLICIT_OK[from].includes(to), `${from} -> ${to}`);
        checked++;
      }
    }
    assert.equal(checked, 49);
  });

  it('every explicit update is applied; allowed ones add no warning, others add one', () => {
    const b = new LogBuilder();
    for (const from of EXECUTION_STATUSES) {
      for (const to of EXECUTION_STATUSES) {
        const next = reduce(stateIn(from), b.status(to));
        assert.equal(next.status, to, `${from} -> ${to} must be applied`);
        const warned = next.warnings.length === 1 && next.warnings[0]!.includes(`${from} -> ${to}`);
        assert.equal(warned, !EXPLICIT_OK[from].includes(to), `${from} -> ${to} warning`);
      }
    }
  });

  for (const trigger of IMPLICIT_TRIGGERS) {
    it(`implicit rule "${trigger}" from every status`, () => {
      EXECUTION_STATUSES.forEach((from, i) => {
        const expected = IMPLICIT_EXPECTED[trigger][i]!;
        assert.equal(implicitTransition(from, trigger), expected, `table: ${trigger} from ${from}`);
        const next = triggerEvents(trigger).reduce(reduce, stateIn(from));
        assert.equal(next.status, expected, `reducer: ${trigger} from ${from}`);
        assert.deepEqual(next.warnings, [], 'implicit rules never warn');
      });
    });
  }

  it('every change an implicit rule makes is also an allowed explicit transition', () => {
    for (const trigger of IMPLICIT_TRIGGERS) {
      for (const from of EXECUTION_STATUSES) {
        const to = implicitTransition(from, trigger);
        assert.ok(isValidTransition(from, to), `${trigger}: ${from} -> ${to}`);
      }
    }
  });

  it('an agent message with tool calls, an errored finish, or a non-finish observation does not finish', () => {
    const b = new LogBuilder();
    b.agent('calling', 'r1', true);
    const t = b.action('c-t', 'r2');
    b.observe(t);
    const f = b.action('c-f', 'r3', { tool: 'finish', payload: { kind: 'FinishAction', message: 'failed' } });
    b.observe(f, { isError: true });
    const s = b.events.reduce(reduce, stateIn('running'));
    assert.equal(s.status, 'running');
  });

  it('a user message while running, paused or waiting leaves the status (the runtime decides)', () => {
    for (const from of ['running', 'paused', 'waiting_for_confirmation'] as const) {
      assert.equal(reduce(stateIn(from), new LogBuilder().user()).status, from);
    }
  });

  it('an unknown status value is ignored with a warning; OpenHands enum names are accepted', () => {
    const b = new LogBuilder();
    const s1 = reduce(stateIn('running'), b.status('dancing'));
    assert.equal(s1.status, 'running');
    assert.match(s1.warnings[0] ?? '', /unknown execution_status "dancing"/);
    const s2 = reduce(stateIn('running'), b.update('execution_status', 42));
    assert.equal(s2.warnings.length, 1);
    assert.equal(reduce(stateIn('running'), b.status('PAUSED')).status, 'paused');
    assert.equal(parseExecutionStatus('WAITING_FOR_CONFIRMATION'), 'waiting_for_confirmation');
    assert.equal(parseExecutionStatus(null), null);
  });

  it('a run: idle -> running -> waiting -> running -> finished -> (user) idle, without warnings', () => {
    const b = new LogBuilder();
    const seen: ExecutionStatus[] = [];
    let s = initialState();
    const step = (e: Event) => {
      s = reduce(s, e);
      seen.push(s.status);
    };
    step(b.user('fix it'));
    step(b.status('running'));
    const a = b.action('c1', 'r1');
    step(a);
    step(b.status('waiting_for_confirmation'));
    step(b.status('running'));
    step(b.observe(a));
    step(b.agent('fixed', 'r2'));
    step(b.status('finished'));
    step(b.user('thanks'));
    assert.deepEqual(seen, [
      'idle',
      'running',
      'running',
      'waiting_for_confirmation',
      'running',
      'running',
      'finished',
      'finished',
      'idle',
    ]);
    assert.deepEqual(s.warnings, []);
  });
});
