// The chat's fixed words as the host gave them in the document (its display language), else English.
import { fillText, readWebviewText, type WebviewTextKey } from '../../../src/protocol/webview-text';

const words = readWebviewText(typeof document === 'undefined' ? undefined : document.body?.dataset.l10n);

export function t(key: WebviewTextKey, ...args: (string | number)[]): string {
  return fillText(words[key], ...args);
}
