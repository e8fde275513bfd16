// The chat's fixed words in the editor's display language: each English text of WEBVIEW_TEXT looked
// up in the extension's l10n bundle (l10n/bundle.l10n.LANG.json), English where it has none.
import * as vscode from 'vscode';
import { WEBVIEW_TEXT, type WebviewText, type WebviewTextKey } from '../../../protocol/webview-text';
import type { WebviewL10n } from './webview-html';

export function localizedWebviewText(): WebviewText {
  const bundle = vscode.l10n.bundle ?? {};
  const out = { ...WEBVIEW_TEXT } as WebviewText;
  for (const key of Object.keys(WEBVIEW_TEXT) as WebviewTextKey[]) {
    const translated = bundle[WEBVIEW_TEXT[key]];
    if (typeof translated === 'string' && translated) out[key] = translated;
  }
  return out;
}

/** What the chat's document carries: the display language and the words in it. */
export function webviewL10n(): WebviewL10n {
  return { lang: vscode.env.language, text: localizedWebviewText() };
}
