// Sub-agents in the editor, as in the CLI: the main agent gets `delegate` and `transfer_to_agent`
// over the agent definitions, and its events carry `agent_name`/`branch`. Each delegated agent runs
// as a conversation session of its own (its folder inside the parent's, its own key and tools), with
// the editor's ports and the same confirmation settings as the parent; one whose definition says
// `isolation: worktree` works in a git worktree of its own, as in the CLI. Children stay open while
// the parent is, so the chat can show their steps and the user can answer what they wait on.
import * as vscode from 'vscode';
import { MAIN_STAMP } from '../../../core/agents/agent-events';
import { endedStatus } from '../../../core/agents/agent-tree';
import type { ConversationAgent } from '../../../core/agents/conversation-agent';
import type { AgentDefinition } from '../../../core/agents/definition';
import { mcpToolRefs } from '../../../core/agents/mcp-tool-refs';
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import { tellHeld } from './held-agents';
import type { Conversation } from '../../../core/agent/conversation';
import type { ToolSpec } from '../../../core/tools';
import { loadAgents } from '../../node/agents/agent-files';
import { type ChildSpec, type OpenedChild } from '../../node/agents/child-runner';
import { decideInTree } from '../../node/agents/decide-in-tree';
import { type MainAgentCaps, mainAgentSession } from '../../node/agents/main-agent';
import { readAllowedHosts } from '../sandbox/sandbox-settings';
import type { SessionToolContext } from '../../node/node-session';
import type { ChildAgentView, SequencedEvent } from '../chat/chat-backend';
import { readAgentSettings } from '../settings/config';
import { configuredModel } from '../conversations/session-header';
import {
  type ChildDecisions,
  ConversationSession,
  type SessionDeps,
} from '../conversations/conversation-session';
import { AgentLinks, type TreeLink } from './agent-links';
import { agentFolders } from './closed-agent-logs';
import { configuredMcpServerNames } from '../mcp/editor-mcp-servers';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';

/**
 * The agents a conversation here may hand work to. An untrusted workspace loads none (not even the
 * user's or the built-in one): its conversations run no tool at all.
 */
export function editorAgentDefinitions(cwd: string, log: vscode.LogOutputChannel): AgentDefinition[] {
  if (!vscode.workspace.isTrusted) return [];
  const loaded = loadAgents({
    workspace: cwd,
    env: process.env,
    trusted: true,
    mcpServers: configuredMcpServerNames(),
  });
  for (const e of loaded.errors) log.warn(`Agent definition left out: ${e}`);
  for (const h of loaded.held) tellHeld(h, log);
  return loaded.agents;
}

export interface EditorAgentOptions {
  agents: readonly AgentDefinition[];
  /** The parent's session dependencies: each child's session is made from them. */
  parent: Omit<SessionDeps, 'agent' | 'tools' | 'children' | 'settings'>;
  /** Where a conversation's signed head is kept (the child's too). */
  headFile: (conversationId: string) => string;
  /** A child appended events (the chat nests them under the delegation). */
  onChildAppend(childId: string, events: SequencedEvent[]): void;
  /** A definition of this name the user has not accepted yet (held-agents.ts): refused, saying why. */
  held?: (name: string) => HeldDefinition | null;
  /** The checkpoints of a delegated agent's own worktree; absent: it records none. */
  checkpointsFor?: (folder: string) => WorkspaceCheckpointStore;
}

/** A delegated agent's own worktree: its folder, its workspace there, and what it left, for its parent. */
interface ChildWorktreePlace {
  dir: string;
  workspace: string;
  note(): string;
}

/**
 * The worktree of a child whose definition says `isolation: worktree` (none in plan mode, where it
 * writes nothing and reads its parent's folder), from the lazy task bundle the Tasks view loads.
 * Throws, saying why, where none can be made: the child never runs in its parent's folder instead.
 */
async function isolate(
  spec: ChildSpec,
  parent: { cwd: string; id: string },
): Promise<ChildWorktreePlace | undefined> {
  if (spec.agent.isolation !== 'worktree' || spec.agent.mode === 'plan') return undefined;
  const m = await import('../tasks/task-commands');
  const wt = m.editorChildWorktree(parent.cwd, parent.id, spec.agent.name, spec.id, process.env);
  return { dir: wt.dir, workspace: wt.workspace, note: () => m.childWorktreeNote(wt) };
}

export interface EditorMainAgent {
  agent: ConversationAgent;
  tools?: (builtIn: ToolSpec[], ctx: SessionToolContext) => ToolSpec[];
  children: ChildDecisions & {
    /** Every delegated agent of the tree (children, their children...), with what the chat shows of each. */
    views(): ChildAgentView[];
    /** A delegated agent's session (at any depth), once opened in this window. */
    session(childId: string): ConversationSession | undefined;
    /** A delegated agent's folder (at any depth), as the logs name it. */
    folder(childId: string): string | undefined;
  };
  /** Reads a handoff back, and reopens the children that wait on the user. */
  adopt(conversation: Conversation): Promise<void>;
  /**
   * A definition the user accepted: used from the next step. False where the conversation opened
   * with no agent to delegate to (it has no delegate or handoff tool to use it with).
   */
  accept(agent: AgentDefinition): boolean;
}

export function editorMainAgent(o: EditorAgentOptions): EditorMainAgent {
  // Every delegated agent of the tree: a child's own children are opened through here too.
  const open = new Map<string, ConversationSession>();
  const links = new AgentLinks();
  const worktrees = new Map<string, ChildWorktreePlace>();
  const openChild = async (spec: ChildSpec): Promise<OpenedChild> => {
    let s = open.get(spec.id);
    if (!s) {
      // `isolation: worktree`: its own worktree, made (or found again) as the CLI makes it.
      const wt = await isolate(spec, o.parent);
      if (wt) worktrees.set(spec.id, wt);
      // The window's MCP tools: all for an agent given every tool (no `tools` list), else those its list names.
      const { mcp, checkpoints: windowCheckpoints, ...parent } = o.parent;
      const checkpoints = wt ? o.checkpointsFor?.(wt.dir) : windowCheckpoints;
      const mcpTools = mcpToolRefs(spec.agent.tools);
      s = await ConversationSession.open({
        ...parent,
        ...(mcp && (mcpTools === null || mcpTools.length) ? { mcp } : {}),
        ...(mcpTools?.length ? { mcpTools } : {}),
        // A definition's model: the same endpoint (or the editor's models) under that name.
        ...(spec.agent.model ? { llm: parent.llm.withModel(spec.agent.model) } : {}),
        // In its worktree: its workspace, the sandbox's writable folder and its checkpoints are there.
        ...(wt ? { cwd: wt.workspace, roots: [wt.workspace] } : {}),
        ...(checkpoints ? { checkpoints } : {}),
        id: spec.id,
        dir: spec.dir,
        signing: spec.identity ?? o.parent.signing,
        headFile: o.headFile(spec.id),
        // Hosts narrowed by its definition: a sandbox of its own network, disposed with the child.
        ...(spec.allowedHosts !== null && parent.sandbox
          ? {
              sandbox: {
                ...parent.sandbox,
                sandbox: parent.sandbox.sandbox.withHostsWithin(spec.allowedHosts),
              },
              sharedSandbox: false,
            }
          : { sharedSandbox: true }),
        agent: spec.conversationAgent,
        tools: (builtIn, ctx) => spec.tools(builtIn, ctx),
        // Its grant's caps and confirmation mode, over the settings read at each run. A confirmation
        // mode no stricter than yours is left to those settings, so a change you make reaches it.
        settings: followsYourMode(spec.settings),
        onAppend: (events) => o.onChildAppend(spec.id, events),
        onHeader: () => o.parent.onHeader(),
        // A child's partial output is not streamed into the parent's view.
        onStream: () => undefined,
      });
      open.set(spec.id, s);
      // Its own delegations: their cards nest under its delegate steps.
      await links.follow(spec.id, s.conversation, () => o.parent.onHeader());
    }
    o.parent.onHeader();
    // Kept open: the chat reads its steps and answers its questions; it closes with the parent.
    const wt = worktrees.get(spec.id);
    return {
      conversation: s.conversation,
      close: async () => o.parent.onHeader(),
      // Where it left its work (branch, commits, what is uncommitted), read by its parent.
      ...(wt ? { note: () => wt.note() } : {}),
    };
  };
  // The agent holding exactly these actions, at any depth (the map holds grandchildren too).
  // Agents not opened here (ended before this window opened the conversation): their own children
  // are read from their logs, so the cards list the whole tree.
  const readClosedAgents = async () => {
    for (let more = true; more;) {
      more = false;
      const tree = links.below(o.parent.id);
      const dirs = agentFolders(o.parent.id, o.parent.dir, tree);
      for (const l of tree) {
        const dir = dirs.get(l.conversationId);
        if (open.has(l.conversationId) || !dir || links.has(l.conversationId)) continue;
        await links.readClosed(l.conversationId, dir).catch((err: unknown) => {
          links.none(l.conversationId);
          o.parent.log.warn(`Delegated agent ${l.branch}: could not read its log: ${String(err)}`);
        });
        more = true;
      }
    }
  };
  const holder = (ids: readonly string[]) => {
    for (const s of open.values()) {
      const pending = s.conversation.awaitingConfirmation().map((a) => a.id);
      const mine = ids.filter((id) => pending.includes(id));
      if (mine.length) return { s, mine };
    }
    return undefined;
  };
  if (!o.agents.length)
    return {
      agent: { stamp: () => MAIN_STAMP },
      children: {
        approve: async () => false,
        reject: async () => false,
        dispose: async () => undefined,
        views: () => [],
        session: () => undefined,
        folder: () => undefined,
      },
      adopt: async () => undefined,
      accept: () => false,
    };
  const main = mainAgentSession({
    agents: o.agents,
    parentDir: o.parent.dir,
    parentId: o.parent.id,
    signing: o.parent.signing,
    caps: () => parentCaps(),
    model: () => configuredModel().name,
    openChild,
    ...(o.held ? { held: o.held } : {}),
    // An agent that took the conversation over reaches only its grant's hosts unasked.
    narrowHosts: (hosts) => o.parent.sandbox?.sandbox.narrowHostsTo(hosts),
  });
  return {
    agent: main.agent,
    tools: main.tools,
    accept: (agent) => {
      main.accept(agent);
      return true;
    },
    children: {
      approve: async (ids) => {
        const h = holder(ids);
        if (!h) return false;
        await h.s.conversation.approve(h.mine);
        return true;
      },
      reject: async (ids, reason) => {
        const h = holder(ids);
        if (!h) return false;
        await h.s.conversation.reject(reason, h.mine);
        return true;
      },
      dispose: async () => {
        for (const s of open.values()) await s.dispose().catch(() => undefined);
        open.clear();
      },
      views: () => links.below(o.parent.id).map((l) => childView(l, open.get(l.conversationId))),
      session: (id) => open.get(id),
      folder: (id) => agentFolders(o.parent.id, o.parent.dir, links.below(o.parent.id)).get(id),
    },
    adopt: async (conversation) => {
      await main.adopt(conversation);
      // A child's start or end in the parent's log: the cards show it.
      await links.follow(o.parent.id, conversation, () => o.parent.onHeader());
      await readClosedAgents();
      // A delegation that waits on an agent (a child, or a child's child): the agents that have not
      // ended are opened, down to the one that asks, so its question shows again.
      if (conversation.status !== 'waiting_for_confirmation') return;
      await decideInTree(conversation, main.children(), async () => false).catch((err: unknown) =>
        o.parent.log.warn(
          `Conversation ${o.parent.id}: could not reopen its delegated agents: ${String(err)}`,
        ),
      );
    },
  };
}

/** A child's settings without the confirmation mode when it is the one your settings give now. */
function followsYourMode(settings: ChildSpec['settings']): ChildSpec['settings'] {
  if (settings.confirmationMode !== readAgentSettings().confirmationMode) return settings;
  const { confirmationMode: _yours, ...rest } = settings;
  return rest;
}

/** What the editor's settings grant the main agent (read at each delegation and handoff). */
function parentCaps(): MainAgentCaps {
  const s = readAgentSettings();
  return {
    maxTokens: s.maxTokens,
    maxCost: s.maxCost,
    maxIterations: s.maxIterations,
    confirmationMode: s.confirmationMode,
    allowedHosts: readAllowedHosts(),
  };
}

function childView(link: TreeLink, s: ConversationSession | undefined): ChildAgentView {
  const h = s?.header();
  return {
    conversationId: link.conversationId,
    parentConversationId: link.parentConversationId,
    parentEventId: link.parentEventId,
    agentName: link.agentName,
    branch: link.branch,
    task: link.task ?? '',
    ...(link.narrowed.length ? { narrowed: link.narrowed } : {}),
    ...(link.model ? { model: link.model } : {}),
    status: link.end ? endedStatus(link.end) : (h?.status ?? 'idle'),
    cost: h?.cost ?? 0,
    tokens: h ? h.promptTokens + h.completionTokens : 0,
    pendingActionIds: h?.pendingActionIds ?? [],
    pendingRisks: h?.pendingRisks ?? [],
  };
}
