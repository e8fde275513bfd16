// "Open in Editor": the same chat app in an editor tab, driven by the same controller as the sidebar.
// One tab per window: opening it again reveals the existing tab. After a window reload VS Code
// hands the tab back through the serializer, and the app resyncs from its saved last sequence.
import * as vscode from 'vscode';
import type { ChatBackend } from './chat-backend';
import { ChatController } from './chat-view';
import { renderWebviewHtml } from './webview-html';
import { webviewL10n } from './webview-l10n';

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
  const panel = vscode.window.createWebviewPanel(
    CHAT_PANEL_VIEW_TYPE,
    'Logbook',
    { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
    // No retainContextWhenHidden: a hidden tab is torn down and resyncs from its last seq on return.
    webviewOptions(context),
  );
  return adopt(panel, context, backend, log);
}

/** Restores the editor tab after a window reload. */
export function registerChatPanelSerializer(
  context: vscode.ExtensionContext,
  backend: ChatBackend,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_VIEW_TYPE, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel) {
      panel.webview.options = webviewOptions(context);
      adopt(panel, context, backend, log);
    },
  });
}

function webviewOptions(
  context: vscode.ExtensionContext,
): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist')] };
}

function adopt(
  panel: vscode.WebviewPanel,
  context: vscode.ExtensionContext,
  backend: ChatBackend,
  log: vscode.LogOutputChannel,
): vscode.WebviewPanel {
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
  panel.webview.html = renderWebviewHtml(
    panel.webview,
    context.extensionUri,
    'Logbook',
    'editor',
    webviewL10n(),
    backend.demoTasks?.(),
  );
  current = panel;
  context.subscriptions.push(panel);
  return panel;
}
