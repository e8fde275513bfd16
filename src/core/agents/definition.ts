// Agent definitions: a named agent the main agent can hand work to, written as Markdown with front
// matter (name, description, tools, model, mode, caps). The Markdown body is the agent's own
// instructions, added to its system prompt. One agent is built in: `explore`, which only reads.
import type { ConfirmationMode } from '../agent/settings';
import type { AgentMode } from '../state';
import { FrontMatterError, parseFrontMatter, type FrontValue } from './front-matter';
import { mcpToolRefProblem } from './mcp-tool-refs';

export interface AgentDefinition {
  /** What the model names in a delegation: lowercase letters, digits, `-` and `_`. */
  name: string;
  description: string;
  /**
   * The tools it may call: built-in ones by name, MCP tools as `server/tool` or `server/*`
   * (mcp-tool-refs.ts); null: every built-in tool and every MCP tool.
   */
  tools: string[] | null;
  /** The model it talks to; null: the parent's. */
  model: string | null;
  mode: AgentMode;
  maxIterations: number | null;
  maxTokens: number | null;
  /** USD. */
  maxCost: number | null;
  /** A stricter confirmation mode than its parent's; null: the parent's (never a wider one). */
  confirmation: ConfirmationMode | null;
  /** Hosts its commands reach without asking, within its parent's; null: the parent's. */
  allowedHosts: string[] | null;
  /** `worktree`: it works in a git worktree of its own, on its own branch; absent: in its parent's folder. */
  isolation?: 'worktree';
  instructions: string;
  /** Where it was read from: `built-in`, or the file. */
  origin: string;
}

export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

/** The name the main agent's own events carry (its branch is `main` too). */
export const MAIN_AGENT = 'main';

export const EXPLORE_AGENT: AgentDefinition = {
  name: 'explore',
  description:
    'Reads the workspace to answer a question (where something is defined, how a part works); changes nothing.',
  tools: ['file_editor', 'glob', 'grep', 'think', 'finish'],
  model: null,
  mode: 'plan',
  maxIterations: 30,
  maxTokens: null,
  maxCost: null,
  confirmation: null,
  allowedHosts: null,
  instructions:
    'You explore the workspace for another agent. Read what you need (file_editor view, glob, grep), change nothing, ' +
    'and call finish with a concise answer: the facts found, with file paths and line numbers.',
  origin: 'built-in',
};

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [EXPLORE_AGENT];

const KNOWN_FIELDS = new Set([
  'name',
  'description',
  'tools',
  'model',
  'mode',
  'max_iterations',
  'max_tokens',
  'max_cost',
  'confirmation',
  'allowed_hosts',
  'isolation',
]);

/** A host name, `*.example.com` for every name under it, or `*` (as `logbook.sandbox.allowedHosts`). */
const HOST_PATTERN = /^(\*|(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*)$/;

export type ParsedDefinition = { ok: true; agent: AgentDefinition } | { ok: false; error: string };

/** Parses one definition file; every problem is an error naming the file, never a guess. */
export function parseAgentDefinition(text: string, origin: string): ParsedDefinition {
  const fail = (why: string): ParsedDefinition => ({ ok: false, error: `${origin}: ${why}` });
  let fm;
  try {
    fm = parseFrontMatter(text);
  } catch (err) {
    if (err instanceof FrontMatterError) return fail(err.message);
    throw err;
  }
  const f = fm.fields;
  const unknown = Object.keys(f).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length) return fail(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  const name = f.name;
  if (typeof name !== 'string' || !AGENT_NAME_PATTERN.test(name))
    return fail('"name" must be lowercase letters, digits, - or _ (starting with a letter)');
  if (name === MAIN_AGENT) return fail('"main" names the main agent; choose another name');
  if (typeof f.description !== 'string' || !f.description.trim()) return fail('"description" is required');
  const tools = f.tools === undefined ? null : f.tools;
  if (tools !== null && (!Array.isArray(tools) || tools.length === 0))
    return fail('"tools" must be a list of tool names');
  const badRef = (tools as string[] | null)?.map(mcpToolRefProblem).find((p) => p !== null);
  if (badRef) return fail(badRef);
  const model = f.model === undefined ? null : f.model;
  if (model !== null && (typeof model !== 'string' || !model)) return fail('"model" must be a model name');
  const mode = f.mode ?? 'act';
  if (mode !== 'plan' && mode !== 'act') return fail('"mode" must be plan or act');
  const caps: Record<string, number | null> = {};
  for (const key of ['max_iterations', 'max_tokens', 'max_cost'] as const) {
    const v: FrontValue | undefined = f[key];
    if (v === undefined) caps[key] = null;
    else if (typeof v !== 'number' || !(v > 0) || (key !== 'max_cost' && !Number.isInteger(v)))
      return fail(`"${key}" must be a positive ${key === 'max_cost' ? 'number (USD)' : 'whole number'}`);
    else caps[key] = v;
  }
  const confirmation = f.confirmation ?? null;
  if (
    confirmation !== null &&
    confirmation !== 'always' &&
    confirmation !== 'risky' &&
    confirmation !== 'never'
  )
    return fail('"confirmation" must be always, risky or never');
  const hosts = f.allowed_hosts ?? null;
  if (
    hosts !== null &&
    (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string' && HOST_PATTERN.test(h)))
  )
    return fail('"allowed_hosts" must be a list of host names like api.example.com or *.example.com');
  if (f.isolation !== undefined && f.isolation !== 'worktree')
    return fail('"isolation" must be worktree (a git worktree of its own)');
  return {
    ok: true,
    agent: {
      name,
      description: f.description.trim(),
      tools: tools as string[] | null,
      model: model as string | null,
      mode,
      maxIterations: caps.max_iterations!,
      maxTokens: caps.max_tokens!,
      maxCost: caps.max_cost!,
      confirmation,
      allowedHosts: hosts as string[] | null,
      ...(f.isolation === 'worktree' ? { isolation: 'worktree' as const } : {}),
      instructions: fm.body,
      origin,
    },
  };
}

/** An agent that changes nothing: plan mode, or only read-only tools. Such agents may run side by side. */
export function isReadOnlyAgent(agent: AgentDefinition, readOnlyTools: ReadonlySet<string>): boolean {
  if (agent.mode === 'plan') return true;
  return agent.tools !== null && agent.tools.every((t) => readOnlyTools.has(t));
}

/**
 * The agents a conversation offers, later sources winning by name: the built-in ones, the user's,
 * then the workspace's (a workspace may specialise a user's agent for its repository).
 */
export function mergeAgents(...sources: readonly (readonly AgentDefinition[])[]): AgentDefinition[] {
  const byName = new Map<string, AgentDefinition>();
  for (const list of sources) for (const a of list) byName.set(a.name, a);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The lines of the main agent's system prompt that name the agents it can delegate to. */
export function agentsPromptSection(agents: readonly AgentDefinition[]): string | null {
  if (agents.length === 0) return null;
  return [
    'You can hand a self-contained task to one of these agents with the delegate tool (command "delegate", tasks: {"<id>": "<task>"}, agent_types: the agent of each id, in the order of ids). Each runs on its own and returns its final message; read-only agents given tasks in one call run at the same time.',
    ...agents.map((a) => `- ${a.name}${a.mode === 'plan' ? ' (read-only)' : ''}: ${a.description}`),
  ].join('\n');
}
