import assert from 'node:assert/strict';
import { createEvent, deepFreeze } from '../../../src/core/events';
import {
  type ConversationState,
  deriveState,
  initialState,
  MAX_WARNINGS,
  reduce,
  RECENT_RESPONSE_IDS,
  shortTitle,
} from '../../../src/core/state';
import { decodeSnapshot, encodeSnapshot } from '../../../src/core/state/snapshot';
import type { ActionEvent } from '../../../src/core/events';
import { LogBuilder, timestamp } from './builders';

const derive = (b: LogBuilder): ConversationState => deriveState(b.events, { id: 'c1' });

describe('state: reducer', () => {
  describe('iteration', () => {
    it('counts LLM responses: a parallel batch once, agent messages with a response id once each', () => {
      const b = new LogBuilder();
      b.user('go');
      const a1 = b.action('c1', 'r1');
      const a2 = b.action('c2', 'r1');
      const a3 = b.action('c3', 'r1');
      b.observe(a1);
      b.observe(a2);
      b.observe(a3);
      b.action('c4', 'r2');
      b.agent('thinking aloud', undefined, true); // no response id: not counted
      b.agent('done', 'r3');
      const s = derive(b);
      assert.equal(s.iteration, 3);
      assert.equal(s.iterationsThisRun, 3);
    });

    it('a batch whose only call failed validation (AgentErrorEvent with llm_response_id) is a step', () => {
      const b = new LogBuilder();
      b.agentError('bad', { responseId: 'r1' });
      b.agentError('bad2', { responseId: 'r1' });
      b.agentError('exec', {}); // an execution error carries no response id
      assert.equal(derive(b).iteration, 1);
    });

    it('iterationsThisRun restarts at each user message; iteration keeps counting', () => {
      const b = new LogBuilder();
      b.user('one');
      b.action('c1', 'r1');
      b.action('c2', 'r2');
      b.user('two');
      b.agent('ok', 'r3');
      const s = derive(b);
      assert.equal(s.iteration, 3);
      assert.equal(s.iterationsThisRun, 1);
    });

    it('the calls of one batch count once even when observations come between them', () => {
      const b = new LogBuilder();
      const a1 = b.action('c1', 'r1');
      b.observe(a1);
      b.started(b.action('c2', 'r1'));
      assert.equal(derive(b).iteration, 1);
      for (let i = 0; i < RECENT_RESPONSE_IDS + 5; i++) b.action(`x${i}`, `rx${i}`);
      assert.equal(derive(b).iteration, 1 + RECENT_RESPONSE_IDS + 5);
    });
  });

  describe('pending actions', () => {
    it('keeps approvals of pending actions until they are answered; ignores others', () => {
      const b = new LogBuilder();
      const a1 = b.action('c1', 'r1');
      const a2 = b.action('c2', 'r1');
      b.update('approved_actions', { action_ids: [a2.id, 'not-pending', a2.id] });
      assert.deepEqual(derive(b).approved, [a2.id]);
      b.update('approved_actions', { action_ids: [a1.id] });
      assert.deepEqual(derive(b).approved, [a2.id, a1.id]);
      b.observe(a2);
      assert.deepEqual(derive(b).approved, [a1.id]);
      b.update('approved_actions', { action_ids: [a2.id] });
      assert.deepEqual(derive(b).approved, [a1.id], 'an answered action cannot be approved');
      b.update('approved_actions', 'everything');
      const s = derive(b);
      assert.deepEqual(s.approved, [a1.id]);
      assert.match(s.warnings.at(-1)!, /invalid approved_actions/);
    });

    it('tracks a parallel batch answered partially, by observation, rejection and error', () => {
      const b = new LogBuilder();
      const a1 = b.action('c1', 'r1');
      const a2 = b.action('c2', 'r1');
      const a3 = b.action('c3', 'r1');
      const a4 = b.action('c4', 'r1');
      let s = derive(b);
      assert.deepEqual(
        s.pendingActions.map((p) => p.actionId),
        [a1.id, a2.id, a3.id, a4.id],
      );
      assert.deepEqual(s.pendingBatchIds, ['r1']);
      b.observe(a2);
      b.reject(a4);
      s = derive(b);
      assert.deepEqual(
        s.pendingActions.map((p) => p.toolCallId),
        ['c1', 'c3'],
      );
      b.agentError('c1');
      s = derive(b);
      assert.deepEqual(
        s.pendingActions.map((p) => p.toolCallId),
        ['c3'],
      );
      assert.deepEqual(s.pendingBatchIds, ['r1']);
      b.observe(a3);
      s = derive(b);
      assert.deepEqual(s.pendingActions, []);
      assert.deepEqual(s.pendingBatchIds, []);
      assert.deepEqual(s.warnings, []);
    });

    it('keeps one entry per pending batch id, in order, across two open batches', () => {
      const b = new LogBuilder();
      const a = b.action('a', 'rA');
      b.action('b', 'rB');
      b.action('c', 'rB');
      assert.deepEqual(derive(b).pendingBatchIds, ['rA', 'rB']);
      b.observe(a);
      assert.deepEqual(derive(b).pendingBatchIds, ['rB']);
    });

    it('matches an answer by tool_call_id when its action_id names no action (latest such call)', () => {
      const b = new LogBuilder();
      const old = b.action('dup', 'r1');
      const recent = b.action('dup', 'r2');
      b.observe(recent, { byCallIdOnly: true });
      const s = derive(b);
      assert.deepEqual(
        s.pendingActions.map((p) => p.actionId),
        [old.id],
      );
    });

    it('an observation or rejection that answers nothing is a warning; a failed-call error is not', () => {
      const b = new LogBuilder();
      const a = b.action('c1', 'r1');
      b.observe(a);
      b.observe(a); // second answer
      b.agentError('never-called', { responseId: 'r2' });
      const s = derive(b);
      assert.equal(s.warnings.length, 1);
      assert.match(s.warnings[0]!, /ObservationEvent .* answers no pending action/);
    });

    it('an AgentErrorEvent sets lastError; a ConversationErrorEvent replaces it with code and detail', () => {
      const b = new LogBuilder();
      const e1 = b.agentError('x', { error: 'bad args' });
      assert.deepEqual(derive(b).lastError, { eventId: e1.id, kind: 'AgentErrorEvent', message: 'bad args' });
      const e2 = b.conversationError('BUDGET', 'over budget');
      assert.deepEqual(derive(b).lastError, {
        eventId: e2.id,
        kind: 'ConversationErrorEvent',
        message: 'BUDGET: over budget',
      });
    });
  });

  describe('tasks', () => {
    it('takes the list of a task_tracker plan once its observation succeeds', () => {
      const b = new LogBuilder();
      const p = b.plan('t1', 'r1', ['read', 'fix', 'test']);
      assert.deepEqual(derive(b).tasks, [], 'not before the observation');
      b.observe(p);
      assert.deepEqual(derive(b).tasks, [
        { title: 'read', notes: 'n0', status: 'done' },
        { title: 'fix', notes: 'n1', status: 'todo' },
        { title: 'test', notes: 'n2', status: 'todo' },
      ]);
    });

    it('ignores plans that failed, were rejected or never answered, and view commands', () => {
      const b = new LogBuilder();
      const ok = b.plan('t1', 'r1', ['keep']);
      b.observe(ok);
      const failed = b.plan('t2', 'r2', ['failed']);
      b.observe(failed, { isError: true });
      const rejected = b.plan('t3', 'r3', ['rejected']);
      b.reject(rejected);
      b.plan('t4', 'r4', ['unanswered']);
      const view = b.action('t5', 'r5', {
        tool: 'task_tracker',
        payload: { kind: 'TaskTrackerAction', command: 'view', task_list: [{ title: 'view' }] },
      });
      b.observe(view);
      assert.deepEqual(
        derive(b).tasks.map((t) => t.title),
        ['keep'],
      );
    });

    describe('when no task_tracker action schema checks the payload', () => {
      // The tool's schema rejects a task_list that is not a list; a reader without it (no tool set)
      // parses the event, and the reducer must cope.
      it('fills defaults for missing notes/status and warns about an invalid plan', () => {
        const b = new LogBuilder();
        const p = b.action('t1', 'r1', {
          tool: 'task_tracker',
          payload: { kind: 'TaskTrackerAction', command: 'plan', task_list: [{ title: 'only a title' }] },
        });
        b.observe(p);
        b.action('t2', 'r2', {
          tool: 'task_tracker',
          payload: { kind: 'TaskTrackerAction', command: 'plan', task_list: 'not a list' },
        });
        const s = derive(b);
        assert.deepEqual(s.tasks, [{ title: 'only a title', notes: '', status: 'todo' }]);
        assert.equal(s.warnings.length, 1);
        assert.match(s.warnings[0]!, /invalid task_list/);
      });
    });
  });

  describe('bookkeeping fields', () => {
    it('head, eventCount, createdAt, updatedAt, lastUserMessageId, condensations', () => {
      const b = new LogBuilder();
      const u1 = b.user('first');
      b.condensation();
      const u2 = b.user('second');
      b.condensation();
      b.opaque();
      const s = derive(b);
      assert.equal(s.id, 'c1');
      assert.equal(s.eventCount, 5);
      assert.equal(s.head, b.last.id);
      assert.equal(s.createdAt, u1.timestamp);
      assert.equal(s.updatedAt, timestamp(5));
      assert.equal(s.lastUserMessageId, u2.id);
      assert.equal(s.condensations, 2);
      assert.notEqual(u1.id, u2.id);
    });

    it('title: first user message with text, whitespace collapsed, shortened at a word', () => {
      const b = new LogBuilder();
      b.agent('agent text is not a title');
      b.user('   \n ');
      b.user('  Fix the\n\nflaky   test  ');
      b.user('later message');
      assert.equal(derive(b).title, 'Fix the flaky test');
      const long = 'word '.repeat(40);
      const t = shortTitle(long)!;
      assert.ok(t.endsWith('…'));
      assert.ok(Array.from(t).length <= 80);
      assert.ok(!t.includes('  '));
      assert.equal(shortTitle('😀'.repeat(100))!.length, 79 * 2 + 1, 'cut between code points');
    });

    it('title: only the text the user typed, not what they attached after it', () => {
      const b = new LogBuilder();
      b.append(
        createEvent('MessageEvent', {
          id: '00000000-0000-4000-8000-00000000aaaa',
          timestamp: timestamp(1),
          source: 'user',
          llm_message: {
            role: 'user',
            content: [
              { type: 'text', text: 'Explain @src/math.js' },
              { type: 'text', text: '--- Attached file src/math.js (5 lines) ---\nfunction add() {}' },
            ],
          },
        } as never),
      );
      assert.equal(derive(b).title, 'Explain @src/math.js');
    });

    it('title: a title update replaces it (before or after the first message); an empty one is a warning', () => {
      const b = new LogBuilder();
      b.update('title', 'Named first');
      b.user('the task itself');
      assert.equal(derive(b).title, 'Named first');
      b.update('title', '  Renamed\n later ');
      assert.equal(derive(b).title, 'Renamed later');
      b.update('title', '   ');
      b.update('title', 42);
      const s = derive(b);
      assert.equal(s.title, 'Renamed later');
      assert.equal(s.warnings.filter((w) => w.includes('title')).length, 2);
    });

    it('shellCwd: where the last terminal command left the shell; other observations leave it; snapshots keep it', () => {
      const b = new LogBuilder();
      b.user('go');
      const observed = (a: ActionEvent, kind: string, dir: string) =>
        createEvent('ObservationEvent', {
          parent_id: b.events.at(-1)!.id,
          observation: { kind, content: [], is_error: false, metadata: { exit_code: 0, working_dir: dir } },
          action_id: a.id,
          tool_name: a.tool_name,
          tool_call_id: a.tool_call_id,
        });
      const cd = b.action('c1', 'r1');
      const grep = b.action('c2', 'r2');
      const s = [
        observed(cd, 'TerminalObservation', '/ws/sub'),
        observed(grep, 'GrepObservation', '/else'),
      ].reduce((st, e) => reduce(st, e), derive(b));
      assert.equal(s.shellCwd, '/ws/sub');
      assert.equal(initialState().shellCwd, null);
      assert.equal(decodeSnapshot(encodeSnapshot(s))?.shellCwd, '/ws/sub');
      // A snapshot written before the field existed reads as "not known".
      const old = JSON.parse(encodeSnapshot(s)) as { state: Record<string, unknown> };
      delete old.state.shellCwd;
      assert.equal(decodeSnapshot(JSON.stringify(old))?.shellCwd, null);
    });

    it('activatedSkills: union in first-activation order', () => {
      const b = new LogBuilder();
      b.user('a', ['git', 'python']);
      b.user('b', ['python', 'docker', 'docker']);
      assert.deepEqual(derive(b).activatedSkills, ['git', 'python', 'docker']);
    });

    it('confirmationPolicy: latest value, detached from the event', () => {
      const b = new LogBuilder();
      b.update('confirmation_policy', { kind: 'AlwaysConfirm' });
      b.update('confirmation_policy', { kind: 'ConfirmRisky', threshold: 'HIGH' });
      const s = derive(b);
      assert.deepEqual(s.confirmationPolicy, { kind: 'ConfirmRisky', threshold: 'HIGH' });
      assert.ok(!Object.isFrozen(s.confirmationPolicy), 'a copy, not the frozen event value');
    });

    it('OpenHands full_state updates apply their status, stats and policy', () => {
      const b = new LogBuilder();
      b.update('full_state', {
        execution_status: 'running',
        confirmation_policy: { kind: 'NeverConfirm' },
        stats: { usage_to_metrics: { agent: { accumulated_cost: 1.5 } } },
        other: 'ignored',
      });
      const s = derive(b);
      assert.equal(s.status, 'running');
      assert.deepEqual(s.confirmationPolicy, { kind: 'NeverConfirm' });
      assert.equal(s.metrics.total.cost, 1.5);
    });

    it('keeps only the newest MAX_WARNINGS warnings', () => {
      const b = new LogBuilder();
      for (let i = 0; i < MAX_WARNINGS + 7; i++) b.status(`bogus-${i}`);
      const s = derive(b);
      assert.equal(s.warnings.length, MAX_WARNINGS);
      assert.match(s.warnings[MAX_WARNINGS - 1]!, new RegExp(`bogus-${MAX_WARNINGS + 6}`));
    });
  });

  it('never mutates its input state or event (both deep-frozen here)', () => {
    const b = new LogBuilder();
    const a = b.plan('t', 'r1', ['x']);
    b.started(a);
    b.observe(a);
    b.usage('agent');
    b.status('running');
    b.user('hi', ['s']);
    let s = deepFreeze(initialState('c')) as ConversationState;
    for (const e of b.events) s = deepFreeze(reduce(s, e)) as ConversationState;
    assert.equal(s.tasks.length, 1);
  });

  it('shares untouched parts with the previous state (structural sharing)', () => {
    const b = new LogBuilder();
    b.observe(b.plan('t', 'r1', ['x']));
    const before = derive(b);
    const after = reduce(before, b.pause());
    assert.equal(after.tasks, before.tasks);
    assert.equal(after.metrics, before.metrics);
    assert.equal(after.pendingActions, before.pendingActions);
  });
});
