// What a conversation knows of the agent it runs as: the stamp its events carry (a handoff changes
// it), what the agent adds to the system prompt, and, for a delegated agent, its log's first event.
import type { AgentSettings, ConfirmationMode } from '../agent/settings';
import type { ToolSpec } from '../tools';
import type { AgentStamp, AgentStartValue } from './agent-events';

export interface ConversationAgent {
  stamp(): AgentStamp;
  /** A delegated agent's first event, before its system prompt: who started it, and why. */
  start?: AgentStartValue;
  /** Added to the system prompt: the agent's instructions, or the agents the main one can call. */
  promptSections?: readonly string[];
  /** Whether the agent running now may call this tool (a handoff narrows the set); absent: every tool. */
  offers?(tool: Pick<ToolSpec, 'name' | 'mcp'>): boolean;
  /**
   * The confirmation mode the agent running now was granted (a handoff's): the gate asks by the
   * stricter of it and the settings'; absent: the settings' alone.
   */
  confirmation?(): ConfirmationMode | undefined;
  /**
   * The limits of the agent running now (a handoff's budget, as conversation totals): the loop
   * holds to the smaller of each and the settings'; absent or null: the settings' alone.
   */
  limits?(): AgentLimits;
}

/** Steps per run, and the conversation's total tokens and cost, an agent running it may reach. */
export type AgentLimits = { [K in 'maxIterations' | 'maxTokens' | 'maxCost']: AgentSettings[K] | null };

/** `settings` with an agent's limits applied: the lower of each, a null limit leaving the setting. */
export function withinAgentLimits(settings: AgentSettings, limits: AgentLimits | undefined): AgentSettings {
  if (!limits) return settings;
  const min = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
  return {
    ...settings,
    maxIterations: min(settings.maxIterations, limits.maxIterations) ?? settings.maxIterations,
    maxTokens: min(settings.maxTokens, limits.maxTokens),
    maxCost: min(settings.maxCost, limits.maxCost),
  };
}
