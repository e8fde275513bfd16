// The delegated agents under a conversation in the Conversations view: read from the parent's log
// (its `agent_start`/`agent_end` updates) without taking the writer lock, so a running conversation
// is not disturbed. A child that delegated further lists its own children the same way. Clicking one
// shows its card in the chat of the conversation the tree starts from (reveal-delegated-agent.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { agentTree, type ChildLink, endedStatus } from '../../../core/agents/agent-tree';
import { printableLine } from '../../../core/text/printable';
import { statusText } from '../conversations/conversation-row';
import { AGENTS_FOLDER } from '../../node/agents/child-runner';
import { openReadOnly, readEvents } from '../../node/cli/conversation-dir';
import { REVEAL_DELEGATED_AGENT, type DelegatedAgentTarget } from './reveal-delegated-agent';

export interface DelegatedAgentNode {
  kind: 'delegated-agent';
  link: ChildLink;
  /** The child's own folder. */
  dir: string;
  /** The conversation of the tree's top row, and the agents from its child down to this one. */
  target: DelegatedAgentTarget;
}

/** A child's folder as its parent's log names it; anything else (a log edited by hand) is not followed. */
const CHILD_FOLDER = new RegExp(`^${AGENTS_FOLDER}/[\\w-]+$`);

const STATUS_ICONS: Record<string, string> = {
  not_ended: 'circle-outline',
  finished: 'pass',
  escalated: 'arrow-up',
  stopped: 'debug-stop',
  paused: 'debug-pause',
  waiting_for_confirmation: 'question',
  error: 'error',
  stuck: 'warning',
};

/** Whether a conversation's folder holds delegated agents (cheap: no log is read). */
export function hasDelegatedAgents(dir: string): boolean {
  return existsSync(join(dir, AGENTS_FOLDER));
}

/**
 * The agents the conversation in `dir` delegated to, in the order its log started them. `from`: the
 * top row's conversation and the agents down to `dir` (none when `dir` is that conversation's).
 */
export async function delegatedAgents(
  dir: string,
  from: { conversationId: string; childIds: readonly string[] },
): Promise<DelegatedAgentNode[]> {
  if (!hasDelegatedAgents(dir)) return [];
  const store = await openReadOnly(dir);
  try {
    const { events } = await readEvents(store);
    return agentTree(events)
      .children.filter((link) => CHILD_FOLDER.test(link.folder))
      .map((link) => ({
        kind: 'delegated-agent',
        link,
        dir: join(dir, link.folder),
        target: { conversationId: from.conversationId, childIds: [...from.childIds, link.conversationId] },
      }));
  } finally {
    await store.close();
  }
}

export function delegatedAgentItem(node: DelegatedAgentNode): vscode.TreeItem {
  const { link } = node;
  const task = printableLine(link.task ?? '');
  const status = link.end ? endedStatus(link.end) : 'not_ended';
  const words = statusText(status, vscode.l10n);
  const item = new vscode.TreeItem(
    task ? `${link.agentName}: ${task}` : link.agentName,
    hasDelegatedAgents(node.dir)
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `agent:${link.conversationId}`;
  item.description = `${link.branch} · ${words}`;
  item.tooltip = [
    vscode.l10n.t('{0} agent ({1}), {2}', link.agentName, link.branch, words),
    task,
    link.end?.message ? printableLine(link.end.message) : '',
  ]
    .filter((l) => l)
    .join('\n');
  item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[status] ?? 'hubot');
  item.contextValue = 'delegatedAgent';
  item.command = {
    command: REVEAL_DELEGATED_AGENT,
    title: vscode.l10n.t('Show in Chat'),
    arguments: [node.target],
  };
  return item;
}
