// Extension entry point: wires the VS Code adapters around the conversation service. Kept cheap:
// activation only constructs objects; nothing is read from disk or the network until used.
import * as vscode from 'vscode';
import { ChatViewProvider } from './chat-view';
import { registerCommands } from './commands';
import { ConversationService } from './conversation-service';
import { ConversationsTree } from './conversations-tree';

export interface LogbookApi {
  readonly service: ConversationService;
}

export function activate(context: vscode.ExtensionContext): LogbookApi {
  const log = vscode.window.createOutputChannel('Logbook', { log: true });
  const service = new ConversationService();
  const chat = new ChatViewProvider(context.extensionUri, service, log);
  context.subscriptions.push(
    log,
    service,
    chat,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat),
    vscode.window.createTreeView('logbook.conversations', {
      treeDataProvider: new ConversationsTree(service),
    }),
    ...registerCommands(service, log),
  );
  log.info('Logbook activated');
  return { service };
}

export function deactivate(): void {}
