// Status bar item: the active conversation's status, tokens and cost; click to show the chat.
import * as vscode from 'vscode';
import type { ConversationHeader } from './chat-backend';
import type { ConversationService } from './conversation-service';
import { formatTokens } from '../../protocol/token-count';
import { formatCost } from '../../core/format/counts';

export function createStatusBar(service: ConversationService): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('logbook.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Logbook';
  item.command = 'logbook.chat.focus';
  const render = (h: ConversationHeader | undefined) => {
    if (!h) {
      item.text = '$(book) Logbook';
      item.tooltip = 'Logbook: no conversation open';
    } else {
      const icon =
        h.status === 'running'
          ? '$(loading~spin)'
          : h.status === 'waiting_for_confirmation'
            ? '$(question)'
            : '$(book)';
      // The same counts, rounded the same way, as the chat header's.
      const tokens = `$(arrow-up)${formatTokens(h.promptTokens)} $(arrow-down)${formatTokens(h.completionTokens)}`;
      item.text = `${icon} ${h.status.replace(/_/g, ' ')} · ${tokens} · ${formatCost(h.cost)}`;
      item.tooltip = `Logbook: ${h.title}\n${h.promptTokens} prompt (${h.cachedTokens} cached) + ${h.completionTokens} completion${h.reasoningTokens ? ` (${h.reasoningTokens} reasoning)` : ''} tokens, ${formatCost(h.cost)}`;
    }
    item.show();
  };
  render(undefined);
  const subs = [
    service.onDidChangeHeader((h) => {
      if (h.id === service.activeId) render(h);
    }),
    service.onDidChangeActive((id) => render(id ? service.header(id) : undefined)),
  ];
  return vscode.Disposable.from(item, ...subs);
}
