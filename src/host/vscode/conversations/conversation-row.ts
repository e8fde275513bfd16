// How a conversation reads in the Conversations view, where a 300 px sidebar shows about 35
// characters: what tells two rows apart (when it last changed, its status) comes first, the title
// after it, so two conversations with the same title are told apart without a hover. A worktree
// task's row is told apart by its name, which comes first and alone in its label.
// No `vscode` import: the wording is checked by unit tests; the tree passes vscode.l10n and the
// display language, so the words and the times are the user's.
import { ENGLISH, type L10n } from '../../../core/text/l10n';

export interface RowFacts {
  title: string | undefined;
  /** ISO time of its last event. */
  updated: string | undefined;
  status: string;
  interrupted?: string | undefined;
}

/** The words and the language (a BCP 47 tag such as VS Code's `zh-cn`) a row is said in. */
export interface RowLanguage {
  l10n: L10n;
  locale: string;
}

export const ENGLISH_ROWS: RowLanguage = { l10n: ENGLISH, locale: 'en' };

/** A status in words (each a literal, so the bundle finds it); an unknown one as it is named. */
export function statusText(status: string, l10n: L10n = ENGLISH): string {
  switch (status) {
    case 'running':
      return l10n.t('running');
    case 'waiting_for_confirmation':
      return l10n.t('waiting for approval');
    case 'paused':
      return l10n.t('paused');
    case 'finished':
      return l10n.t('finished');
    case 'error':
      return l10n.t('error');
    case 'stuck':
      return l10n.t('stuck');
    case 'idle':
      return l10n.t('idle');
    case 'stopped':
      return l10n.t('stopped');
    case 'escalated':
      return l10n.t('escalated');
    case 'not_ended':
      return l10n.t('not ended');
    default:
      return status.replace(/_/g, ' ');
  }
}

/** The locale if Intl knows how to read its tag, else English. */
export function usableLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/**
 * "14:05": today; "Nov 25 14:05" (zh-cn: "11月25日 14:05"): earlier this year; "2025-11-25": another
 * year. Always a 24-hour clock: it is the shortest in every language.
 */
export function shortWhen(iso: string | undefined, now: Date, locale = 'en'): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const tag = usableLocale(locale);
  const time = d.toLocaleTimeString(tag, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  if (d.toDateString() === now.toDateString()) return time;
  if (d.getFullYear() === now.getFullYear())
    return `${d.toLocaleDateString(tag, { month: 'short', day: 'numeric' })} ${time}`;
  return d.toISOString().slice(0, 10);
}

/** The row's status in words, interrupted or not. */
function statusOf(c: RowFacts, l10n: L10n): string {
  const word = statusText(c.status, l10n);
  return c.interrupted ? l10n.t('{0}, interrupted', word) : word;
}

/** The row's label (time, status, then the title) and its status in words (for the tooltip). */
export function conversationRow(
  c: RowFacts,
  now: Date,
  language: RowLanguage = ENGLISH_ROWS,
): { label: string; status: string } {
  const { l10n } = language;
  const status = statusOf(c, l10n);
  const when = shortWhen(c.updated, now, language.locale);
  const title = c.title?.trim() || l10n.t('New conversation');
  return { label: `${when ? `${when} · ` : ''}${status} · ${title}`, status };
}

/**
 * A worktree task's conversation row, as the Tasks view's row reads: the task's name is the label
 * (names are long, and it is the name that tells tasks apart, so nothing goes before it), then its
 * status, when it last changed and the task's words as the description.
 */
export function taskConversationRow(
  c: RowFacts & { name: string },
  now: Date,
  language: RowLanguage = ENGLISH_ROWS,
): { label: string; description: string; status: string } {
  const status = statusOf(c, language.l10n);
  const when = shortWhen(c.updated, now, language.locale);
  const words = c.title?.trim() ?? '';
  return { label: c.name, description: [status, when, words].filter((s) => s !== '').join(' · '), status };
}
