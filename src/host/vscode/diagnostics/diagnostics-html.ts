// The Diagnostics view's document: the report as headings and rows that wrap in a narrow sidebar,
// in the theme's colours, with buttons that post one of three messages. Pure, so the escaping can
// be tested without a webview. Strict CSP: the one style and script carry the load's nonce.
import {
  type DiagnosticsReport,
  type DiagnosticStatus,
  sectionStatus,
  statusWord,
} from '../../../core/diagnostics/report';
import { escapeHtml } from '../../../core/text/html-escape';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
import { htmlPage } from '../chat/html-page';

export type DiagnosticsRequest = 'refresh' | 'copy' | 'cleanUp';

export function isDiagnosticsRequest(m: unknown): m is { type: DiagnosticsRequest } {
  const type = (m as { type?: unknown } | null)?.type;
  return type === 'refresh' || type === 'copy' || type === 'cleanUp';
}

export interface DiagnosticsPage {
  report: DiagnosticsReport | undefined;
  /** Conversations whose checkpoints a clean-up would release. */
  oldCount: number;
  cspSource: string;
  codiconCss: string;
  nonce: string;
  /** The page's words: `vscode.l10n` in the editor. */
  l10n?: L10n;
  /** The display language, e.g. `zh-cn`. */
  lang?: string;
}

const esc = escapeHtml;

const CODICON: Record<DiagnosticStatus, string> = {
  ok: 'pass',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

function icon(status: DiagnosticStatus, l10n: L10n): string {
  return `<span class="codicon codicon-${CODICON[status]} ${status}" role="img" aria-label="${esc(statusWord(status, l10n))}"></span>`;
}

function body(p: DiagnosticsPage, l10n: L10n): string {
  if (!p.report) return `<p class="muted" role="status">${esc(l10n.t('Checking…'))}</p>`;
  const sections = p.report.sections.map((s) => {
    const rows = s.rows
      .map(
        (
          r,
        ) => `<li class="row">${icon(r.status, l10n)}<div><span class="label">${esc(l10n.t('{0}:', r.label))}</span>
<span class="value">${esc(r.value)}</span>${r.fix ? `<p class="fix">${esc(l10n.t('Fix: {0}', r.fix))}</p>` : ''}</div></li>`,
      )
      .join('\n');
    const cleanUp =
      s.id === 'storage'
        ? `<button type="button" data-request="cleanUp"${p.oldCount ? '' : ' disabled'}>${esc(l10n.t('Clean Up Old Checkpoints…'))}</button>`
        : '';
    return `<section aria-labelledby="h-${s.id}"><h2 id="h-${s.id}">${icon(sectionStatus(s), l10n)} ${esc(s.title)}</h2>
<ul>${rows}</ul>${cleanUp}</section>`;
  });
  return sections.join('\n');
}

const STYLE = `body { padding: 4px 12px 12px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
h2 { font-size: 1em; font-weight: 600; margin: 14px 0 4px; display: flex; gap: 6px; align-items: center; }
ul { list-style: none; margin: 0; padding: 0; }
.row { display: flex; gap: 6px; padding: 3px 0; align-items: flex-start; }
.row .codicon { margin-top: 2px; flex: none; }
.row > div { min-width: 0; overflow-wrap: anywhere; }
.label { font-weight: 600; }
.fix { margin: 2px 0 0; color: var(--vscode-descriptionForeground); }
.muted { color: var(--vscode-descriptionForeground); }
.ok { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.info { color: var(--vscode-descriptionForeground); }
.warning { color: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
.error { color: var(--vscode-errorForeground); }
.actions { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
button { font: inherit; padding: 3px 10px; border-radius: 2px; cursor: pointer; margin-top: 6px;
  color: var(--vscode-button-foreground); background: var(--vscode-button-background);
  border: 1px solid var(--vscode-button-border, transparent); }
button:hover:not(:disabled) { background: var(--vscode-button-hoverBackground); }
button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
button:disabled { opacity: 0.5; cursor: default; }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }`;

const SCRIPT = `const vscode = acquireVsCodeApi();
document.addEventListener('click', (e) => {
  const b = e.target instanceof Element ? e.target.closest('button[data-request]') : null;
  if (b && !b.disabled) vscode.postMessage({ type: b.dataset.request });
});`;

export function diagnosticsHtml(p: DiagnosticsPage): string {
  const l10n = p.l10n ?? ENGLISH;
  return htmlPage({
    csp: { cspSource: p.cspSource, nonce: p.nonce, inlineStyle: true },
    lang: p.lang ?? 'en',
    title: l10n.t('Logbook Diagnostics'),
    stylesheets: [p.codiconCss],
    style: STYLE,
    body: `<main aria-label="${esc(l10n.t('Logbook diagnostics'))}">
<p class="muted">${esc(l10n.t('The first place to look when something does not work.'))}</p>
<div class="actions"><button type="button" data-request="refresh">${esc(l10n.t('Check Again'))}</button><button type="button" class="secondary" data-request="copy"${p.report ? '' : ' disabled'}>${esc(l10n.t('Copy as Text'))}</button></div>
${body(p, l10n)}
</main>`,
    script: { inline: SCRIPT },
  });
}
