// Which external agent a new conversation runs (Logbook: Start Agent Task with…): one of the
// user's `logbook.acp.agents`, by argument or from a quick pick. An untrusted workspace starts none.
import * as vscode from 'vscode';
import { editorAgents } from './editor-agent';

export async function pickAgent(agentArg: unknown): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Logbook: this workspace is not trusted, so no external agent starts in it. Trust the workspace first.',
      ),
    );
    return undefined;
  }
  const agents = editorAgents();
  const names = Object.keys(agents);
  if (typeof agentArg === 'string' && agentArg) {
    if (Object.hasOwn(agents, agentArg)) return agentArg;
    throw new Error(
      vscode.l10n.t(
        'No agent "{0}" in your logbook.acp.agents ({1}).',
        agentArg,
        names.length ? names.join(', ') : vscode.l10n.t('it is empty'),
      ),
    );
  }
  if (names.length === 0) {
    const open = vscode.l10n.t('Open Settings');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Logbook: no external agents yet. Name one in logbook.acp.agents in your user settings: its command line, like an MCP server.',
      ),
      open,
    );
    if (choice === open)
      await vscode.commands.executeCommand('workbench.action.openSettings', 'logbook.acp.agents');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    names.map((name) => ({
      label: name,
      description: [agents[name]!.command, ...(agents[name]!.args ?? [])].join(' '),
    })),
    {
      title: vscode.l10n.t('Logbook: Start Agent Task with…'),
      placeHolder: vscode.l10n.t("Choose the agent that runs the task, in Logbook's sandbox"),
    },
  );
  return pick?.label;
}
