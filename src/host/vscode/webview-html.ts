// The chat webview's document: a strict CSP with a per-load nonce, no inline script or style, no eval.
// `webviewDocument` is pure so the browser tests serve exactly this document (and CSP) too.
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { WebviewText } from '../../protocol/webview-text';

/** Where the app runs; the editor tab hides "Open in Editor". */
export type ChatSurface = 'sidebar' | 'editor';

export interface WebviewDocumentOptions {
  /** `webview.cspSource`: the origin allowed for styles, fonts and images. */
  cspSource: string;
  /** URL of a file in `dist/`. */
  asset: (name: string) => string;
  nonce: string;
  title: string;
  surface: ChatSurface;
  /** The chat's fixed words in the display language (English when absent). */
  l10n?: WebviewL10n;
  /** The demo model's tasks while it answers: the empty chat offers them from its first paint. */
  demoTasks?: readonly string[];
}

export interface WebviewL10n {
  /** VS Code's display language, e.g. `zh-cn`. */
  lang: string;
  text: WebviewText;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `connect-src 'none'`,
    `frame-src 'none'`,
    `form-action 'none'`,
    `base-uri 'none'`,
  ].join('; ');
}

const escapeAttr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function webviewDocument(o: WebviewDocumentOptions): string {
  const { asset, nonce } = o;
  return `<!DOCTYPE html>
<html lang="${escapeAttr(o.l10n?.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(o.cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(asset('codicon.css'))}">
<link rel="stylesheet" href="${escapeAttr(asset('webview.css'))}">
<title>${escapeAttr(o.title)}</title>
</head>
<body data-surface="${o.surface}"${o.l10n ? ` data-l10n="${escapeAttr(JSON.stringify(o.l10n.text))}"` : ''}${o.demoTasks?.length ? ` data-demo-tasks="${escapeAttr(JSON.stringify(o.demoTasks))}"` : ''}>
<div id="root"></div>
<script nonce="${nonce}" src="${escapeAttr(asset('webview.js'))}"></script>
</body>
</html>`;
}

export function renderWebviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  title: string,
  surface: ChatSurface = 'sidebar',
  l10n?: WebviewL10n,
  demoTasks?: readonly string[],
): string {
  return webviewDocument({
    cspSource: webview.cspSource,
    asset: (name) =>
      webview.asWebviewUri(extensionUri.with({ path: `${extensionUri.path}/dist/${name}` })).toString(),
    nonce: randomBytes(16).toString('base64'),
    title,
    surface,
    ...(l10n ? { l10n } : {}),
    ...(demoTasks?.length ? { demoTasks } : {}),
  });
}
