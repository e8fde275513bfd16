// Words the core and the Node host make for people, said through the translator their host gives.
// The CLI speaks English (ENGLISH); the editor passes `vscode.l10n`, which looks each message up in
// its bundle. A message is its English text with numbered holes (`{0}`), written as a literal at the
// `l10n.t(…)` call, so that `npm run l10n:bundle` finds it as it finds the extension's own.
// Text that goes into the log or to the model is never translated: only what a person reads.

export type L10nArg = string | number | boolean;

export interface L10n {
  t(message: string, ...args: L10nArg[]): string;
}

/** Fills the holes; a hole without an argument stays as written. */
export function fillHoles(message: string, args: readonly L10nArg[]): string {
  return message.replace(/\{(\d+)\}/g, (hole, i: string) => {
    const arg = args[Number(i)];
    return arg === undefined ? hole : String(arg);
  });
}

/** The messages as written. */
export const ENGLISH: L10n = { t: (message, ...args) => fillHoles(message, args) };

/**
 * An error a person reads: its message is the English, and a host that shows it says it again in
 * its own words (`errorText`). The words are a function so that its holes are filled either way.
 */
export class WordedError extends Error {
  constructor(private readonly words: (l10n: L10n) => string) {
    super(words(ENGLISH));
    this.name = 'WordedError';
  }

  say(l10n: L10n): string {
    return this.words(l10n);
  }
}

/** What to show of an error: a WordedError in the host's words, any other as its message. */
export function errorText(err: unknown, l10n: L10n = ENGLISH): string {
  if (err instanceof WordedError) return err.say(l10n);
  return err instanceof Error ? err.message : String(err);
}
