// What a child or a handoff may do: never more than the agent that hands over. A definition may
// narrow its parent's grant (act → plan, fewer tools, stricter confirmation, a smaller budget, fewer
// hosts) but never widen it: a definition file in the workspace must not turn a plan-mode
// conversation into one that changes files, confirmations off, or a spent budget into a fresh one.
// Every path that starts an agent (delegate, handoff, resume, replay; CLI and editor) computes its
// grant here. `narrowed` says, in a sentence each, what the definition asked for and did not get;
// it is recorded with the start, and the grant itself with it, so a resumed agent gets what it had.
import { type Event, FINISH_TOOL_NAME } from '../events';
import type { ConfirmationMode } from '../agent/settings';
import { AGENT_MODE_KEY, type AgentMode } from '../state';
import { AGENT_START_KEY, type AgentStartValue, RecordedGrantSchema } from './agent-events';
import type { AgentDefinition } from './definition';

/** Everything an agent may do; each field's wider value is the parent's, never the definition's. */
export interface AgentGrant {
  mode: AgentMode;
  /** The tools it may call (as a definition names them); null: every tool. */
  tools: readonly string[] | null;
  /** When it must ask first. */
  confirmation: ConfirmationMode;
  /** Steps per run; null: no limit of its own. */
  maxIterations: number | null;
  /** Tokens and USD it may still spend; null: no limit. */
  maxTokens: number | null;
  maxCost: number | null;
  /** Hosts its commands reach without asking; null: the user's list, not narrowed. */
  allowedHosts: readonly string[] | null;
}

export interface EffectiveGrant {
  /** The definition with every field of its grant within the parent's. */
  agent: AgentDefinition;
  grant: AgentGrant;
  narrowed: string[];
}

/** How much a confirmation mode lets run unasked: the higher, the wider. */
const CONFIRMATION_WIDTH: Record<ConfirmationMode, number> = { always: 0, risky: 1, never: 2 };

/** The stricter of two confirmation modes (`b` absent: `a`). */
export function stricterConfirmation(a: ConfirmationMode, b: ConfirmationMode | undefined): ConfirmationMode {
  return b !== undefined && CONFIRMATION_WIDTH[b] < CONFIRMATION_WIDTH[a] ? b : a;
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
  let confirmation = agent.confirmation ?? parent.confirmation;
  if (CONFIRMATION_WIDTH[confirmation] > CONFIRMATION_WIDTH[parent.confirmation]) {
    narrowed.push(
      `asked for confirmation "${confirmation}"; its parent's is "${parent.confirmation}", which it keeps`,
    );
    confirmation = parent.confirmation;
  }
  const cap = (asked: number | null, has: number | null, what: (n: number) => string, left: string) => {
    if (has === null) return asked;
    if (asked !== null && asked > has)
      narrowed.push(`asked for ${what(asked)}; its parent has ${what(has)}${left}, so it gets that`);
    return asked === null ? has : Math.min(asked, has);
  };
  const maxIterations = cap(agent.maxIterations, parent.maxIterations, (n) => `${n} steps a run`, '');
  const maxTokens = cap(agent.maxTokens, parent.maxTokens, (n) => `${n} tokens`, ' left');
  const maxCost = cap(agent.maxCost, parent.maxCost, (n) => `$${n}`, ' left');
  let allowedHosts = agent.allowedHosts;
  if (parent.allowedHosts !== null) {
    const within = (agent.allowedHosts ?? parent.allowedHosts).filter((h) =>
      hostCovered(h, parent.allowedHosts!),
    );
    const denied = (agent.allowedHosts ?? []).filter((h) => !hostCovered(h, parent.allowedHosts!));
    if (denied.length)
      narrowed.push(`asked for the hosts ${denied.join(', ')}, which its parent may not reach`);
    allowedHosts = within;
  }
  const grant: AgentGrant = {
    mode,
    tools: tools === null ? null : [...tools],
    confirmation,
    maxIterations,
    maxTokens,
    maxCost,
    allowedHosts: allowedHosts === null ? null : [...allowedHosts],
  };
  return { agent: { ...agent, ...definitionFields(grant) }, grant, narrowed };
}

/**
 * `grant` within `parent`: what an agent granted earlier (recorded in the log) may still do now,
 * under its parent's current grant (a budget spent since, a confirmation mode made stricter).
 */
export function grantWithin(parent: AgentGrant, grant: AgentGrant): AgentGrant {
  return effectiveGrant(parent, { ...PLACEHOLDER, ...definitionFields(grant) }).grant;
}

/** The grant an `agent_start` value records; null for a start written before grants were recorded. */
export function recordedGrant(start: unknown): AgentGrant | null {
  const parsed = RecordedGrantSchema.safeParse((start as { grant?: unknown } | null)?.grant);
  return parsed.success ? parsed.data : null;
}

/** The grant of an agent as it runs: its definition once effectiveGrant made it. */
export function grantOf(agent: AgentDefinition): AgentGrant {
  return {
    mode: agent.mode,
    tools: agent.tools,
    // effectiveGrant always sets it; unset, the strictest, as the parent's is not known here.
    confirmation: agent.confirmation ?? 'always',
    maxIterations: agent.maxIterations,
    maxTokens: agent.maxTokens,
    maxCost: agent.maxCost,
    allowedHosts: agent.allowedHosts,
  };
}

/** A grant as an event's value holds it (plain arrays). */
export function recordableGrant(g: AgentGrant): NonNullable<AgentStartValue['grant']> {
  return {
    ...g,
    tools: g.tools === null ? null : [...g.tools],
    allowedHosts: g.allowedHosts === null ? null : [...g.allowedHosts],
  };
}

/** A definition's fields with `grant` in place of what it asked for: the agent as it runs. */
export function withGrant(agent: AgentDefinition, grant: AgentGrant): AgentDefinition {
  return { ...agent, ...definitionFields(grant) };
}

const PLACEHOLDER: AgentDefinition = {
  name: 'granted',
  description: '',
  tools: null,
  model: null,
  mode: 'act',
  maxIterations: null,
  maxTokens: null,
  maxCost: null,
  confirmation: null,
  allowedHosts: null,
  instructions: '',
  origin: 'log',
};

/** A grant written back into a definition's fields (what a child's session is opened from). */
function definitionFields(g: AgentGrant): Partial<AgentDefinition> {
  return {
    mode: g.mode,
    tools: g.tools === null ? null : [...g.tools],
    confirmation: g.confirmation,
    maxIterations: g.maxIterations,
    maxTokens: g.maxTokens,
    maxCost: g.maxCost,
    allowedHosts: g.allowedHosts === null ? null : [...g.allowedHosts],
  };
}

/**
 * Whether every host `pattern` names is one a parent's list lets through: the same entry, `*`, or
 * a `*.domain` the pattern lies under. A child's `*` under a parent without one is not covered.
 */
export function hostCovered(pattern: string, parent: readonly string[]): boolean {
  const p = pattern.trim().toLowerCase();
  return parent.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (e === '*' || e === p) return true;
    if (!e.startsWith('*.')) return false;
    const bare = p.startsWith('*.') ? p.slice(2) : p;
    return bare === e.slice(2) || bare.endsWith(e.slice(1));
  });
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
