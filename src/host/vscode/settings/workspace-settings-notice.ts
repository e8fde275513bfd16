// A workspace (or an agent's edit to its .vscode/settings.json) that sets a setting guarding the
// user is told about, once per value: a warning naming the setting, a line in the Logbook output,
// and rows in Show Diagnostics. The value stays unused until the user picks "Use this workspace's
// value for logbook.KEY" (or runs Logbook: Use a Workspace Setting), which accepts that value only.
import * as vscode from 'vscode';
import { shownValue, valueText } from '../../../core/settings';
import type { DiagnosticRow } from '../../../core/diagnostics/report';
import {
  acceptWorkspaceValue,
  forgetRemovedAcceptances,
  type IgnoredWorkspaceValue,
  ignoredWorkspaceValues,
} from './config';

export const ACCEPT_WORKSPACE_SETTING_COMMAND = 'logbook.acceptWorkspaceSetting';

type Log = Pick<vscode.LogOutputChannel, 'info' | 'warn'>;

function where(v: IgnoredWorkspaceValue): string {
  return v.layer === 'folder'
    ? vscode.l10n.t("a folder's settings")
    : vscode.l10n.t("the workspace's settings");
}

/** The line of the output and of Show Diagnostics about one ignored value. */
function ignoredLine(v: IgnoredWorkspaceValue): string {
  return v.machine
    ? vscode.l10n.t(
        'logbook.{0} = {1} in {2} is ignored: a machine setting, only your user settings count.',
        v.key,
        shownValue(v.value),
        where(v),
      )
    : vscode.l10n.t(
        "logbook.{0} = {1} in {2} is ignored: this setting guards you, so only your own settings count until you accept this workspace's value.",
        v.key,
        shownValue(v.value),
        where(v),
      );
}

/** Rows for Show Diagnostics: one per ignored value, with how to accept it. */
export function ignoredSettingsRows(): DiagnosticRow[] {
  const ignored = ignoredWorkspaceValues();
  if (ignored.length === 0) {
    return [
      {
        label: vscode.l10n.t('Workspace settings'),
        value: vscode.l10n.t('none ignored'),
        status: 'ok',
      },
    ];
  }
  return ignored.map((v) => ({
    label: `logbook.${v.key}`,
    value: ignoredLine(v),
    status: 'warning',
    ...(v.machine ? {} : { fix: vscode.l10n.t('Run Logbook: Use a Workspace Setting to use this value.') }),
  }));
}

/** Accepts the workspace's value of `key`, saying so; asks which one when no key is given. */
export async function acceptWorkspaceSetting(log: Log, key?: unknown): Promise<boolean> {
  let chosen = typeof key === 'string' ? key.replace(/^logbook\./, '') : undefined;
  if (chosen === undefined) {
    const open = ignoredWorkspaceValues().filter((v) => !v.machine);
    if (open.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook ignores no setting of this workspace.'),
      );
      return false;
    }
    const pick = await vscode.window.showQuickPick(
      open.map((v) => ({ label: `logbook.${v.key}`, description: shownValue(v.value), key: v.key })),
      {
        placeHolder: vscode.l10n.t(
          'Which workspace setting should Logbook use? (Your own value stays in your settings.)',
        ),
      },
    );
    if (!pick) return false;
    chosen = pick.key;
  }
  const taken = await acceptWorkspaceValue(chosen);
  for (const v of taken)
    log.info(`Accepted by the user: logbook.${v.key} = ${shownValue(v.value)} from ${v.layer} settings.`);
  return taken.length > 0;
}

/**
 * Tells about ignored workspace values now and after each change of Logbook's settings: each value
 * once per window (a changed value is a new one, and is told again). An accepted value the
 * workspace no longer sets is forgotten.
 */
export function watchIgnoredWorkspaceSettings(log: Log): vscode.Disposable {
  const told = new Set<string>();
  const pass = () => {
    void forgetRemovedAcceptances().catch((err: unknown) =>
      log.warn(`Could not update the accepted workspace settings: ${String(err)}`),
    );
    const ignored = ignoredWorkspaceValues();
    const id = (v: IgnoredWorkspaceValue) => `${v.layer}\n${v.key}\n${valueText(v.value)}`;
    // A value removed and written again is told again.
    const now = new Set(ignored.map(id));
    for (const old of told) if (!now.has(old)) told.delete(old);
    for (const v of ignored) {
      if (told.has(id(v))) continue;
      told.add(id(v));
      log.warn(ignoredLine(v));
      if (v.machine) continue;
      const use = vscode.l10n.t("Use this workspace's value for logbook.{0}", v.key);
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t(
            "This workspace's settings set logbook.{0} to {1}. It guards you (what asks first, where your API key goes, what runs), so Logbook ignores it and keeps your own.",
            v.key,
            shownValue(v.value),
          ),
          use,
        )
        .then(async (answer) => {
          // Accepts the value the notice named, not one the file holds by now.
          const same = ignoredWorkspaceValues().some(
            (w) => w.key === v.key && w.layer === v.layer && valueText(w.value) === valueText(v.value),
          );
          if (answer === use && same) await acceptWorkspaceSetting(log, v.key);
        });
    }
  };
  pass();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('logbook')) pass();
  });
}
