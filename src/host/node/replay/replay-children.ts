// Replaying a conversation whose agent delegated: the replay's main agent gets `delegate` and
// `transfer_to_agent` over the agent definitions, and each child it starts is fed the replies its
// recorded log holds, found by branch (`main.explore.1`: the same delegation numbers its children
// the same way in both runs). Afterwards each recorded child's tool results are compared with its
// replayed twin's, so a divergence inside a child is named by its branch and its own event index.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentTree } from '../../../core/agents/agent-tree';
import {
  compareCalls,
  type Divergence,
  firstDivergence,
  type Normaliser,
} from '../../../core/agent/replay-divergence';
import type { Event } from '../../../core/events';
import { RecordedLlmClient, recordedReplies } from '../../../core/llm/recorded-client';
import type { LlmResponse } from '../../../core/llm/types';
import { deriveState } from '../../../core/state';
import type { ChildSpec, OpenedChild } from '../agents/child-runner';
import { openReadOnly, readEvents } from '../cli/conversation-dir';
import { type NodeSessionOptions, openNodeConversation } from '../node-session';

/** One delegated agent's log, as a run left it. */
export interface ChildLog {
  branch: string;
  dir: string;
  events: Event[];
}

/** Every delegated agent's log under a conversation, at any depth, in the order they started. */
export async function childLogs(dir: string, events: readonly Event[]): Promise<ChildLog[]> {
  const out: ChildLog[] = [];
  for (const link of agentTree(events).children) {
    const childDir = join(dir, link.folder);
    if (!existsSync(join(childDir, 'segments'))) {
      out.push({ branch: link.branch, dir: childDir, events: [] });
      continue;
    }
    const store = await openReadOnly(childDir);
    let read: Event[];
    try {
      ({ events: read } = await readEvents(store));
    } finally {
      await store.close();
    }
    out.push({ branch: link.branch, dir: childDir, events: read }, ...(await childLogs(childDir, read)));
  }
  return out;
}

/** Opens the replay's children, each answered by the replies its recorded branch got. */
export function replayChildOpener(
  session: Omit<NodeSessionOptions, 'storeDir' | 'id' | 'llm' | 'tools' | 'agent' | 'onEvent'>,
  recorded: readonly ChildLog[],
  /** The recorded replies as the copy runs them (its folders in place of the recording's). */
  inCopy: (replies: LlmResponse[]) => LlmResponse[],
): (spec: ChildSpec) => Promise<OpenedChild> {
  return async (spec) => {
    const branch = spec.conversationAgent.stamp().branch;
    // A child the recording did not have gets no reply: its first request fails, in words.
    const events = recorded.find((c) => c.branch === branch)?.events ?? [];
    return openNodeConversation({
      ...session,
      storeDir: spec.dir,
      id: spec.id,
      llm: new RecordedLlmClient(inCopy(recordedReplies(events))),
      settings: { ...session.settings, ...spec.settings },
      sharedSandbox: true,
      tools: spec.tools,
      agent: spec.conversationAgent,
    });
  };
}

/** The first divergence inside a child, with its branch; children compared in the recording's order. */
export function firstChildDivergence(
  recorded: readonly ChildLog[],
  replayed: readonly ChildLog[],
  n: Normaliser,
): { branch: string; divergence: Divergence; actions: number; status: string } | undefined {
  for (const rec of recorded) {
    const twin = replayed.find((c) => c.branch === rec.branch);
    const calls = compareCalls(rec.events, twin?.events ?? []);
    const folders = [{ path: rec.dir, as: '<child>' }, ...(twin ? [{ path: twin.dir, as: '<child>' }] : [])];
    const divergence = firstDivergence(calls, { ...n, folders: [...folders, ...n.folders] });
    if (divergence)
      return {
        branch: rec.branch,
        divergence,
        actions: calls.length,
        status: twin ? deriveState(twin.events).status : 'not started',
      };
  }
  return undefined;
}

/** Whether a recording handed work to other agents (its replay then needs them). */
export function usesAgents(recorded: readonly Event[]): boolean {
  const tree = agentTree(recorded);
  return tree.children.length > 0 || tree.handoffs.length > 0;
}
