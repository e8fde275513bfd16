// transfer_to_agent puts the conversation in the new agent's mode (never out of plan): the tool asks for the
// definition's mode after recording the handoff, and not at all for an agent that does not exist.
import * as assert from 'node:assert/strict';
import { parseAgentDefinition, type AgentDefinition } from '../../../src/core/agents/definition';
import { createTransferTool } from '../../../src/core/agents/transfer-tool';
import type { ToolContext } from '../../../src/core/tools';

function agent(name: string, mode: 'plan' | 'act'): AgentDefinition {
  const r = parseAgentDefinition(
    `---\nname: ${name}\ndescription: d\nmode: ${mode}\n---\nBe ${name}.\n`,
    name,
  );
  if (!r.ok) throw new Error(r.error);
  return r.agent;
}

describe('transfer_to_agent and the mode', () => {
  const agents = [agent('planner', 'plan'), agent('builder', 'act')];
  const calls: string[] = [];
  let mode: 'plan' | 'act' = 'act';
  const tool = createTransferTool({
    agents: () => agents,
    grant: async () => ({
      mode,
      tools: null,
      confirmation: 'risky',
      maxIterations: null,
      maxTokens: null,
      maxCost: null,
      allowedHosts: null,
    }),
    transfer: async (a) => void calls.push(`transfer ${a.name}`),
    setMode: async (mode) => void calls.push(`mode ${mode}`),
  });
  const run = (name: string) => tool.execute({ agent_name: name }, {} as ToolContext);
  beforeEach(() => {
    calls.length = 0;
    mode = 'act';
  });

  it('switches to plan for a plan agent, after the handoff, and says so', async () => {
    const obs = await run('planner');
    assert.deepEqual(calls, ['transfer planner', 'mode plan']);
    assert.match(JSON.stringify(obs), /plan mode/);
  });

  it('switches back to act for an act agent', async () => {
    await run('builder');
    assert.deepEqual(calls, ['transfer builder', 'mode act']);
  });

  it('keeps a plan-mode conversation in plan for an act agent, and says why', async () => {
    mode = 'plan';
    const obs = await run('builder');
    assert.deepEqual(calls, ['transfer builder', 'mode plan']);
    assert.match(JSON.stringify(obs), /asked for act mode; the conversation is in plan mode/);
  });

  it('an unknown agent changes neither the agent nor the mode', async () => {
    const obs = await run('nobody');
    assert.deepEqual(calls, []);
    assert.match(JSON.stringify(obs), /no agent \\"nobody\\"/);
  });
});
