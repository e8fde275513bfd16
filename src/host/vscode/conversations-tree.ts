// The "Conversations" tree: the workspace's conversations, newest first, with their status.
import * as vscode from 'vscode';
import type { ConversationHandle, ConversationService } from './conversation-service';

export class ConversationsTree implements vscode.TreeDataProvider<ConversationHandle> {
  readonly onDidChangeTreeData: vscode.Event<void>;

  constructor(private readonly service: ConversationService) {
    this.onDidChangeTreeData = service.onDidChangeList;
  }

  getChildren(element?: ConversationHandle): ConversationHandle[] {
    return element ? [] : this.service.list();
  }

  getTreeItem(c: ConversationHandle): vscode.TreeItem {
    const item = new vscode.TreeItem(c.title, vscode.TreeItemCollapsibleState.None);
    item.id = c.id;
    item.description = `${c.status} · ${c.created.toLocaleString()}`;
    item.iconPath = new vscode.ThemeIcon(c.id === this.service.activeId ? 'comment-discussion' : 'comment');
    item.command = { command: 'logbook.openConversation', title: 'Open Conversation', arguments: [c.id] };
    item.contextValue = 'conversation';
    return item;
  }
}
