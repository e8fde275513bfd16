// The sidebar chat panel: a webview view that renders the active conversation's events and turns
// the user's intents (validated by src/protocol) into commands.
import * as vscode from 'vscode';
import { type HostMessage, parseWebviewMessage, type WebviewMessage } from '../../protocol/messages';
import { renderWebviewHtml } from './webview-html';
import type { ConversationService } from './conversation-service';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'logbook.chat';
  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly service: ConversationService,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      service.onDidAppend(({ conversationId, seq, event }) => {
        this.post({ type: 'events', conversationId, events: [{ seq, event }] });
      }),
      service.onDidChangeActive(() => this.sendSnapshot(-1)),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')],
    };
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri, 'Logbook');
    view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw), undefined, this.disposables);
    view.onDidDispose(() => (this.view = undefined), undefined, this.disposables);
  }

  private receive(raw: unknown): void {
    const msg = parseWebviewMessage(raw);
    if ('error' in msg) {
      this.log.warn(`Dropped an invalid message from the chat view: ${msg.error}`);
      return;
    }
    void this.handle(msg);
  }

  private async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.sendSnapshot(msg.conversationId === this.service.activeId ? msg.lastSeq : -1);
        return;
      case 'sendMessage':
        await this.service.sendMessage(msg.text);
        return;
      case 'startTask':
        await vscode.commands.executeCommand('logbook.startTask');
        return;
    }
  }

  /** Sends the conversation header and every event after `afterSeq` (a resync after hide/reload). */
  private sendSnapshot(afterSeq: number): void {
    const active = this.service.active;
    this.post({ type: 'conversation', conversation: active ? active.summary() : null });
    if (active) {
      const events = active.eventsAfter(afterSeq);
      if (events.length) this.post({ type: 'events', conversationId: active.id, events });
    }
  }

  private post(msg: HostMessage): void {
    void this.view?.webview.postMessage(msg);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
