// What a log says about agents, derived from its events alone: the children it delegated to (from
// `agent_start`/`agent_end` updates, each naming the child's conversation), the handoffs in it, and
// a summary per branch (which agents wrote on it, how many events, its LLM usage). `show`, `verify`
// and the editor read the tree from here; nothing is kept beside the log.
import { LLM_USAGE_KEY } from '../state/metrics';
import {
  AGENT_END_KEY,
  AGENT_START_KEY,
  AgentEndValueSchema,
  AgentStartValueSchema,
  type AgentStartValue,
  stampOf,
} from './agent-events';

interface LogEvent {
  kind: string;
  key?: unknown;
  value?: unknown;
}

export interface ChildLink {
  agentName: string;
  branch: string;
  conversationId: string;
  /** Relative to the parent's folder. */
  folder: string;
  did: string | null;
  /** The delegating action in the parent's log. */
  parentEventId: string | null;
  task: string | null;
  /** What its definition asked for beyond its parent's grant and did not get (effective-grant.ts). */
  narrowed: string[];
  /** Everything it was granted, as its start recorded it (null in logs from before that was recorded). */
  grant: AgentStartValue['grant'] | null;
  /** The model it runs on, as its start recorded it (null in logs from before that was recorded). */
  model: string | null;
  /** Null while it has not ended (running, or waiting for the user). */
  end: { status: string; escalated: boolean; stopped: boolean; message: string | null } | null;
}

/** How an ended child reads: escalated or stopped by the user say more than the status they left. */
export function endedStatus(end: NonNullable<ChildLink['end']>): string {
  if (end.escalated) return 'escalated';
  return end.stopped ? 'stopped' : end.status;
}

export interface Handoff {
  from: string;
  to: string;
  did: string | null;
  /** Index of the `agent_start` in the log. */
  index: number;
}

export interface BranchSummary {
  branch: string;
  /** In the order they first wrote on it (a handoff adds one). */
  agents: string[];
  events: number;
  /** Tokens and cost of the branch's own model calls (a parent's mirror of a child's counts for the child). */
  promptTokens: number;
  completionTokens: number;
  cost: number;
}

export interface AgentTree {
  children: ChildLink[];
  handoffs: Handoff[];
  branches: BranchSummary[];
}

export function agentTree(events: readonly LogEvent[]): AgentTree {
  const children = new ChildLinks();
  const handoffs: Handoff[] = [];
  const branches = new Map<string, BranchSummary>();
  const branchOf = (name: string) => {
    let b = branches.get(name);
    if (!b) {
      b = { branch: name, agents: [], events: 0, promptTokens: 0, completionTokens: 0, cost: 0 };
      branches.set(name, b);
    }
    return b;
  };
  let current = '';
  events.forEach((e, index) => {
    const stamp = stampOf(e);
    const b = branchOf(stamp.branch);
    b.events++;
    if (!b.agents.includes(stamp.agent_name)) b.agents.push(stamp.agent_name);
    if (e.kind !== 'ConversationStateUpdateEvent') return;
    if (e.key === LLM_USAGE_KEY) {
      const u = e.value as {
        usage_id?: unknown;
        prompt_tokens?: number;
        completion_tokens?: number;
        cost?: number;
      };
      const target =
        typeof u.usage_id === 'string' && u.usage_id.startsWith('agent:') ? branchOf(u.usage_id.slice(6)) : b;
      target.promptTokens += u.prompt_tokens ?? 0;
      target.completionTokens += u.completion_tokens ?? 0;
      target.cost += u.cost ?? 0;
    } else if (e.key === AGENT_START_KEY) {
      const v = AgentStartValueSchema.safeParse(e.value);
      if (v.success && v.data.handoff) {
        handoffs.push({
          from: current || stamp.agent_name,
          to: v.data.agent_name,
          did: v.data.did ?? null,
          index,
        });
        current = v.data.agent_name;
      } else children.add(e);
    } else if (e.key === AGENT_END_KEY) children.add(e);
  });
  return { children: children.list(), handoffs, branches: [...branches.values()] };
}

/**
 * The children a log names, folded one event at a time (a holder of a live log adds each event as
 * it is appended instead of reading the log again). Adding an event twice changes nothing.
 */
export class ChildLinks {
  private readonly children = new Map<string, ChildLink>();

  /** Whether `e` is about a child (a start or an end; a handoff is not). */
  static concerns(e: LogEvent): boolean {
    return (
      e.kind === 'ConversationStateUpdateEvent' && (e.key === AGENT_START_KEY || e.key === AGENT_END_KEY)
    );
  }

  add(e: LogEvent): void {
    if (e.kind !== 'ConversationStateUpdateEvent') return;
    if (e.key === AGENT_START_KEY) {
      const v = AgentStartValueSchema.safeParse(e.value);
      if (!v.success || v.data.handoff) return;
      if (v.data.conversation_id && v.data.folder && !this.children.has(v.data.conversation_id)) {
        this.children.set(v.data.conversation_id, {
          agentName: v.data.agent_name,
          branch: v.data.branch,
          conversationId: v.data.conversation_id,
          folder: v.data.folder,
          did: v.data.did ?? null,
          parentEventId: v.data.parent_event_id ?? null,
          task: v.data.task ?? null,
          narrowed: v.data.narrowed ?? [],
          grant: v.data.grant ?? null,
          model: v.data.model ?? null,
          end: null,
        });
      }
    } else if (e.key === AGENT_END_KEY) {
      const v = AgentEndValueSchema.safeParse(e.value);
      const child =
        v.success && v.data.conversation_id ? this.children.get(v.data.conversation_id) : undefined;
      if (child && v.success)
        child.end = {
          status: v.data.status,
          escalated: v.data.escalated === true,
          stopped: v.data.stopped === true,
          message: v.data.message ?? null,
        };
    }
  }

  /** The children in the order their starts were recorded (copies: later adds do not change them). */
  list(): ChildLink[] {
    return [...this.children.values()].map((c) => ({ ...c, end: c.end && { ...c.end } }));
  }
}
