// Status bar item: the active conversation's status, tokens and cost; click to show the chat.
import * as vscode from 'vscode';
import type { ConversationHeader } from './chat-backend';
import type { ConversationService } from '../conversations/conversation-service';
import { formatTokens } from '../../../protocol/token-count';
import { formatCost } from '../../../core/format/counts';
import { statusText } from '../conversations/conversation-row';

export function createStatusBar(service: ConversationService): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('logbook.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Logbook';
  item.command = 'logbook.chat.focus';
  const render = (h: ConversationHeader | undefined) => {
    if (!h) {
      item.text = '$(book) Logbook';
      item.tooltip = vscode.l10n.t('Logbook: no conversation open');
    } else {
      const icon = h.planAwaitsApproval
        ? '$(checklist)'
        : h.status === 'running'
          ? '$(loading~spin)'
          : h.status === 'waiting_for_confirmation'
            ? '$(question)'
            : '$(book)';
      // The same counts, rounded and named the same way, as the chat header's.
      const tokens = vscode.l10n.t(
        '{0} in / {1} out',
        formatTokens(h.promptTokens),
        formatTokens(h.completionTokens),
      );
      const status = h.planAwaitsApproval
        ? vscode.l10n.t('plan awaits approval')
        : statusText(h.status, vscode.l10n);
      item.text = `${icon} ${status} · ${tokens} · ${formatCost(h.cost)}`;
      const counts = h.reasoningTokens
        ? vscode.l10n.t(
            '{0} prompt ({1} cached) + {2} completion ({3} reasoning) tokens, {4}',
            h.promptTokens,
            h.cachedTokens,
            h.completionTokens,
            h.reasoningTokens,
            formatCost(h.cost),
          )
        : vscode.l10n.t(
            '{0} prompt ({1} cached) + {2} completion tokens, {3}',
            h.promptTokens,
            h.cachedTokens,
            h.completionTokens,
            formatCost(h.cost),
          );
      item.tooltip = `Logbook: ${h.title}\n${counts}`;
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
