// "Review Changes": every changed file against its baseline in one multi-file diff editor
// (`vscode.changes`), or one diff editor per file where that command does not exist.
import * as vscode from 'vscode';
import { displayPath } from '../ports/workspace-paths';

export interface ChangedResource {
  file: vscode.Uri;
  /** Baseline document; undefined for a file the agent created. */
  original: vscode.Uri | undefined;
  /** Shown on the left of a single diff when there is no original (an empty document). */
  empty: vscode.Uri;
}

/** The multi-file diff's title (a function: the bundle is read once the extension runs). */
export const changesTitle = (): string => vscode.l10n.t('Logbook: Agent Changes');

/** `title`: the tab's title (a task's review names the task); the agent's changes by default. */
export async function openChanges(
  resources: readonly ChangedResource[],
  title = changesTitle(),
): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  if (commands.includes('vscode.changes')) {
    const list = resources.map((r) => [r.file, r.original, r.file]);
    await vscode.commands.executeCommand('vscode.changes', title, list);
    return;
  }
  for (const r of resources) {
    const title = vscode.l10n.t('{0} (Logbook changes)', displayPath(r.file.fsPath));
    await vscode.commands.executeCommand('vscode.diff', r.original ?? r.empty, r.file, title, {
      preview: false,
    });
  }
}
