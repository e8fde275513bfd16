// Moves values still under a setting's old key (logbook.llm.* before the model's settings became
// logbook.model.*) to the new key, at the same scope: the user's, the workspace's or a folder's.
// Run at activation and whenever the settings change (Settings Sync or a pasted settings.json
// can bring old keys back later). A value is never dropped: when the new key is set there too
// with another value, the old one stays and the log says it is ignored.
import * as vscode from 'vscode';
import { RENAMED_SETTINGS } from '../../../core/settings/renamed';
import { SETTINGS_BY_KEY } from '../../../core/settings';
import { type SettingScope, settingAt, settingScopes, writeSettingAt } from './config';

export interface RenamedSettingsReport {
  /** `logbook.OLD → logbook.NEW (scope)`, one per value moved. */
  moved: string[];
  /** Old keys left in place: the new key holds another value at that scope. */
  ignored: string[];
  /** Old keys that could not be moved or removed, with VS Code's reason. */
  failed: string[];
}

function scopeName(scope: SettingScope): string {
  return scope.kind === 'folder' ? `folder ${scope.folder.name}` : scope.kind;
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export async function moveRenamedSettings(): Promise<RenamedSettingsReport> {
  const report: RenamedSettingsReport = { moved: [], ignored: [], failed: [] };
  for (const [oldKey, newKey] of RENAMED_SETTINGS) {
    // Only settings of the editor: the API key, for one, was never a VS Code setting.
    if (!SETTINGS_BY_KEY.get(newKey)?.hosts.includes('vscode')) continue;
    for (const scope of settingScopes()) {
      const old = settingAt(oldKey, scope);
      if (old === undefined) continue;
      const current = settingAt(newKey, scope);
      const what = `logbook.${oldKey} → logbook.${newKey} (${scopeName(scope)})`;
      if (current !== undefined && !sameValue(current, old)) {
        report.ignored.push(what);
        continue;
      }
      try {
        if (current === undefined) await writeSettingAt(newKey, old, scope);
        await writeSettingAt(oldKey, undefined, scope);
        report.moved.push(what);
      } catch (err) {
        report.failed.push(`${what}: ${(err as Error).message}`);
      }
    }
  }
  return report;
}

/** The one line the log gets about a pass that found old keys; none when there were none. */
export function renamedSettingsNotice(report: RenamedSettingsReport): string | undefined {
  const parts = [
    report.moved.length > 0 ? `moved to their new names: ${report.moved.join(', ')}` : '',
    report.ignored.length > 0
      ? `ignored, as the new name holds another value (remove the old one): ${report.ignored.join(', ')}`
      : '',
    report.failed.length > 0 ? `could not be moved: ${report.failed.join('; ')}` : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? `Settings under old names ${parts.join('; ')}.` : undefined;
}

/**
 * Moves old keys now and after each change of Logbook's settings, one pass at a time (a pass's
 * own writes change the settings again, and find nothing left to move).
 */
export function watchRenamedSettings(log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>): {
  first: Promise<void>;
  disposable: vscode.Disposable;
} {
  let last: RenamedSettingsReport | undefined;
  let queue = Promise.resolve();
  const pass = () => {
    queue = queue
      .then(async () => {
        const report = await moveRenamedSettings();
        // An old key left in place is told once, not at every change of the settings.
        if (last && report.moved.length === 0 && report.failed.length === 0 && sameValue(report, last))
          return;
        last = report;
        const notice = renamedSettingsNotice(report);
        if (!notice) return;
        if (report.failed.length > 0 || report.ignored.length > 0) log.warn(notice);
        else log.info(notice);
      })
      .catch((err: unknown) => log.warn(`Could not look for settings under old names: ${String(err)}`));
    return queue;
  };
  const first = pass();
  const disposable = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('logbook')) void pass();
  });
  return { first, disposable };
}
