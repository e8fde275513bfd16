// Logbook: Show Sandbox Status, and the one warning per window when no sandbox can start.
import * as vscode from 'vscode';
import { describeSandbox, type SandboxState, sandboxReportText } from '../../node/sandbox';
import { createEditorSandbox } from './editor-sandbox';

export const SHOW_SANDBOX_STATUS = 'logbook.showSandboxStatus';

/** The report for the window's folders, with the settings as they are now. */
export function sandboxStatusText(context: vscode.ExtensionContext): string {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const { sandbox } = createEditorSandbox(context);
  return sandboxReportText(sandbox.report(folders, vscode.l10n), vscode.l10n);
}

export function registerSandboxStatus(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_SANDBOX_STATUS, async () => {
    const text = sandboxStatusText(context);
    const doc = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: true });
    return text;
  });
}

/** Warns once per window when commands cannot be sandboxed (a choice of "off" is not warned about). */
export class SandboxWarning {
  private shown = false;

  maybeWarn(state: SandboxState): void {
    if (this.shown || state.kind !== 'unavailable') return;
    this.shown = true;
    const text = describeSandbox(state, vscode.l10n);
    const show = vscode.l10n.t('Show Sandbox Status');
    void vscode.window
      .showWarningMessage(
        text.fix
          ? vscode.l10n.t('Logbook: {0} Fix: {1}', text.headline, text.fix)
          : vscode.l10n.t('Logbook: {0}', text.headline),
        show,
      )
      .then((choice) => {
        if (choice === show) void vscode.commands.executeCommand(SHOW_SANDBOX_STATUS);
      });
  }
}
