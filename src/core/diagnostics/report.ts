// The diagnostics report: what `logbook doctor` prints and Logbook: Show Diagnostics shows, in one
// shape so both say the same thing. Each section has rows; a row's status says whether it needs
// the user's attention, and its fix what to do about it.

import { ENGLISH, type L10n } from '../text/l10n';

export type DiagnosticStatus = 'ok' | 'warning' | 'error' | 'info';

export interface DiagnosticRow {
  label: string;
  value: string;
  status: DiagnosticStatus;
  /** What to do about a warning or an error. */
  fix?: string;
}

export type DiagnosticSectionId = 'sandbox' | 'settings' | 'model' | 'mcp' | 'signing' | 'storage';

export interface DiagnosticSection {
  id: DiagnosticSectionId;
  title: string;
  rows: DiagnosticRow[];
}

export interface DiagnosticsReport {
  sections: DiagnosticSection[];
}

/** A section's title in the host's words (each a literal, so the bundle finds it). */
export function sectionTitle(id: DiagnosticSectionId, l10n: L10n = ENGLISH): string {
  switch (id) {
    case 'sandbox':
      return l10n.t('Sandbox');
    case 'settings':
      return l10n.t('Workspace settings');
    case 'model':
      return l10n.t('Model');
    case 'mcp':
      return l10n.t('MCP servers');
    case 'signing':
      return l10n.t('Signing identity');
    case 'storage':
      return l10n.t('Storage');
  }
}

export function section(
  id: DiagnosticSectionId,
  rows: DiagnosticRow[],
  l10n: L10n = ENGLISH,
): DiagnosticSection {
  return { id, title: sectionTitle(id, l10n), rows };
}

/** The worst status of a section's rows: an error, else a warning, else ok (`info` rows are neutral). */
export function sectionStatus(s: DiagnosticSection): DiagnosticStatus {
  const has = (status: DiagnosticStatus) => s.rows.some((r) => r.status === status);
  if (has('error')) return 'error';
  if (has('warning')) return 'warning';
  return has('ok') ? 'ok' : 'info';
}

const MARK: Record<DiagnosticStatus, string> = { ok: 'ok  ', info: 'info', warning: 'WARN', error: 'FAIL' };

/** A status in words: the section's verdict in the text, the icon's name in the view. */
export function statusWord(status: DiagnosticStatus, l10n: L10n = ENGLISH): string {
  switch (status) {
    case 'ok':
      return l10n.t('ok');
    case 'info':
      return l10n.t('nothing to check');
    case 'warning':
      return l10n.t('needs attention');
    case 'error':
      return l10n.t('not working');
  }
}

/**
 * Plain text, one line per row, for the terminal and for pasting into a bug report. The marks
 * (`ok`, `WARN`, `FAIL`) stay as they are in every language, so a pasted report can be searched.
 */
export function diagnosticsText(report: DiagnosticsReport, l10n: L10n = ENGLISH): string {
  const lines: string[] = [];
  for (const s of report.sections) {
    if (lines.length) lines.push('');
    lines.push(`${s.title}: ${statusWord(sectionStatus(s), l10n)}`);
    for (const r of s.rows) {
      lines.push(`  ${MARK[r.status]} ${r.label}: ${r.value}`);
      if (r.fix) lines.push(`       ${l10n.t('fix: {0}', r.fix)}`);
    }
  }
  return lines.join('\n');
}

/** Whether anything in the report is an error (the CLI's exit code). */
export function hasErrors(report: DiagnosticsReport): boolean {
  return report.sections.some((s) => sectionStatus(s) === 'error');
}

/** Bytes in the units people read. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}
