// The chat's fixed words as the host gave them in the document (its display language), else English.
// Read through globalThis: Node tests import the formatters that use these words, without a DOM.
import { fillText, readWebviewText, type WebviewTextKey } from '../../../src/protocol/webview-text';

type Page = { document?: { body?: { dataset?: Record<string, string | undefined> } | null } };

const words = readWebviewText((globalThis as Page).document?.body?.dataset?.l10n);

export function t(key: WebviewTextKey, ...args: (string | number)[]): string {
  return fillText(words[key], ...args);
}
