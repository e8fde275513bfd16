// The hooks of the editor's conversations: the user's `logbook.hooks` (read as every setting that
// guards the user: a workspace's value only once accepted), and the repository's hook files only in
// a trusted workspace and once the user accepted them as they are now. An unaccepted file is shown
// by its command lines in a modal question (once per content in a window); declined, its hooks do
// not run and the notice says how to accept them later.
import * as vscode from 'vscode';
import type { ConfiguredHook } from '../../../core/hooks/hook-config';
import { acceptHooks } from '../../node/hooks/accepted-hooks';
import { describeRepositoryHooks } from '../../node/hooks/hook-sources';
import { hooksInEffect } from '../../node/hooks/hooks-in-effect';
import { editorSetting } from '../settings/config';

/** The fingerprints asked about in this window: one question per content, not one per session. */
const asked = new Set<string>();

/**
 * The hooks a conversation in `workspace` runs now; asks about unaccepted repository hooks first.
 * A hook setting or file that does not fit the schema is an error with its place and problem.
 */
export async function editorHooks(workspace: string): Promise<ConfiguredHook[]> {
  const found = hooksInEffect({
    workspace,
    env: process.env,
    user: editorSetting<unknown>('hooks'),
    trusted: vscode.workspace.isTrusted,
  });
  const hooks = [...found.hooks];
  for (const r of found.unaccepted) {
    const key = `${workspace}\n${r.origin}\n${r.fingerprint}`;
    if (asked.has(key)) continue;
    asked.add(key);
    const accept = vscode.l10n.t('Run These Hooks');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('This repository has hooks that would run as you, outside the sandbox. Run them?'),
      { modal: true, detail: describeRepositoryHooks(r) },
      accept,
    );
    if (answer !== accept) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'The hooks in {0} do not run. Open a new conversation to be asked again, or run `logbook hooks accept` in the workspace.',
          r.origin,
        ),
      );
      continue;
    }
    acceptHooks(process.env, workspace, r);
    hooks.push(...r.hooks);
  }
  return hooks;
}
