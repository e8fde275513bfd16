// The chat webview's document (built by html-page.ts): no inline script or style at all.
// `webviewDocument` is pure so the browser tests serve exactly this document (and CSP) too.
import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import { WEBVIEW_TEXT, type WebviewText } from '../../../protocol/webview-text';
import { htmlPage } from './html-page';

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
  /** The chat's fixed words in the display language (English when absent: the webview has none). */
  l10n?: WebviewL10n;
  /** The demo model's tasks while it answers: the empty chat offers them from its first paint. */
  demoTasks?: readonly string[];
}

export interface WebviewL10n {
  /** VS Code's display language, e.g. `zh-cn`. */
  lang: string;
  text: WebviewText;
}

export function webviewDocument(o: WebviewDocumentOptions): string {
  return htmlPage({
    csp: { cspSource: o.cspSource, nonce: o.nonce, images: true },
    lang: o.l10n?.lang ?? 'en',
    title: o.title,
    stylesheets: [o.asset('codicon.css'), o.asset('webview.css')],
    bodyAttributes: {
      'data-surface': o.surface,
      'data-l10n': JSON.stringify(o.l10n?.text ?? WEBVIEW_TEXT),
      ...(o.demoTasks?.length ? { 'data-demo-tasks': JSON.stringify(o.demoTasks) } : {}),
    },
    body: '<div id="root"></div>',
    script: { src: o.asset('webview.js') },
  });
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
