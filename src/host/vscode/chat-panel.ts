// "Open in Editor": the same chat app in an editor tab, driven by the same controller as the sidebar.
// One tab per window: opening it again reveals the existing tab.
import * as vscode from 'vscode';
import type { ChatBackend } from './chat-backend';
import { ChatController } from './chat-view';
import { renderWebviewHtml } from './webview-html';

export const CHAT_PANEL_VIEW_TYPE = 'logbook.chatEditor';

let current: vscode.WebviewPanel | undefined;

export function openChatInEditor(
  context: vscode.ExtensionContext,
  backend: ChatBackend,
  log: vscode.LogOutputChannel,
): vscode.WebviewPanel {
  if (current) {
    current.reveal();
    return current;
  }
  const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
  const panel = vscode.window.createWebviewPanel(
    CHAT_PANEL_VIEW_TYPE,
    'Logbook',
    { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
    // No retainContextWhenHidden: a hidden tab is torn down and resyncs from its last seq on return.
    { enableScripts: true, localResourceRoots: [dist] },
  );
  panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'logbook.svg');
  const controller = new ChatController(panel.webview, backend, log);
  const subscriptions = [
    panel.onDidChangeViewState(() => controller.setVisible(panel.visible)),
    panel.onDidDispose(() => {
      controller.dispose();
      for (const s of subscriptions) s.dispose();
      if (current === panel) current = undefined;
    }),
  ];
  panel.webview.html = renderWebviewHtml(panel.webview, context.extensionUri, 'Logbook', 'editor');
  current = panel;
  context.subscriptions.push(panel);
  return panel;
}
