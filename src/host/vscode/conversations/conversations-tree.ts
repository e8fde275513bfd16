// The "Conversations" tree: the workspace's conversations, newest first, each row led by its time and
// status (conversation-row.ts), and
// what verifying their signatures found once checked (on open, or Logbook: Verify Conversation).
// A conversation that delegated work has its agents under it (agents/delegated-agent-items.ts).
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  type DelegatedAgentNode,
  delegatedAgentItem,
  delegatedAgents,
  hasDelegatedAgents,
} from '../agents/delegated-agent-items';
import type { ConversationService, ListedConversation } from './conversation-service';
import { conversationRow, statusText, usableLocale } from './conversation-row';
import { verifyMessage } from '../signing/verify';
import { printableLine } from '../../../core/text/printable';
import { formatCost } from '../../../core/format/counts';
import type { Verdict } from '../../../core/signing';
import { INTERRUPTED_REASON } from '../../../core/state/interrupted';
import {
  isTaskConversation,
  type TaskConversationNode,
  taskConversationItem,
  taskConversationNodes,
} from './task-conversation-items';

/** The word the description starts with once the signatures were checked. */
function signatureWord(verdict: Verdict): string {
  switch (verdict) {
    case 'verified':
      return vscode.l10n.t('✓ verified');
    case 'broken':
      return vscode.l10n.t('✗ broken');
    case 'unsigned':
      return vscode.l10n.t('unsigned');
    case 'truncated':
      return vscode.l10n.t('✗ truncated');
    case 'unknown-signer':
      return vscode.l10n.t('? unknown signer');
  }
}

const STATUS_ICONS: Record<string, string> = {
  running: 'loading~spin',
  waiting_for_confirmation: 'question',
  paused: 'debug-pause',
  finished: 'pass',
  error: 'error',
  stuck: 'warning',
  idle: 'comment',
};

type TreeNode = ListedConversation | DelegatedAgentNode | TaskConversationNode;

const isAgent = (n: TreeNode): n is DelegatedAgentNode => 'kind' in n && n.kind === 'delegated-agent';

export class ConversationsTree implements vscode.TreeDataProvider<TreeNode> {
  readonly onDidChangeTreeData: vscode.Event<void>;

  constructor(
    private readonly service: ConversationService,
    private readonly log?: Pick<vscode.LogOutputChannel, 'warn'>,
  ) {
    this.onDidChangeTreeData = service.onDidChangeList;
  }

  async getChildren(element?: TreeNode): Promise<TreeNode[]> {
    if (!element) return this.withTasks(this.service.list());
    if (isTaskConversation(element)) return [];
    return isAgent(element)
      ? delegatedAgents(element.dir, element.target)
      : delegatedAgents(join(this.service.root, element.id), { conversationId: element.id, childIds: [] });
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (isTaskConversation(node)) return taskConversationItem(node, this.service.activeId);
    return isAgent(node) ? delegatedAgentItem(node) : this.conversationItem(node);
  }

  /**
   * The window's conversations and its repository's tasks' conversations, newest first. Each task's
   * is made known to the service, so a command on its row acts on the task's own log.
   */
  private async withTasks(listed: ListedConversation[]): Promise<TreeNode[]> {
    const tasks = await taskConversationNodes().catch((err: unknown) => {
      this.log?.warn(`Could not list the tasks' conversations: ${String(err)}`);
      return [];
    });
    const ids = new Set(listed.map((c) => c.id));
    const shown = tasks.filter((t) => !ids.has(t.id));
    for (const t of shown) this.service.places.know(t.id, t.place);
    const updated = (n: ListedConversation | TaskConversationNode) =>
      (isTaskConversation(n) ? n.entry.updated : n.updated) ?? '';
    // Newest first, as the index orders the window's own; a stable sort keeps its order among equals.
    return [...listed, ...shown].sort((a, b) =>
      updated(a) < updated(b) ? 1 : updated(a) > updated(b) ? -1 : 0,
    );
  }

  private conversationItem(c: ListedConversation): vscode.TreeItem {
    // What differs between two rows (time, status) first: a narrow sidebar cuts the end of the row.
    const row = conversationRow(
      {
        title: c.title ? printableLine(c.title) : undefined,
        updated: c.updated ?? undefined,
        status: c.status,
        interrupted: c.interrupted,
      },
      new Date(),
      { l10n: vscode.l10n, locale: vscode.env.language },
    );
    const item = new vscode.TreeItem(
      row.label,
      hasDelegatedAgents(join(this.service.root, c.id))
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = c.id;
    const when = c.updated
      ? new Date(c.updated).toLocaleString(usableLocale(vscode.env.language), { hourCycle: 'h23' })
      : '';
    const check = c.verified;
    item.description = check ? signatureWord(check.verdict) : undefined;
    const events =
      c.eventCount === 1
        ? vscode.l10n.t('1 event')
        : vscode.l10n.t('{0} events', c.eventCount.toLocaleString(usableLocale(vscode.env.language)));
    item.tooltip =
      `${printableLine(c.title ?? '')}\n${row.status}${when ? ` · ${when}` : ''}\n` +
      `${events} · ${formatCost(c.cost)}` +
      (c.interrupted
        ? `\n${vscode.l10n.t('{0} ({1}): open it to re-run or skip what it left in doubt', statusText(c.status, vscode.l10n), c.interrupted === INTERRUPTED_REASON ? vscode.l10n.t('interrupted: the process that ran it is gone') : c.interrupted)}`
        : '') +
      (check ? `\n${vscode.l10n.t('Signatures: {0}', verifyMessage(check))}` : '');
    // A conversation changed after it was signed shows it in place of its status icon.
    item.iconPath =
      check?.verdict === 'broken' || check?.verdict === 'truncated'
        ? new vscode.ThemeIcon('workspace-untrusted', new vscode.ThemeColor('errorForeground'))
        : new vscode.ThemeIcon(STATUS_ICONS[c.status] ?? 'comment');
    item.command = {
      command: 'logbook.openConversation',
      title: vscode.l10n.t('Open Conversation'),
      arguments: [c.id],
    };
    item.contextValue = c.id === this.service.activeId ? 'conversation.active' : 'conversation';
    return item;
  }
}
