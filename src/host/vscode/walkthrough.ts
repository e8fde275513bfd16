// The getting-started walkthrough (package.json, contributes.walkthroughs): Logbook: Get Started
// opens it, and so does the first activation after an install, once (remembered in globalState).
// Development and test hosts are left alone: they start from a fresh profile every time, and a
// walkthrough opening over them would take the focus their tests expect.
import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'logbook.logbook-agent#logbook.gettingStarted';
/** Set once the walkthrough was opened on first install. */
export const WALKTHROUGH_SHOWN_KEY = 'logbook.walkthroughShown';

/** The label VS Code gives the walkthrough's tab (after the extension's display name). */
export const WALKTHROUGH_TAB = 'Walkthrough: Logbook';

/**
 * Opens the walkthrough. VS Code reads an extension's walkthroughs a few seconds after the window
 * starts (it first waits up to 5 s for an experiment service); asked before that, it shows another
 * walkthrough or its Welcome page instead and keeps that open on the next request. So a tab of its
 * own in place of ours is closed and ours asked for again, for up to `patienceMs`.
 */
export async function openWalkthrough(patienceMs = 20_000): Promise<boolean> {
  const end = Date.now() + patienceMs;
  for (;;) {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
    await sleep(300);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (!tab || tab.label === WALKTHROUGH_TAB) return true;
    if (Date.now() > end) return false;
    if (/^(Walkthrough: |Welcome$)/.test(tab.label)) await vscode.window.tabGroups.close(tab);
    await sleep(700);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens the walkthrough unless `state` says it was opened before; true when it opened it now. */
export async function openWalkthroughOnce(
  state: vscode.Memento,
  open: () => Thenable<unknown> = () => openWalkthrough(),
): Promise<boolean> {
  if (state.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return false;
  // Remembered first: a window that closes while it opens must not open it again next time.
  await state.update(WALKTHROUGH_SHOWN_KEY, true);
  void Promise.resolve(open()).catch(() => undefined);
  return true;
}

export function registerWalkthrough(context: vscode.ExtensionContext): vscode.Disposable[] {
  if (context.extensionMode === vscode.ExtensionMode.Production) {
    void openWalkthroughOnce(context.globalState).catch(() => undefined);
  }
  return [vscode.commands.registerCommand('logbook.getStarted', () => openWalkthrough())];
}
