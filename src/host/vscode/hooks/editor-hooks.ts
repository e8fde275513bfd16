// The hooks of the editor's conversations: the user's `logbook.hooks` (read as every setting that
// guards the user: a workspace's value only once accepted), and the repository's hook files only in
// a trusted workspace and once the user accepted them as they are now. An unaccepted file is asked
// about, by its command lines in a modal question, when a run is about to start (not when a
// conversation is only opened to be read). Declined, the run is refused, as the CLI refuses it: a
// team's checks are never silently skipped, and a cloned repository's programs never run unseen.
import * as vscode from 'vscode';
import type { ConfiguredHook } from '../../../core/hooks/hook-config';
import { acceptHooks, isAccepted } from '../../node/hooks/accepted-hooks';
import { describeRepositoryHooks, type RepositoryHooks } from '../../node/hooks/hook-sources';
import { hooksInEffect } from '../../node/hooks/hooks-in-effect';
import { editorSetting } from '../settings/config';

export interface EditorHooks {
  /** The hooks in effect; a repository file's join it once the user accepts them. */
  readonly list: ConfiguredHook[];
  /** Whether a repository file waits for the user's answer (its hooks must run before any run). */
  readonly waiting: boolean;
  /** Before a run: asks about the files not accepted yet; null when the run may start, else why not. */
  beforeRun(): Promise<string | null>;
}

/**
 * The hooks a conversation in `workspace` runs, read as it opens (a changed file asks again in
 * the next one). A hook setting or file that does not fit the schema is an error with its place.
 */
export function editorHooks(workspace: string): EditorHooks {
  const found = hooksInEffect({
    workspace,
    env: process.env,
    user: editorSetting<unknown>('hooks'),
    trusted: vscode.workspace.isTrusted,
  });
  const list = [...found.hooks];
  let unaccepted = [...found.unaccepted];
  const join = (r: RepositoryHooks) => {
    list.push(...r.hooks);
    unaccepted = unaccepted.filter((u) => u !== r);
  };
  return {
    list,
    get waiting() {
      return unaccepted.length > 0;
    },
    async beforeRun() {
      for (const r of [...unaccepted]) {
        // Accepted since (`logbook hooks accept`, another conversation): nothing to ask.
        if (isAccepted(process.env, workspace, r)) {
          join(r);
          continue;
        }
        const accept = vscode.l10n.t('Run These Hooks');
        // A question that cannot be shown (a window without dialogs) is no answer: not accepted.
        const answer = await vscode.window
          .showWarningMessage(
            vscode.l10n.t('This repository has hooks that would run as you, outside the sandbox. Run them?'),
            { modal: true, detail: describeRepositoryHooks(r) },
            accept,
          )
          .then(
            (a) => a,
            () => undefined,
          );
        if (answer !== accept)
          return vscode.l10n.t(
            "The repository's hooks in {0} were not accepted, so the agent did not run (their checks would be skipped). Try again to be asked again, or run `logbook hooks accept` in the workspace.",
            r.origin,
          );
        acceptHooks(process.env, workspace, r);
        join(r);
      }
      return null;
    },
  };
}
