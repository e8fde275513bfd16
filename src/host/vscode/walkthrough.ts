// The getting-started walkthrough (package.json, contributes.walkthroughs): Logbook: Get Started
// opens it, and so does the first activation after an install, once (remembered in globalState).
// Development and test hosts are left alone: they start from a fresh profile every time, and a
// walkthrough opening over them would take the focus their tests expect.
import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'logbook.logbook-agent#logbook.gettingStarted';
/** Set once the walkthrough was opened on first install. */
export const WALKTHROUGH_SHOWN_KEY = 'logbook.walkthroughShown';

export function openWalkthrough(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
}

/**
 * VS Code reads an extension's walkthroughs a few seconds after the window starts (it first waits up
 * to 5 s for its experiment service); asked before that, it shows another walkthrough instead.
 */
const REGISTRATION_DELAY_MS = 6_000;

/**
 * Opens the walkthrough on the first activation, unless the user is already in Logbook's chat: they
 * have found the way in, and the walkthrough's page takes the focus as it renders (an open palette or
 * prompt would close under their typing). Either way it is remembered in `state`, so it happens once.
 */
export async function openWalkthroughOnce(
  state: vscode.Memento,
  chatInView: () => boolean,
  open: () => Thenable<unknown> = openWalkthrough,
): Promise<'opened' | 'not opened: the chat is in view' | 'shown before'> {
  if (state.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return 'shown before';
  // Remembered first: a window that closes while it opens must not open it again next time.
  await state.update(WALKTHROUGH_SHOWN_KEY, true);
  if (chatInView()) return 'not opened: the chat is in view';
  void Promise.resolve(open()).catch(() => undefined);
  return 'opened';
}

export function registerWalkthrough(
  context: vscode.ExtensionContext,
  chatInView: () => boolean,
): vscode.Disposable[] {
  const disposables = [vscode.commands.registerCommand('logbook.getStarted', () => openWalkthrough())];
  if (context.extensionMode === vscode.ExtensionMode.Production) {
    const timer = setTimeout(
      () => void openWalkthroughOnce(context.globalState, chatInView).catch(() => undefined),
      REGISTRATION_DELAY_MS,
    );
    disposables.push({ dispose: () => clearTimeout(timer) });
  }
  return disposables;
}
