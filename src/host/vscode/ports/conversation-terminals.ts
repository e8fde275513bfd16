// One agent terminal per conversation, created on first use and disposed with the extension.
import type * as vscode from 'vscode';
import { IntegratedTerminalPort, type IntegratedTerminalPortOptions } from './terminal-port';

export class ConversationTerminals implements vscode.Disposable {
  private readonly ports = new Map<string, IntegratedTerminalPort>();

  constructor(private readonly defaults: Omit<IntegratedTerminalPortOptions, 'title'> = {}) {}

  /** The conversation's terminal port; the VS Code terminal itself appears at its first command. */
  get(conversationId: string, title: string): IntegratedTerminalPort {
    let port = this.ports.get(conversationId);
    if (!port)
      this.ports.set(conversationId, (port = new IntegratedTerminalPort({ ...this.defaults, title })));
    return port;
  }

  /** Ends the conversation's shell (and whatever runs in it) and closes its terminal. */
  close(conversationId: string): void {
    this.ports.get(conversationId)?.dispose();
    this.ports.delete(conversationId);
  }

  dispose(): void {
    for (const port of this.ports.values()) port.dispose();
    this.ports.clear();
  }
}
