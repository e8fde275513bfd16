// How a host opens a delegated agent's conversation: what it is given (the child's folder, key,
// settings, tools and agent) and the CLI's way of doing it, as a Node session sharing the parent's
// endpoint and sandbox. Apart from child-runner.ts, which decides when a child runs; the editor
// opens children its own way from the same spec.
import type { AgentSettings } from '../../../core/agent/settings';
import type { AgentDefinition } from '../../../core/agents/definition';
import type { Conversation } from '../../../core/agent/conversation';
import type { ConversationAgent } from '../../../core/agents/conversation-agent';
import { mcpToolRefs } from '../../../core/agents/mcp-tool-refs';
import type { Event } from '../../../core/events';
import type { SigningIdentity } from '../../../core/signing';
import type { ToolSpec } from '../../../core/tools';
import type { CheckpointPort } from '../../../core/checkpoints/types';
import type { McpHub } from '../mcp';
import type { CommandSandbox } from '../sandbox';
import { type NodeSessionOptions, openNodeConversation, type SessionToolContext } from '../node-session';

/** What a host needs to open a delegated agent's conversation. */
export interface ChildSpec {
  agent: AgentDefinition;
  /** The child's folder (inside the parent's) and conversation id. */
  dir: string;
  id: string;
  /** Its own signing key; none: unsigned. */
  identity?: SigningIdentity;
  /** Its settings from its grant: caps within what is left of the parent's, its confirmation mode. */
  settings: Partial<AgentSettings>;
  /** Hosts its commands reach without asking, within the user's list; null: that list, not narrowed. */
  allowedHosts: readonly string[] | null;
  /**
   * The child's tools from the host's built-in ones: its definition's, finish and escalate, and
   * `delegate` when its definition lists it (its own children then live in its folder).
   */
  tools: (builtIn: ToolSpec[], ctx: SessionToolContext) => ToolSpec[];
  /** The agent the child's conversation runs as (stamp, first event, prompt). */
  conversationAgent: ConversationAgent;
}

/** A child's open conversation; `close` releases it (a host may keep it open for its views). */
export interface OpenedChild {
  conversation: Conversation;
  close(): Promise<void>;
  /** What its parent reads after its final message: where a child in a worktree of its own left its work. */
  note?: () => string;
}

/** Where a child with `isolation: worktree` works (the CLI: child-worktree.ts), and its own parts there. */
export interface IsolatedChild {
  workspace: string;
  /** Its worktree's checkpoints; none: no checkpoints. */
  checkpoints?: CheckpointPort;
  /** A sandbox of its own, for its worktree; closed with the child. */
  sandbox?: CommandSandbox;
  note: () => string;
}

/** What every child session shares with the parent's in the CLI (endpoint, confirmation, sandbox...). */
export type NodeChildSession = Omit<
  NodeSessionOptions,
  | 'storeDir'
  | 'id'
  | 'signing'
  | 'signedHeadFile'
  | 'tools'
  | 'agent'
  | 'onEvent'
  | 'mcpServers'
  | 'sharedMcp'
>;

/** Children as Node sessions: the CLI's way. */
export function nodeChildOpener(o: {
  session: NodeChildSession;
  /** Where a child's signed head is kept outside its folder. */
  headFile?: (childDir: string) => string;
  /** Every event of every child, as appended (the CLI prints them indented). */
  onEvent?: (event: Event, index: number) => void;
  /** A child's session.json, so `show` names its workspace. */
  describe?: (childDir: string, childId: string) => void;
  /** The parent session's MCP servers: a child gets all their tools without a `tools` list, else those it names. */
  mcp?: () => McpHub | undefined;
  /** Makes (or finds again) the worktree of a child with `isolation: worktree`; absent: such a child does not run. */
  isolate?: (spec: ChildSpec) => IsolatedChild;
}): (spec: ChildSpec) => Promise<OpenedChild> {
  return async (spec) => {
    const { agent, dir, id, identity } = spec;
    const mcpTools = mcpToolRefs(agent.tools);
    const mcp = o.mcp;
    // In plan mode (its own, or its parent's run's) it writes nothing: it reads its parent's folder.
    const wantsWorktree = agent.isolation === 'worktree' && agent.mode !== 'plan';
    if (wantsWorktree && !o.isolate)
      throw new Error(
        `The agent "${agent.name}" needs a git worktree of its own, which this host cannot make.`,
      );
    const isolated = wantsWorktree ? o.isolate?.(spec) : undefined;
    const { checkpoints: parentCheckpoints, ...shared } = o.session;
    const checkpoints = isolated ? isolated.checkpoints : parentCheckpoints;
    const own = isolated?.sandbox;
    const base = own ?? o.session.sandbox;
    const narrow = spec.allowedHosts === null ? undefined : base?.withHostsWithin(spec.allowedHosts);
    if (narrow && own) await own.dispose();
    const sandbox = narrow ?? own;
    const session = await openNodeConversation({
      ...shared,
      ...(isolated ? { workspace: isolated.workspace } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      storeDir: dir,
      id,
      llmSettings: agent.model ? { ...o.session.llmSettings, model: agent.model } : o.session.llmSettings,
      settings: { ...o.session.settings, ...spec.settings },
      // Hosts narrowed by its definition: a sandbox of its own network, closed with the child.
      ...(sandbox ? { sandbox, sharedSandbox: false } : { sharedSandbox: true }),
      ...(identity ? { signing: identity } : {}),
      ...(identity && o.headFile ? { signedHeadFile: o.headFile(dir) } : {}),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      tools: spec.tools,
      agent: spec.conversationAgent,
      ...(mcp && (mcpTools === null || mcpTools.length)
        ? { sharedMcp: { hub: mcp, ...(mcpTools ? { tools: mcpTools } : {}) } }
        : {}),
    });
    o.describe?.(dir, id);
    return isolated ? Object.assign(session, { note: isolated.note }) : session;
  };
}
