// Runs delegated agents as conversations of their own: each in `agents/<child id>/` inside the
// parent's folder, with its own segment log, signed by its own key (derived from the user's), its
// own tools, caps and model, and its grant (effective-grant.ts): never more than its parent's, and
// after a pause or the user's answer the one its start recorded, not a definition read again. The child's id is derived
// from the delegating action and the sub-agent id, so running the action again (after the user
// answered a child's question, or after a crash) reopens the same child and goes on from its log.
// Links both ways: the parent's log records `agent_start` (child id, folder, did:key, the action)
// and `agent_end`; the child's first event names the parent's conversation and action. The child's
// LLM usage is mirrored into the parent's log, so it shows in the parent's totals and counts
// against the parent's budget. Pausing the parent pauses its running children at their next step
// (each records the pause in its own log); they go on when the parent's run resumes the delegation.
// How a host opens a child is in child-opener.ts; what a child's log says of its end, child-outcome.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  AGENT_END_KEY,
  AGENT_START_KEY,
  type AgentEndValue,
  type AgentStartValue,
} from '../../../core/agents/agent-events';
import { deriveAgentIdentity } from '../../../core/agents/agent-key';
import type { AgentDefinition } from '../../../core/agents/definition';
import {
  type AgentGrant,
  effectiveGrant,
  grantOf,
  grantWithin,
  recordableGrant,
  recordedGrant,
  withGrant,
} from '../../../core/agents/effective-grant';
import type { AgentSettings } from '../../../core/agent/settings';
import type { ChildRequest, ChildResult, ChildRunner } from '../../../core/agents/delegate-tool';
import { createDelegateTool, DELEGATE_TOOL_NAME } from '../../../core/agents/delegate-tool';
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import { createEscalateTool } from '../../../core/agents/escalate-tool';
import type { Conversation } from '../../../core/agent/conversation';
import { derivedUuid } from '../../../core/events/derived-uuid';
import { type ActionEvent, FINISH_TOOL_NAME } from '../../../core/events';
import type { ConfirmationDecision } from '../../../core/agent/ports';
import { agentTree, type ChildLink } from '../../../core/agents/agent-tree';
import { LLM_USAGE_KEY } from '../../../core/state/metrics';
import type { SigningIdentity } from '../../../core/signing';
import type { ToolSpec } from '../../../core/tools';
import type { SessionToolContext } from '../node-session';
import { type ChildSpec, type OpenedChild } from './child-opener';
import { finalMessage, recordedEnd, STOPPED_BY_USER, stoppedMessage } from './child-outcome';

/** The folder of a conversation's delegated agents, inside its own. */
export const AGENTS_FOLDER = 'agents';

export { type ChildSpec, nodeChildOpener, type NodeChildSession, type OpenedChild } from './child-opener';

export interface NodeChildRunnerOptions {
  parentDir: string;
  parentId: string;
  parentBranch: string;
  /** The parent conversation (open by the time a child runs). */
  parent: () => Conversation;
  /** The agent definitions children are made from. */
  agents: () => readonly AgentDefinition[];
  /** The parent's grant (its caps before what it spent): a child's stays within it. */
  parentGrant: () => AgentGrant;
  /** Opens a child's conversation in the host (the CLI: `nodeChildOpener`; the editor its own). */
  openChild: (spec: ChildSpec) => Promise<OpenedChild>;
  /** The user's identity: each child signs with a key derived from it. None: children are unsigned. */
  signing?: SigningIdentity;
  /** The parent's depth: 1 for the main agent (its children are at 2). */
  depth?: number;
  /** Where waiting agents are listed: a nested runner shares its root's, so the root names every one. */
  waiting?: Map<string, WaitingChild>;
  /** The model the parent runs on: a child whose definition names none runs on it too. */
  model?: () => string;
  /** A definition of this name the user has not accepted yet (definition-watch.ts): a child's delegate refuses it. */
  held?: (name: string) => HeldDefinition | null;
}

export function childConversationId(parentId: string, actionId: string, subId: string): string {
  return derivedUuid(`logbook-agent:${parentId}:${actionId}:${subId}`);
}

/** A child that stopped to wait for the user, as its parent's run reports it. */
export interface WaitingChild {
  branch: string;
  folder: string;
  actions: ActionEvent[];
  risks: ConfirmationDecision[];
}

export class NodeChildRunner implements ChildRunner {
  /**
   * The agents that wait for the user with actions of their own, after this process's last
   * delegation: children and, through nested runners sharing the map, their descendants.
   */
  readonly waiting: Map<string, WaitingChild>;

  /** The branches the parent's log records, by child id, and how many children each agent name has. */
  private branches?: Promise<{
    byId: Map<string, string>;
    perName: Map<string, number>;
    grants: Map<string, AgentGrant>;
  }>;

  constructor(private readonly opts: NodeChildRunnerOptions) {
    this.waiting = opts.waiting ?? new Map();
  }

  async run(request: ChildRequest): Promise<ChildResult> {
    const { opts } = this;
    const id = childConversationId(opts.parentId, request.actionId, request.subId);
    // Never more than its parent: the parent's mode now (plan stays plan), within the rest of its
    // grant. A child started before goes on with the grant its start recorded, within the parent's.
    const recorded = await this.recordedGrantOf(id);
    const grant = recorded
      ? { agent: withGrant(request.agent, grantWithin(this.parentNow(), recorded)), narrowed: [] }
      : effectiveGrant(this.parentNow(), request.agent);
    const req: ChildRequest = { ...request, agent: grant.agent };
    const folder = `${AGENTS_FOLDER}/${id}`;
    const dir = join(opts.parentDir, AGENTS_FOLDER, id);
    const fresh = !existsSync(join(dir, 'meta.json'));
    const identity = opts.signing ? deriveAgentIdentity(opts.signing, id) : undefined;
    const model = this.modelOf(req.agent);
    const start: AgentStartValue = {
      agent_name: req.agent.name,
      branch: await this.branchOf(id, req.agent.name),
      did: identity?.did ?? null,
      parent_conversation_id: opts.parentId,
      parent_event_id: req.actionId,
      ...(model ? { model } : {}),
      ...(grant.narrowed.length ? { narrowed: grant.narrowed } : {}),
      grant: recordableGrant(grantOf(req.agent)),
    };
    const base = { subId: req.subId, agentName: req.agent.name, branch: start.branch, conversationId: id };
    // Paused before this child started (it comes after one that paused): it starts on resume.
    if (fresh && req.pause?.aborted)
      return { ...base, status: 'paused', escalated: false, message: '', paused: true };
    const session = await this.open(req.agent, dir, id, identity, start);
    const child = session.conversation;
    try {
      const branch = start.branch;
      const ended = await recordedEnd(child);
      if (ended)
        return {
          ...base,
          status: ended.status,
          escalated: ended.escalated === true,
          message: ended.message ?? '',
        };
      const parent = opts.parent();
      if (fresh) {
        await parent.recordAgentUpdate(AGENT_START_KEY, {
          agent_name: req.agent.name,
          branch,
          did: identity?.did ?? null,
          conversation_id: id,
          folder,
          parent_event_id: req.actionId,
          task: req.task,
          ...(model ? { model } : {}),
          ...(grant.narrowed.length ? { narrowed: grant.narrowed } : {}),
          grant: recordableGrant(grantOf(req.agent)),
        } satisfies AgentStartValue);
        // Run again in this process (after the user's answer), it goes on with this grant too.
        (await this.branches)?.grants.set(id, grantOf(req.agent));
        if (req.agent.mode === 'plan') await child.setMode('plan');
        await child.sendMessage(req.task);
      }
      // The child's model calls count in the parent's totals and against its budget; a call its own
      // child passed up keeps the branch that made it.
      const mirror = child.onEvent((e) => {
        if (e.kind === 'ConversationStateUpdateEvent' && e.key === LLM_USAGE_KEY) {
          const made = (e.value as { usage_id?: unknown } | null)?.usage_id;
          const usageId = typeof made === 'string' && made.startsWith('agent:') ? made : `agent:${branch}`;
          const value = { ...(e.value as object), usage_id: usageId };
          void parent.recordAgentUpdate(LLM_USAGE_KEY, value).catch(() => undefined);
        }
      });
      const abort = () => void child.interrupt();
      req.signal.addEventListener('abort', abort);
      // The parent's pause reaches the child (and, through its own delegations, its children).
      const pause = () => void child.pause().catch(() => undefined);
      let status;
      try {
        const running = child.run();
        if (req.pause?.aborted) pause();
        else req.pause?.addEventListener('abort', pause);
        status = await running;
      } finally {
        mirror();
        req.signal.removeEventListener('abort', abort);
        req.pause?.removeEventListener('abort', pause);
      }
      // Paused with its parent: not ended, it goes on from its log when the delegation runs again.
      if (status === 'paused' && req.pause?.aborted && !req.signal.aborted) {
        this.waiting.delete(id);
        return { ...base, status, escalated: false, message: '', paused: true };
      }
      if (status === 'waiting_for_confirmation') {
        const actions = child.awaitingConfirmation();
        // None of its own: one of its children waits, and is listed by its runner.
        if (actions.length) this.waiting.set(id, { branch, folder, actions, risks: child.heldRisks() });
        else this.waiting.delete(id);
        return { ...base, status, escalated: false, message: '' };
      }
      this.waiting.delete(id);
      const final = await finalMessage(child);
      // Stopped by the user: the status a stop leaves is `paused`, but the agent will not go on.
      const stopped = req.signal.aborted && status === 'paused';
      const said = stopped
        ? STOPPED_BY_USER
        : status === 'finished'
          ? (final?.message ?? '')
          : stoppedMessage(status, child, req.agent.model);
      // A child in a worktree of its own: where its work is, for the parent to review or merge.
      const message = session.note ? `${said}\n\n${session.note()}` : said;
      const end: AgentEndValue = {
        agent_name: req.agent.name,
        branch,
        conversation_id: id,
        status,
        escalated: final?.escalated === true,
        ...(stopped ? { stopped } : {}),
        message,
      };
      await child.recordAgentUpdate(AGENT_END_KEY, end);
      await parent.recordAgentUpdate(AGENT_END_KEY, end);
      return { ...base, status, escalated: end.escalated === true, message };
    } finally {
      await session.close();
    }
  }

  /**
   * The user stopped the parent while this delegation was suspended (its children paused, or one
   * waiting for the user): each child of the action that has not ended is stopped (its own
   * delegation ends its children first) and its end recorded in both logs, so none stays paused
   * for good.
   */
  async endUnfinished(actionId: string): Promise<void> {
    const parent = this.opts.parent();
    for (const link of agentTree(await parent.events()).children) {
      if (link.parentEventId !== actionId || link.end) continue;
      const defined = this.opts.agents().find((a) => a.name === link.agentName);
      // A definition gone since: the child cannot be opened as itself; it stays as it was.
      if (!defined) continue;
      const agent = await this.asStarted(defined, link.conversationId);
      const identity = this.opts.signing
        ? deriveAgentIdentity(this.opts.signing, link.conversationId)
        : undefined;
      const dir = join(this.opts.parentDir, link.folder);
      const start: AgentStartValue = { agent_name: agent.name, branch: link.branch };
      const session = await this.open(agent, dir, link.conversationId, identity, start);
      try {
        const child = session.conversation;
        await child.interrupt();
        const end: AgentEndValue = {
          agent_name: agent.name,
          branch: link.branch,
          conversation_id: link.conversationId,
          status: child.status,
          escalated: false,
          stopped: true,
          message: STOPPED_BY_USER,
        };
        await child.recordAgentUpdate(AGENT_END_KEY, end);
        await parent.recordAgentUpdate(AGENT_END_KEY, end);
        this.waiting.delete(link.conversationId);
      } finally {
        await session.close();
      }
    }
  }

  /**
   * Opens a child the parent's log names, for the user's decision on its waiting or in-doubt
   * actions (approve, reject, resolve); `decide` returns whether it changed anything. The parent's
   * next run picks the child up from there.
   */
  async decide(link: ChildLink, decide: (child: Conversation) => Promise<boolean>): Promise<boolean> {
    const defined = this.opts.agents().find((a) => a.name === link.agentName);
    if (!defined) throw new Error(`The agent "${link.agentName}" of ${link.branch} is no longer defined.`);
    const agent = await this.asStarted(defined, link.conversationId);
    const dir = join(this.opts.parentDir, link.folder);
    const identity = this.opts.signing
      ? deriveAgentIdentity(this.opts.signing, link.conversationId)
      : undefined;
    const start: AgentStartValue = { agent_name: agent.name, branch: link.branch };
    const session = await this.open(agent, dir, link.conversationId, identity, start);
    try {
      return await decide(session.conversation);
    } finally {
      await session.close();
    }
  }

  /**
   * The runner of `link`'s own children, given its open conversation: to decide on what a grandchild
   * waits on. The caps are the parent's, as only decisions are made through it, not runs.
   */
  below(link: ChildLink, conversation: Conversation): NodeChildRunner {
    const grant = link.grant ?? this.opts.parentGrant();
    return this.nested({
      dir: join(this.opts.parentDir, link.folder),
      id: link.conversationId,
      branch: link.branch,
      conversation: () => conversation,
      grant: () => grantWithin(this.opts.parentGrant(), grant),
    });
  }

  /** The parent's grant now: its mode, and of its budget what it has not spent. */
  private parentNow(): AgentGrant {
    const parent = this.opts.parent();
    const used = parent.state.metrics.total;
    const g = this.opts.parentGrant();
    const left = (cap: number | null, spent: number) => (cap === null ? null : Math.max(0, cap - spent));
    return {
      ...g,
      mode: parent.state.mode,
      maxTokens: left(g.maxTokens, used.promptTokens + used.completionTokens),
      maxCost: left(g.maxCost, used.cost),
    };
  }

  /** The grant the parent's log recorded when the child started (none: not started, or an old log). */
  private async recordedGrantOf(id: string): Promise<AgentGrant | undefined> {
    this.branches ??= this.readBranches();
    return (await this.branches).grants.get(id);
  }

  /** `defined` as the child started: with the grant its start recorded, within the parent's now. */
  private async asStarted(defined: AgentDefinition, id: string): Promise<AgentDefinition> {
    const recorded = await this.recordedGrantOf(id);
    return recorded
      ? withGrant(defined, grantWithin(this.parentNow(), recorded))
      : effectiveGrant(this.parentNow(), defined).agent;
  }

  private nested(child: {
    dir: string;
    id: string;
    branch: string;
    conversation: () => Conversation;
    grant: () => AgentGrant;
    model?: () => string;
  }): NodeChildRunner {
    return new NodeChildRunner({
      ...this.opts,
      parentDir: child.dir,
      parentId: child.id,
      parentBranch: child.branch,
      parent: child.conversation,
      parentGrant: child.grant,
      depth: (this.opts.depth ?? 1) + 1,
      waiting: this.waiting,
      ...(child.model ? { model: child.model } : {}),
    });
  }

  /** The model a child of this definition runs on (none known: the host's default). */
  private modelOf(agent: AgentDefinition): string | undefined {
    return agent.model ?? (this.opts.model?.() || undefined);
  }

  /** The child's branch: as the parent's log recorded it, else the next number of its agent (`main.explore.2`). */
  private async branchOf(id: string, name: string): Promise<string> {
    this.branches ??= this.readBranches();
    const { byId, perName } = await this.branches;
    // Synchronous from here: children started together get distinct numbers.
    const known = byId.get(id);
    if (known) return known;
    const n = (perName.get(name) ?? 0) + 1;
    perName.set(name, n);
    const branch = `${this.opts.parentBranch}.${name}.${n}`;
    byId.set(id, branch);
    return branch;
  }

  private async readBranches(): Promise<{
    byId: Map<string, string>;
    perName: Map<string, number>;
    grants: Map<string, AgentGrant>;
  }> {
    const byId = new Map<string, string>();
    const perName = new Map<string, number>();
    const grants = new Map<string, AgentGrant>();
    for (const e of await this.opts.parent().events()) {
      if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== AGENT_START_KEY) continue;
      const v = e.value as AgentStartValue;
      if (!v.conversation_id || byId.has(v.conversation_id)) continue;
      byId.set(v.conversation_id, v.branch);
      const grant = recordedGrant(v);
      if (grant) grants.set(v.conversation_id, grant);
      perName.set(v.agent_name, (perName.get(v.agent_name) ?? 0) + 1);
    }
    return { byId, perName, grants };
  }

  private async open(
    agent: AgentDefinition,
    dir: string,
    id: string,
    identity: SigningIdentity | undefined,
    start: AgentStartValue,
  ): Promise<OpenedChild> {
    const { opts } = this;
    // `agent` is as granted (effective-grant.ts): its caps and confirmation within the parent's.
    const settings: Partial<AgentSettings> = {
      maxTokens: agent.maxTokens,
      maxCost: agent.maxCost,
      ...(agent.maxIterations !== null ? { maxIterations: agent.maxIterations } : {}),
      ...(agent.confirmation !== null ? { confirmationMode: agent.confirmation } : {}),
    };
    const grant = grantOf(agent);
    const branch = start.branch;
    return opts.openChild({
      agent,
      dir,
      id,
      ...(identity ? { identity } : {}),
      settings,
      allowedHosts: agent.allowedHosts,
      tools: (builtIn, ctx) => [
        ...builtIn.filter(
          (t) => agent.tools === null || agent.tools.includes(t.name) || t.name === FINISH_TOOL_NAME,
        ),
        ...(agent.tools?.includes(DELEGATE_TOOL_NAME)
          ? [
              this.childDelegateTool(builtIn, ctx, {
                dir,
                id,
                branch,
                grant,
                model: this.modelOf(agent),
              }),
            ]
          : []),
        createEscalateTool(),
      ],
      conversationAgent: {
        stamp: () => ({ agent_name: agent.name, branch }),
        start,
        promptSections: [
          `You are the ${agent.name} agent, given a task by another agent. When done, call finish with your result; call escalate to hand the task back early.`,
          ...(agent.instructions ? [agent.instructions] : []),
        ],
      },
    });
  }

  /** A child's own delegate tool: its children run from its conversation, one level deeper. */
  private childDelegateTool(
    builtIn: ToolSpec[],
    ctx: SessionToolContext,
    child: {
      dir: string;
      id: string;
      branch: string;
      grant: AgentGrant;
      model: string | undefined;
    },
  ): ToolSpec {
    const depth = (this.opts.depth ?? 1) + 1;
    const runner = this.nested({
      ...child,
      conversation: ctx.conversation,
      grant: () => child.grant,
      model: () => child.model ?? '',
    });
    const readOnlyTools = new Set(builtIn.filter((t) => t.readOnly).map((t) => t.name));
    return createDelegateTool({
      agents: this.opts.agents,
      runner,
      readOnlyTools,
      depth,
      ...(this.opts.held ? { held: this.opts.held } : {}),
    }) as ToolSpec;
  }
}
