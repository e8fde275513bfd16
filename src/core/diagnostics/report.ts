// The diagnostics report: what `logbook doctor` prints and Logbook: Show Diagnostics shows, in one
// shape so both say the same thing. Each section has rows; a row's status says whether it needs
// the user's attention, and its fix what to do about it.

export type DiagnosticStatus = 'ok' | 'warning' | 'error' | 'info';

export interface DiagnosticRow {
  label: string;
  value: string;
  status: DiagnosticStatus;
  /** What to do about a warning or an error. */
  fix?: string;
}

export type DiagnosticSectionId = 'sandbox' | 'model' | 'mcp' | 'signing' | 'storage';

export interface DiagnosticSection {
  id: DiagnosticSectionId;
  title: string;
  rows: DiagnosticRow[];
}

export interface DiagnosticsReport {
  sections: DiagnosticSection[];
}

export const SECTION_TITLES: Record<DiagnosticSectionId, string> = {
  sandbox: 'Sandbox',
  model: 'Model',
  mcp: 'MCP servers',
  signing: 'Signing identity',
  storage: 'Storage',
};

export function section(id: DiagnosticSectionId, rows: DiagnosticRow[]): DiagnosticSection {
  return { id, title: SECTION_TITLES[id], rows };
}

/** The worst status of a section's rows: an error, else a warning, else ok (`info` rows are neutral). */
export function sectionStatus(s: DiagnosticSection): DiagnosticStatus {
  const has = (status: DiagnosticStatus) => s.rows.some((r) => r.status === status);
  if (has('error')) return 'error';
  if (has('warning')) return 'warning';
  return has('ok') ? 'ok' : 'info';
}

const MARK: Record<DiagnosticStatus, string> = { ok: 'ok  ', info: 'info', warning: 'WARN', error: 'FAIL' };

const WORD: Record<DiagnosticStatus, string> = {
  ok: 'ok',
  info: 'nothing to check',
  warning: 'needs attention',
  error: 'not working',
};

/** Plain text, one line per row, for the terminal and for pasting into a bug report. */
export function diagnosticsText(report: DiagnosticsReport): string {
  const lines: string[] = [];
  for (const s of report.sections) {
    if (lines.length) lines.push('');
    lines.push(`${s.title}: ${WORD[sectionStatus(s)]}`);
    for (const r of s.rows) {
      lines.push(`  ${MARK[r.status]} ${r.label}: ${r.value}`);
      if (r.fix) lines.push(`       fix: ${r.fix}`);
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
