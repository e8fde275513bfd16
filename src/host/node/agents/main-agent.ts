// The main agent of a CLI conversation and what it can hand work to: the delegate tool (children
// run by NodeChildRunner), transfer_to_agent (a handoff in the same log), and the system prompt's
// list of agents. Its events carry `agent_name`/`branch`: `main`, or after a handoff the agent
// that took over (read back from the log when the conversation is opened again, with the grant its
// start recorded: a definition changed since gives it nothing more).
import {
  AGENT_END_KEY,
  AGENT_START_KEY,
  type AgentStamp,
  type AgentStartValue,
  MAIN_STAMP,
} from '../../../core/agents/agent-events';
import { deriveAgentIdentity } from '../../../core/agents/agent-key';
import type { ConversationAgent } from '../../../core/agents/conversation-agent';
import { type AgentDefinition, agentsPromptSection } from '../../../core/agents/definition';
import {
  createDelegateTool,
  DELEGATE_TOOL_NAME,
  type DelegateTool,
} from '../../../core/agents/delegate-tool';
import { createTransferTool, TRANSFER_TOOL_NAME } from '../../../core/agents/transfer-tool';
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import {
  type AgentGrant,
  grantWithin,
  recordableGrant,
  recordedGrant,
  userMode,
} from '../../../core/agents/effective-grant';
import type { ConfirmationMode } from '../../../core/agent/settings';
import { mcpToolRefs, selectsMcpTool } from '../../../core/agents/mcp-tool-refs';
import type { Conversation } from '../../../core/agent/conversation';
import { type Event, FINISH_TOOL_NAME } from '../../../core/events';
import type { SigningIdentity } from '../../../core/signing';
import type { ToolSpec } from '../../../core/tools';
import type { NodeSessionOptions, SessionToolContext } from '../node-session';
import { NodeChildRunner, type NodeChildRunnerOptions } from './child-runner';

export interface MainAgentOptions {
  agents: readonly AgentDefinition[];
  parentDir: string;
  parentId: string;
  signing?: SigningIdentity;
  /** The main agent's settings its children and handoffs stay within (read at each one). */
  caps: () => MainAgentCaps;
  /** Opens a child's conversation in the host (`nodeChildOpener` in the CLI). */
  openChild: NodeChildRunnerOptions['openChild'];
  /** The model the main agent runs on (children without a model of their own run on it). */
  model?: () => string;
  /** A definition of this name the user has not accepted yet (definition-watch.ts): refused, saying why. */
  held?: (name: string) => HeldDefinition | null;
  /**
   * Told the hosts the agent running the conversation may reach (a handoff's grant) whenever that
   * changes, also when a resumed log is read back; null: the user's list, not narrowed.
   */
  narrowHosts?: (hosts: readonly string[] | null) => void;
}

/** What the user's settings grant the main agent. */
export interface MainAgentCaps {
  maxTokens?: number | null;
  maxCost?: number | null;
  maxIterations?: number | null;
  confirmationMode?: ConfirmationMode;
  /** `logbook.sandbox.allowedHosts`; absent: not narrowed here (the sandbox's own list holds). */
  allowedHosts?: readonly string[];
}

/** The session options that give the main agent its agents; `adopt` reads a handoff back after open. */
export function mainAgentSession(o: MainAgentOptions): {
  tools: NonNullable<NodeSessionOptions['tools']>;
  agent: ConversationAgent;
  adopt(conversation: Conversation): Promise<void>;
  /** Runs the children (once the session's tools are made). */
  children(): NodeChildRunner;
  /**
   * A definition the user accepted while the conversation is open: its delegations and handoffs
   * may use it from the next step (in place of one of the same name).
   */
  accept(agent: AgentDefinition): void;
} {
  // The list the tools read at each call: an accepted definition joins it.
  const agents: AgentDefinition[] = [...o.agents];
  let current: AgentStamp = MAIN_STAMP;
  // The grant of the agent that took over by a handoff (as recorded); null: the main agent's own.
  let currentGrant: AgentGrant | null = null;
  // What the conversation had used when that agent took over: its budget counts from there.
  let spentBefore: Spent = { tokens: 0, cost: 0 };
  /** The handoff's grant with its budget as the conversation's totals (what the loop compares). */
  const asTotals = (g: AgentGrant): AgentGrant => ({
    ...g,
    maxTokens: g.maxTokens === null ? null : spentBefore.tokens + g.maxTokens,
    maxCost: g.maxCost === null ? null : spentBefore.cost + g.maxCost,
  });
  const takeOver = (grant: AgentGrant | null, spent: Spent | undefined) => {
    currentGrant = grant;
    spentBefore = spent ?? { tokens: 0, cost: 0 };
    o.narrowHosts?.(grant?.allowedHosts ?? null);
  };
  /**
   * What the agent running the conversation may do now: the user's settings, narrowed by a
   * handoff's grant; budgets as the conversation's totals.
   */
  const grantNow = (mode: AgentGrant['mode']): AgentGrant => {
    const c = o.caps();
    const own: AgentGrant = {
      mode,
      tools: null,
      confirmation: c.confirmationMode ?? 'risky',
      maxIterations: c.maxIterations ?? null,
      maxTokens: c.maxTokens ?? null,
      maxCost: c.maxCost ?? null,
      allowedHosts: c.allowedHosts ? [...c.allowedHosts] : null,
    };
    // The mode is the one given: a plan agent that took over holds no mode the user did not choose.
    return currentGrant ? grantWithin(own, { ...asTotals(currentGrant), mode }) : own;
  };
  /** grantNow with its budget as what is left to spend (what a handoff's grant records). */
  const grantLeft = (mode: AgentGrant['mode'], used: Spent): AgentGrant => {
    const g = grantNow(mode);
    const left = (cap: number | null, spent: number) => (cap === null ? null : Math.max(0, cap - spent));
    return { ...g, maxTokens: left(g.maxTokens, used.tokens), maxCost: left(g.maxCost, used.cost) };
  };
  let runner: NodeChildRunner | undefined;
  let useSigner: SessionToolContext['useSigner'] | undefined;
  let delegate: DelegateTool | undefined;
  const section = agentsPromptSection(agents);
  const tools = (builtIn: ToolSpec[], ctx: SessionToolContext): ToolSpec[] => {
    useSigner = ctx.useSigner;
    runner = new NodeChildRunner({
      agents: () => agents,
      parentDir: o.parentDir,
      parentId: o.parentId,
      parentBranch: MAIN_STAMP.branch,
      parent: ctx.conversation,
      parentGrant: () => grantNow(ctx.conversation().state.mode),
      openChild: o.openChild,
      ...(o.model ? { model: o.model } : {}),
      ...(o.signing ? { signing: o.signing } : {}),
      ...(o.held ? { held: o.held } : {}),
    });
    const readOnlyTools = new Set(builtIn.filter((t) => t.readOnly).map((t) => t.name));
    const held = o.held ? { held: o.held } : {};
    delegate = createDelegateTool({ agents: () => agents, runner, readOnlyTools, ...held });
    return [
      ...builtIn,
      delegate as ToolSpec,
      createTransferTool({
        agents: () => agents,
        grant: async () => {
          const c = ctx.conversation();
          return grantLeft(userMode(await c.events()), spentOf(c));
        },
        transfer: async (agent, reason, { grant, narrowed }) => {
          const c = ctx.conversation();
          await c.recordAgentUpdate(AGENT_END_KEY, {
            ...current,
            status: 'transferred',
            message: reason ?? null,
          });
          const identity = o.signing ? handoffIdentity(o.signing, o.parentId, agent.name) : null;
          const next: AgentStamp = { agent_name: agent.name, branch: current.branch };
          const start: AgentStartValue = {
            ...next,
            did: identity?.did ?? null,
            handoff: true,
            ...(reason ? { task: reason } : {}),
            ...(narrowed.length ? { narrowed: [...narrowed] } : {}),
            grant: recordableGrant(grant),
            spent: spentOf(c),
          };
          // Signed by the agent handing over, which so vouches for the next one's key.
          await c.recordAgentUpdate(AGENT_START_KEY, start);
          current = next;
          takeOver(grant, spentOf(c));
          if (identity) ctx.useSigner(identity);
        },
        setMode: (mode) => ctx.conversation().setMode(mode),
        ...held,
      }),
    ];
  };
  return {
    tools,
    accept: (agent) => {
      const at = agents.findIndex((a) => a.name === agent.name);
      if (at >= 0) agents.splice(at, 1, agent);
      else agents.push(agent);
    },
    children: () => {
      if (!runner) throw new Error('The session is not open yet.');
      return runner;
    },
    agent: {
      stamp: () => current,
      ...(section ? { promptSections: [section] } : {}),
      offers: (tool) => offeredAfterHandoff(agents, current.agent_name, currentGrant, tool),
      confirmation: () => currentGrant?.confirmation,
      limits: () => {
        if (!currentGrant) return { maxIterations: null, maxTokens: null, maxCost: null };
        const { maxIterations, maxTokens, maxCost } = asTotals(currentGrant);
        return { maxIterations, maxTokens, maxCost };
      },
    },
    async adopt(conversation) {
      // No delegation or handoff recorded: nothing to read back (a long log is not read for it).
      if (conversation.state.agentEvents === 0) return;
      const events = await conversation.events();
      rememberSpawns(events, delegate);
      for (const e of events) {
        if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== AGENT_START_KEY) continue;
        const v = e.value as AgentStartValue;
        if (!v.handoff) continue;
        current = { agent_name: v.agent_name, branch: v.branch };
        // A start written before grants were recorded: its definition's tools, within nothing else.
        takeOver(recordedGrant(v), v.spent);
      }
      // The agent that took over signs what it appends from now on, as it did before.
      if (current.agent_name !== MAIN_STAMP.agent_name && o.signing && useSigner)
        useSigner(handoffIdentity(o.signing, o.parentId, current.agent_name));
    },
  };
}

/**
 * The tools offered while `agentName` runs the conversation: the main agent's all; after a handoff,
 * those its recorded grant names (every built-in and MCP one, `delegate` aside, when it names none),
 * with finish and transfer_to_agent, so it can end or hand over again.
 */
function offeredAfterHandoff(
  agents: readonly AgentDefinition[],
  agentName: string,
  grant: AgentGrant | null,
  tool: Pick<ToolSpec, 'name' | 'mcp'>,
): boolean {
  if (agentName === MAIN_STAMP.agent_name) return true;
  if (tool.name === FINISH_TOOL_NAME || tool.name === TRANSFER_TOOL_NAME) return true;
  const def = agents.find((a) => a.name === agentName);
  // A definition gone since the handoff: nothing but finishing or handing over.
  if (!def) return false;
  // The grant the handoff recorded; a log from before grants: the definition's own tools.
  const tools = grant ? grant.tools : def.tools;
  if (tool.mcp) return selectsMcpTool(mcpToolRefs(tools), tool.mcp.server, tool.mcp.tool);
  return tools === null ? tool.name !== DELEGATE_TOOL_NAME : tools.includes(tool.name);
}

interface Spent {
  tokens: number;
  cost: number;
}

/** What the conversation has used so far. */
function spentOf(c: Conversation): Spent {
  const t = c.state.metrics.total;
  return { tokens: t.promptTokens + t.completionTokens, cost: t.cost };
}

/** The key of an agent that took a conversation over: derived from the user's, per conversation and agent. */
function handoffIdentity(user: SigningIdentity, conversationId: string, agentName: string): SigningIdentity {
  return deriveAgentIdentity(user, `${conversationId}:${agentName}`);
}

/** The sub-agents the log's successful `spawn` calls named, given back to the delegate tool. */
function rememberSpawns(events: readonly Event[], tool: DelegateTool | undefined): void {
  if (!tool) return;
  const failed = new Set(
    events.flatMap((e) =>
      e.kind === 'ObservationEvent' && e.observation.is_error === true ? [e.action_id] : [],
    ),
  );
  for (const e of events) {
    if (e.kind !== 'ActionEvent' || e.tool_name !== DELEGATE_TOOL_NAME || failed.has(e.id)) continue;
    const a = e.action as { command?: unknown; ids?: unknown; agent_types?: unknown } | null;
    if (a?.command === 'spawn' && Array.isArray(a.ids) && Array.isArray(a.agent_types))
      tool.remember(a.ids.map(String), a.agent_types.map(String));
  }
}
