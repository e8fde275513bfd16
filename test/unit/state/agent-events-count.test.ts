import assert from 'node:assert/strict';
import { AGENT_END_KEY, AGENT_START_KEY } from '../../../src/core/agents/agent-events';
import { DELEGATE_TOOL_NAME } from '../../../src/core/agents/delegate-tool';
import { deriveState } from '../../../src/core/state';
import { AGENT_EVENT_NAMES } from '../../../src/core/state/reducer';
import { decodeSnapshot, encodeSnapshot } from '../../../src/core/state/snapshot';
import type { Conversation } from '../../../src/core/agent/conversation';
import { mainAgentSession } from '../../../src/host/node/agents/main-agent';
import { LogBuilder } from './builders';

describe('state: events about other agents', () => {
  it('uses the names core/agents records', () => {
    assert.deepEqual(AGENT_EVENT_NAMES, {
      delegateTool: DELEGATE_TOOL_NAME,
      start: AGENT_START_KEY,
      end: AGENT_END_KEY,
    });
  });

  it('counts delegate actions and agent starts and ends, nothing else', () => {
    const b = new LogBuilder();
    b.user('go');
    b.observe(b.action('c1', 'r1'));
    b.update('agent_mode', 'plan');
    assert.equal(deriveState(b.events).agentEvents, 0);
    b.action('c2', 'r2', { tool: 'delegate', payload: { kind: 'DelegateAction', command: 'spawn' } });
    b.update('agent_start', { agent_name: 'explore', branch: 'main.explore.1' });
    b.update('agent_end', { agent_name: 'explore', status: 'finished' });
    assert.equal(deriveState(b.events).agentEvents, 3);
  });

  it('a snapshot written before the count reads as unknown (null), so the log is read for agents', () => {
    const b = new LogBuilder();
    b.user('go');
    const s = deriveState(b.events);
    assert.equal(decodeSnapshot(encodeSnapshot(s))?.agentEvents, 0);
    const old = JSON.parse(encodeSnapshot(s)) as { state: Record<string, unknown> };
    delete old.state.agentEvents;
    assert.equal(decodeSnapshot(JSON.stringify(old))?.agentEvents, null);
  });
});

describe('main agent: reading a handoff back', () => {
  const options = {
    agents: [],
    parentDir: '/nowhere',
    parentId: 'c1',
    caps: {},
    openChild: () => Promise.reject(new Error('no child here')),
  } as unknown as Parameters<typeof mainAgentSession>[0];

  it('reads no event of a log that names no other agent', async () => {
    const session = mainAgentSession(options);
    const conversation = {
      state: { agentEvents: 0 },
      events: () => Promise.reject(new Error('the log was read')),
    } as unknown as Conversation;
    await session.adopt(conversation);
    assert.equal(session.agent.stamp().agent_name, 'main');
  });

  it('reads the log when it names one (or the count is unknown) and takes the handoff back', async () => {
    for (const agentEvents of [1, null]) {
      const session = mainAgentSession(options);
      const b = new LogBuilder();
      b.update('agent_start', { agent_name: 'reviewer', branch: 'main', handoff: true });
      const conversation = { state: { agentEvents }, events: () => Promise.resolve(b.events) };
      await session.adopt(conversation as unknown as Conversation);
      assert.equal(session.agent.stamp().agent_name, 'reviewer');
    }
  });
});
