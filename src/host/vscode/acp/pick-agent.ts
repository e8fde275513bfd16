// Which external agent a new conversation runs (Logbook: Start Agent Task with…): one of the
// user's `logbook.acp.agents`, by argument or from a quick pick. An untrusted workspace starts none.
import * as vscode from 'vscode';
import { editorAgents } from './editor-agent';

export async function pickAgent(agentArg: unknown): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Logbook: no external agent starts in an untrusted workspace.'),
    );
    return undefined;
  }
  // A name given as an argument is checked when the agent starts (the error names the ones there are).
  if (typeof agentArg === 'string' && agentArg) return agentArg;
  const items = Object.entries(editorAgents()).map(([label, e]) => ({
    label,
    description: e.command,
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Logbook: Start Agent Task with…'),
    placeHolder: items.length
      ? vscode.l10n.t('Choose the agent')
      : vscode.l10n.t('No agents in logbook.acp.agents yet'),
  });
  return pick?.label;
}
