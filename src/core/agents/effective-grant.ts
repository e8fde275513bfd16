// What a child or a handoff may do: never more than the agent that hands over. A definition may
// narrow its parent's grant (act → plan, fewer tools) but never widen it: a definition file in the
// workspace must not turn a plan-mode conversation into one that changes files. `narrowed` says, in
// a sentence each, what the definition asked for and did not get; it is recorded with the start.
import { type Event, FINISH_TOOL_NAME } from '../events';
import { AGENT_MODE_KEY, type AgentMode } from '../state';
import { AGENT_START_KEY } from './agent-events';
import type { AgentDefinition } from './definition';

export interface AgentGrant {
  mode: AgentMode;
  /** The tools it may call (as a definition names them); null: every tool. */
  tools: readonly string[] | null;
}

export interface EffectiveGrant {
  /** The definition with its mode and tools within the parent's. */
  agent: AgentDefinition;
  narrowed: string[];
}

/** `agent` as it may run under `parent`. */
export function effectiveGrant(parent: AgentGrant, agent: AgentDefinition): EffectiveGrant {
  const narrowed: string[] = [];
  let mode = agent.mode;
  if (parent.mode === 'plan' && mode === 'act') {
    mode = 'plan';
    narrowed.push('asked for act mode; the conversation is in plan mode, so it runs in plan mode');
  }
  let tools = agent.tools;
  if (parent.tools !== null) {
    const allowed = (t: string) => parentHas(parent.tools!, t);
    const wanted = agent.tools ?? parent.tools;
    const denied = agent.tools === null ? [] : agent.tools.filter((t) => !allowed(t));
    tools = wanted.filter(allowed);
    if (agent.tools === null)
      narrowed.push(`asked for every tool; it gets its parent's: ${tools.join(', ')}`);
    else if (denied.length) narrowed.push(`asked for ${denied.join(', ')}, which its parent does not have`);
  }
  return { agent: { ...agent, mode, tools: tools === null ? null : [...tools] }, narrowed };
}

/** The grant of an agent once it runs: its mode, its tools. */
export function grantOf(agent: Pick<AgentDefinition, 'mode' | 'tools'>): AgentGrant {
  return { mode: agent.mode, tools: agent.tools };
}

/** Whether a parent's tool list covers `tool`: by name, or an MCP tool under its `server/*`. */
function parentHas(parentTools: readonly string[], tool: string): boolean {
  // Every agent may end its own work.
  if (tool === FINISH_TOOL_NAME || parentTools.includes(tool)) return true;
  const slash = tool.indexOf('/');
  return slash > 0 && parentTools.includes(`${tool.slice(0, slash)}/*`);
}

/**
 * The mode a handoff may not go beyond: the latest `agent_mode` update the user (the Plan/Act
 * switch, `--mode`) made, skipping those a handoff made (recorded right after its `agent_start`),
 * so a plan agent handing over does not hold the conversation in plan the user did not choose.
 */
export function userMode(events: readonly Event[]): AgentMode {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== AGENT_MODE_KEY) continue;
    if (e.value !== 'plan' && e.value !== 'act') continue;
    const before = events[i - 1];
    const byHandoff =
      before?.kind === 'ConversationStateUpdateEvent' &&
      before.key === AGENT_START_KEY &&
      (before.value as { handoff?: unknown } | null)?.handoff === true;
    if (!byHandoff) return e.value;
  }
  return 'act';
}
