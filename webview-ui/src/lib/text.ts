// The chat's fixed words as the host gave them in the document (its display language, English where
// no translation exists): the bundle carries no words of its own.
// Read through globalThis: Node tests import the formatters that use these words, without a DOM.
import { fillText, readWebviewText, type WebviewTextKey } from '../../../src/protocol/webview-text';

type Page = {
  document?: {
    body?: { dataset?: Record<string, string | undefined> } | null;
    documentElement?: { lang?: string } | null;
  };
};

const page = (globalThis as Page).document;
const words = readWebviewText(page?.body?.dataset?.l10n);

/** Counts written the display language's way (digit groups); English when the language is unknown. */
let numbers: Intl.NumberFormat;
try {
  numbers = new Intl.NumberFormat(page?.documentElement?.lang || 'en-US');
} catch {
  numbers = new Intl.NumberFormat('en-US');
}

export function t(key: WebviewTextKey, ...args: (string | number)[]): string {
  return fillText(words[key] ?? key, ...args);
}

/** A count in the display language's digits: "1,024". */
export function count(n: number): string {
  return numbers.format(n);
}

/**
 * A phrase with a count: the `one` form for exactly one, `many` otherwise (the translation may make
 * both the same). The count fills `{0}`, the other arguments `{1}` on.
 */
export function tn(
  n: number,
  one: WebviewTextKey,
  many: WebviewTextKey,
  ...args: (string | number)[]
): string {
  return t(n === 1 ? one : many, count(n), ...args);
}
