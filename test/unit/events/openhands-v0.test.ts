import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ActionSecurityRiskSchema,
  ActionTypeSchema,
  AgentStateSchema,
  type Event,
  eventsToMessages,
  exportV0Trajectory,
  importV0Trajectory,
  isKind,
  isOpaque,
  ObservationTypeSchema,
  parseEvent,
  serializeEvent,
  V0_ACTION_KIND,
  V0_EVENT_KIND,
} from '../../../src/core/events';
import { validateMessages } from '../../support/llm-server/validate-messages';
import { chatProblems } from './chat-checker';

const items = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'openhands-v0-trajectory.json'), 'utf8'),
) as unknown[];

function byV0Id(events: Event[], n: number): Event {
  const suffix = n.toString(16).padStart(12, '0');
  const e = events.find((x) => x.id === `00000000-0000-4000-8000-${suffix}`);
  assert.ok(e, `no event for V0 id ${n}`);
  return e;
}

describe('OpenHands V0 import/export', () => {
  const events = importV0Trajectory(items);

  it('documents the V0 enums', () => {
    assert.ok(AgentStateSchema.safeParse('AWAITING_USER_CONFIRMATION').success);
    assert.ok(ActionTypeSchema.safeParse('browse_interactive').success);
    assert.ok(ObservationTypeSchema.safeParse('agent_state_changed').success);
    assert.ok(ActionSecurityRiskSchema.safeParse(-1).success);
    assert.equal(ActionSecurityRiskSchema.safeParse(3).success, false);
  });

  it('imports every record except null actions, each a valid event that round-trips', () => {
    assert.equal(events.length, items.length - 1);
    events.forEach((e, index) => {
      const r = parseEvent(serializeEvent(e), { index });
      if (!r.ok) assert.fail(r.error.message);
      assert.deepEqual(r.event, e);
    });
  });

  it('maps run/read to TerminalAction/FileEditorAction with ids from tool_call_metadata', () => {
    const run = byV0Id(events, 5);
    assert.ok(isKind(run, 'ActionEvent'));
    assert.deepEqual(run.action, {
      kind: 'TerminalAction',
      command: 'ls',
      is_input: false,
      timeout: 120,
      reset: false,
    });
    assert.equal(run.tool_call_id, 'toolu_01');
    assert.equal(run.llm_response_id, 'resp-A');
    assert.equal(run.security_risk, 'LOW');
    assert.deepEqual(run.thought, [{ type: 'text', text: 'Let me look around first.' }]);
    const read = byV0Id(events, 6);
    assert.ok(isKind(read, 'ActionEvent'));
    assert.equal(read.action?.kind, 'FileEditorAction');
    assert.equal(read.llm_response_id, 'resp-A', 'both calls came from one response');
  });

  it('links observations to actions by cause; exit code from extras.metadata', () => {
    const obs = byV0Id(events, 8);
    assert.ok(isKind(obs, 'ObservationEvent'));
    assert.equal(obs.action_id, byV0Id(events, 5).id);
    assert.equal(obs.tool_call_id, 'toolu_01');
    assert.equal(obs.observation.kind, 'TerminalObservation');
    assert.equal(obs.observation.exit_code, 0);
    const rejected = byV0Id(events, 12);
    assert.ok(isKind(rejected, 'UserRejectObservation'));
    assert.equal(rejected.rejection_reason, 'not like this');
    const err = byV0Id(events, 14);
    assert.ok(isKind(err, 'AgentErrorEvent'));
    assert.equal(err.tool_call_id, 'v0_call_13', 'synthesized from the numeric id');
  });

  it('maps messages, system prompt, state changes, errors without cause, pause, and keeps the rest opaque', () => {
    const kinds = Object.fromEntries(events.map((e) => [e.id, e.kind]));
    assert.equal(kinds[byV0Id(events, 0).id], 'SystemPromptEvent');
    assert.equal(kinds[byV0Id(events, 1).id], 'MessageEvent');
    assert.equal(kinds[byV0Id(events, 17).id], 'ConversationErrorEvent');
    assert.equal(kinds[byV0Id(events, 22).id], 'PauseEvent');
    const state = byV0Id(events, 21);
    assert.ok(isKind(state, 'ConversationStateUpdateEvent'));
    assert.deepEqual([state.key, state.value], ['execution_status', 'finished']);
    const recall = byV0Id(events, 2);
    assert.ok(isOpaque(recall));
    assert.equal(recall.original_kind, V0_EVENT_KIND);
    const ipython = byV0Id(events, 13);
    assert.ok(isKind(ipython, 'ActionEvent'));
    assert.equal(ipython.action?.kind, V0_ACTION_KIND);
    const agentMsg = byV0Id(events, 18);
    assert.ok(isKind(agentMsg, 'MessageEvent'));
    assert.equal(agentMsg.llm_message.role, 'assistant');
    assert.equal(byV0Id(events, 1).timestamp, '2025-03-01T10:00:01.000000');
  });

  it('yields a valid Chat Completions list (the unanswered finish call is dropped)', () => {
    const ms = eventsToMessages(events);
    assert.deepEqual(chatProblems(ms), []);
    assert.deepEqual(validateMessages(ms), []);
    const roles = ms.map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : m.role));
    assert.deepEqual(roles, [
      'system',
      'user',
      'assistant',
      'tool:toolu_01',
      'tool:toolu_02',
      'assistant',
      'tool:v0_call_9',
      'assistant',
      'tool:v0_call_11',
      'assistant',
      'tool:v0_call_13',
      'assistant',
      'tool:v0_call_15',
      'assistant',
    ]);
  });

  it('exports back to V0: import(export(import(x))) equals import(x)', () => {
    const exported = exportV0Trajectory(events);
    const run = exported.find((v) => v.id === 5);
    assert.equal(run?.action, 'run');
    assert.equal((run?.args as { command?: string }).command, 'ls');
    const obs = exported.find((v) => v.id === 8);
    assert.equal(obs?.cause, 5);
    assert.equal(exported.find((v) => v.id === 21)?.extras?.agent_state, 'finished');
    assert.deepEqual(importV0Trajectory(exported), events);
  });

  it('never throws on garbage records: they become opaque events', () => {
    const out = importV0Trajectory([42, null, { id: 'x' }, { id: 3, action: 'teleport', args: {} }]);
    assert.equal(out.length, 4);
    assert.ok(out.slice(0, 3).every(isOpaque));
    const teleport = out[3];
    assert.ok(teleport && isKind(teleport, 'ActionEvent'));
    assert.equal(teleport.action?.kind, V0_ACTION_KIND);
  });
});
