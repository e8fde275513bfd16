// Whether a log still holds every event its writer signed: judged against the head recorded outside
// the conversation's folder (head-record.ts). Without one (a copied, moved or imported folder, or a
// host that keeps none) nothing inside the folder can tell a cut tail from a shorter conversation.
import type { ChainSignature } from './chain';
import type { HeadRecord } from './head-record';
import { ENGLISH, type L10n } from '../text/l10n';

export type Completeness =
  /** every event the recorded head covers is here (and any after it is signed on top of it) */
  | { state: 'complete'; recorded: number }
  /** the log ends before the recorded head: `missing` signed events after event `after` are gone */
  | { state: 'truncated'; recorded: number; missing: number; after: number }
  /** the log reaches the recorded count, but its chain there is not the recorded head: rewritten */
  | { state: 'diverged'; recorded: number }
  /** no outside head applies: the check vouches only for the events present */
  | { state: 'unproven'; reason: string };

/**
 * `valid`: the signatures that hold, in order (what the chain vouches for); `signed`: how many
 * events they cover and the log holds intact.
 */
export function judgeCompleteness(
  rec: HeadRecord | null | 'unreadable',
  dir: string,
  valid: readonly ChainSignature[],
  signed: number,
): Completeness {
  if (rec === null)
    return {
      state: 'unproven',
      reason: 'no head of this conversation is recorded outside its folder (a copied or imported folder)',
    };
  if (rec === 'unreadable')
    return { state: 'unproven', reason: 'the head recorded outside its folder is unreadable' };
  if (rec.dir !== dir)
    return { state: 'unproven', reason: `the head recorded outside its folder is of ${rec.dir}` };
  if (signed < rec.count)
    return { state: 'truncated', recorded: rec.count, missing: rec.count - signed, after: signed - 1 };
  const at = valid.find((s) => s.count === rec.count);
  if (at?.head !== rec.head) return { state: 'diverged', recorded: rec.count };
  return { state: 'complete', recorded: rec.count };
}

/** "truncated: 32 events missing after event 19" */
export function truncatedText(
  c: Extract<Completeness, { state: 'truncated' }>,
  l10n: L10n = ENGLISH,
): string {
  const n = c.missing.toLocaleString('en-US');
  const after = c.after.toLocaleString('en-US');
  if (c.after < 0)
    return c.missing === 1
      ? l10n.t('truncated: all 1 signed event missing')
      : l10n.t('truncated: all {0} signed events missing', n);
  return c.missing === 1
    ? l10n.t('truncated: 1 event missing after event {0}', after)
    : l10n.t('truncated: {0} events missing after event {1}', n, after);
}
