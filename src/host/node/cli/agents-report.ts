// What `show` says about agents: for a conversation that delegated, its children (branch, agent,
// status, folder, and the actions a waiting one holds); for a delegated agent's own folder, who
// delegated to it. Read without taking any lock, like the rest of `show`.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AGENT_START_KEY, type AgentStartValue } from '../../../core/agents/agent-events';
import { agentTree, type ChildLink } from '../../../core/agents/agent-tree';
import { AGENTS_FOLDER } from '../agents/child-runner';
import { openReadOnly, readEvents } from './conversation-dir';
import type { Event } from '../../../core/events';
import { isCorruptRecord } from '../../../core/log';
import { readState } from './read-state';

export interface ChildReport {
  branch: string;
  agent: string;
  status: string;
  escalated: boolean;
  /** Ended by the user's Stop (its status is the `paused` a stop leaves). */
  stopped: boolean;
  folder: string;
  did: string | null;
  /** The model it runs on (null: not recorded, in older logs). */
  model: string | null;
  /** What its definition asked for beyond its parent's grant and did not get. */
  narrowed: string[];
  /** Of a child that has not ended: its pending actions and those in doubt after a crash. */
  pending: { id: string; tool: string; summary: string | null; in_doubt: boolean }[];
  children: ChildReport[];
}

export interface AgentsReport {
  /** A delegated agent's folder: the conversation and action that started it. */
  delegated_by: { agent_name: string; branch: string; conversation: string; action: string } | null;
  children: ChildReport[];
}

export async function agentsReport(dir: string): Promise<AgentsReport> {
  // The whole log is read only when the conversation delegated, its first event only when it is
  // a delegated agent's (in its parent's agents/ folder): `show` of a long log stays fast.
  const delegated = existsSync(join(dir, AGENTS_FOLDER));
  const isChild = basename(dirname(resolve(dir))) === AGENTS_FOLDER;
  if (!delegated && !isChild) return { delegated_by: null, children: [] };
  const store = await openReadOnly(dir);
  let events: Event[];
  try {
    if (delegated) ({ events } = await readEvents(store));
    else {
      const slot = store.length > 0 ? await store.get(0) : undefined;
      events = slot && !isCorruptRecord(slot) ? [slot as Event] : [];
    }
  } finally {
    await store.close();
  }
  const first = events[0] as { kind: string; key?: string; value?: AgentStartValue } | undefined;
  const start =
    first?.kind === 'ConversationStateUpdateEvent' && first.key === AGENT_START_KEY ? first.value : undefined;
  const delegated_by =
    start?.parent_conversation_id && start.parent_event_id
      ? {
          agent_name: start.agent_name,
          branch: start.branch,
          conversation: start.parent_conversation_id,
          action: start.parent_event_id,
        }
      : null;
  const children = delegated
    ? await Promise.all(agentTree(events).children.map((c) => childReport(dir, c)))
    : [];
  return { delegated_by, children };
}

async function childReport(parentDir: string, link: ChildLink): Promise<ChildReport> {
  const dir = join(parentDir, link.folder);
  const base = {
    branch: link.branch,
    agent: link.agentName,
    folder: link.folder,
    did: link.did,
    model: link.model,
    narrowed: link.narrowed,
  };
  if (!existsSync(join(dir, 'segments')))
    return { ...base, status: 'missing', escalated: false, stopped: false, pending: [], children: [] };
  const store = await openReadOnly(dir);
  let read;
  try {
    read = await readState(store, link.conversationId);
  } finally {
    await store.close();
  }
  const inner = await agentsReport(dir);
  return {
    ...base,
    status: link.end?.status ?? read.state.status,
    escalated: link.end?.escalated === true,
    stopped: link.end?.stopped === true,
    pending: link.end
      ? []
      : read.state.pendingActions.map((p) => {
          const a = read.actions.get(p.actionId);
          return {
            id: p.actionId,
            tool: p.toolName,
            summary: a?.summary ?? null,
            in_doubt: read.state.inDoubt.includes(p.actionId),
          };
        }),
    children: inner.children,
  };
}

/** The report as lines for `show`, children indented under their parent. */
export function agentsLines(r: AgentsReport): string[] {
  const lines: string[] = [];
  if (r.delegated_by)
    lines.push(
      `  agent      ${r.delegated_by.agent_name} (${r.delegated_by.branch}), delegated by conversation ${r.delegated_by.conversation}, action ${r.delegated_by.action}`,
    );
  if (r.children.length) lines.push('  agents');
  const walk = (children: ChildReport[], depth: number) => {
    for (const c of children) {
      const pad = '    '.repeat(depth);
      const status = c.escalated ? `${c.status} (escalated)` : c.stopped ? 'stopped by the user' : c.status;
      const model = c.model ? `  ${c.model}` : '';
      lines.push(`${pad}    ${c.branch}  ${c.agent}${model}  ${status}  ${c.folder}`);
      for (const n of c.narrowed) lines.push(`${pad}      ${c.agent} ${n}`);
      for (const p of c.pending)
        lines.push(
          `${pad}      ${p.in_doubt ? 'in doubt' : 'waiting'}: ${p.tool} ${p.summary ?? ''} (${p.id})`,
        );
      walk(c.children, depth + 1);
    }
  };
  walk(r.children, 0);
  return lines;
}

/** The ids of the actions in doubt in delegated agents that have not ended, at any depth. */
export function childrenInDoubt(children: readonly ChildReport[]): string[] {
  return children.flatMap((c) => [
    ...c.pending.filter((p) => p.in_doubt).map((p) => p.id),
    ...childrenInDoubt(c.children),
  ]);
}
