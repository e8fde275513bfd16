// The words `logbook verify` and the editor use for a verification result, and the verdict both
// report: broken, truncated, signed by an unknown signer, unsigned, or verified (by you or a known
// signer). Who is "you" and who is known is the host's to say (its key, the user's trust list).
import { ENGLISH, type L10n } from '../text/l10n';
import { truncatedText } from './completeness';
import type { VerifyResult } from './verify';

const count = (k: number): string => k.toLocaleString('en-US');

/** Who the reader trusts: their own did:keys, and others by name (the trust list). */
export interface SignerTrust {
  you: readonly string[];
  known: ReadonlyMap<string, string>;
}

export type SignerStanding = 'you' | 'known' | 'unknown';

export type Verdict = 'verified' | 'broken' | 'truncated' | 'unknown-signer' | 'unsigned';

/**
 * Verdicts from worst to best. A check of several logs (a conversation and its delegated agents')
 * reports the worst any of them got: tampering proven, then signed events proven lost, then a
 * signer nobody vouches for, then events never signed.
 */
export const VERDICTS_WORST_FIRST: readonly Verdict[] = [
  'broken',
  'truncated',
  'unknown-signer',
  'unsigned',
  'verified',
];

export function worstVerdict(verdicts: Iterable<Verdict>): Verdict {
  let worst: Verdict = 'verified';
  for (const v of verdicts)
    if (VERDICTS_WORST_FIRST.indexOf(v) < VERDICTS_WORST_FIRST.indexOf(worst)) worst = v;
  return worst;
}

export function standingOf(did: string, trust: SignerTrust | undefined): SignerStanding {
  if (!trust) return 'known';
  if (trust.you.includes(did)) return 'you';
  return trust.known.has(did) ? 'known' : 'unknown';
}

/** "you", "Alice (did:key:…)", "did:key:… (unknown signer)"; without a trust list, the did:key. */
export function signerName(did: string, trust: SignerTrust | undefined, l10n: L10n = ENGLISH): string {
  if (!trust) return did;
  switch (standingOf(did, trust)) {
    case 'you':
      return l10n.t('you');
    case 'known':
      return `${trust.known.get(did)} (${did})`;
    default:
      return l10n.t('{0} (unknown signer)', did);
  }
}

/** The signers neither the reader's own key nor on their trust list. */
export function unknownSigners(r: VerifyResult, trust: SignerTrust): string[] {
  return r.signers.filter((d) => standingOf(d, trust) === 'unknown');
}

export function verdictOf(r: VerifyResult, trust: SignerTrust): Verdict {
  if (r.status === 'broken') return 'broken';
  if (r.status === 'truncated') return 'truncated';
  if (unknownSigners(r, trust).length > 0) return 'unknown-signer';
  return r.status;
}

/** "event 3" or "events 3–7". */
function rangeText(x: { from: number; to: number }, l10n: L10n): string {
  return x.from === x.to
    ? l10n.t('event {0}', count(x.from))
    : l10n.t('events {0}–{1}', count(x.from), count(x.to));
}

/** "event 4 (ev-id)": where a check failed. */
function eventText(bad: { index: number; id?: string | null }, l10n: L10n): string {
  return bad.id ? l10n.t('event {0} ({1})', bad.index, bad.id) : l10n.t('event {0}', bad.index);
}

/** "signed by you", or, with more than one signer, which events each one signed. */
export function signedByText(r: VerifyResult, trust?: SignerTrust, l10n: L10n = ENGLISH): string {
  if (r.signers.length === 0) return l10n.t('no signature');
  if (r.signedBy.length <= 1)
    return l10n.t('signed by {0}', r.signers.map((d) => signerName(d, trust, l10n)).join(', '));
  return l10n.t(
    'signed by {0}',
    r.signedBy.map((x) => `${signerName(x.did, trust, l10n)} (${rangeText(x, l10n)})`).join(', '),
  );
}

/** The line for an intact conversation: "12 events verified, signed by …", imported events said first. */
export function verifiedText(r: VerifyResult, trust?: SignerTrust, l10n: L10n = ENGLISH): string {
  const by = signedByText(r, trust, l10n);
  if (r.imported === 0) return l10n.t('{0} events verified, {1}', count(r.verified), by);
  // An import that kept the signatures of the first events: the unsigned ones come after them.
  const later = (r.importedRanges ?? []).filter((x) => x.from > 0);
  if (later.length > 0) {
    const where = later.map((x) => rangeText(x, l10n));
    return l10n.t('{0} events verified, {1}; {2} imported unsigned', count(r.verified), by, where.join(', '));
  }
  return r.imported === 1
    ? l10n.t('1 imported unsigned event, then {0} verified, {1}', count(r.verified - r.imported), by)
    : l10n.t(
        '{0} imported unsigned events, then {1} verified, {2}',
        count(r.imported),
        count(r.verified - r.imported),
        by,
      );
}

/** The line for a conversation some of whose events were never signed when written. */
export function unsignedText(r: VerifyResult, trust?: SignerTrust, l10n: L10n = ENGLISH): string {
  const bad = r.firstBad!;
  return r.signers.length === 0 && r.verified === 0
    ? l10n.t('{0} events, unsigned: {1}', count(r.events), bad.detail)
    : l10n.t(
        '{0} events, unsigned from {1}: {2}; {3} verified, {4}',
        count(r.events),
        eventText(bad, l10n),
        bad.detail,
        count(r.verified),
        signedByText(r, trust, l10n),
      );
}

/** What can be said about events after the last one present: proven none, or how far it vouches. */
export function completenessText(r: VerifyResult, l10n: L10n = ENGLISH): string {
  const c = r.completeness;
  if (c.state === 'complete')
    return l10n.t('none missing (checked against the head kept outside the folder)');
  if (c.state === 'truncated') return truncatedText(c, l10n);
  if (c.state === 'diverged') return l10n.t('rewritten since its head was recorded');
  return l10n.t(
    'completeness cannot be proven: {0}; it vouches for these {1} events, not that none followed them',
    c.reason,
    count(r.verified),
  );
}

export interface VerifyReport {
  verdict: Verdict;
  /** one line: what was found */
  summary: string;
  /** why, for a verdict other than verified and unsigned */
  detail: string | null;
}

export function verifyReport(r: VerifyResult, trust: SignerTrust, l10n: L10n = ENGLISH): VerifyReport {
  const verdict = verdictOf(r, trust);
  switch (verdict) {
    case 'broken': {
      const bad = r.firstBad!;
      const what = eventText(bad, l10n);
      return {
        verdict,
        summary: l10n.t('{0} events, broken at {1}: {2}', count(r.events), what, bad.reason),
        detail: `${what}: ${bad.reason}. ${bad.detail}.`,
      };
    }
    case 'truncated': {
      const c = r.completeness as Extract<VerifyResult['completeness'], { state: 'truncated' }>;
      return {
        verdict,
        summary: l10n.t('{0}; {1}', verifiedText(r, trust, l10n), truncatedText(c, l10n)),
        detail: l10n.t(
          "The head kept outside the conversation's folder says {0} events were signed; the log and {1} now end after {2}.",
          count(c.recorded),
          'signatures.log',
          count(c.recorded - c.missing),
        ),
      };
    }
    case 'unknown-signer': {
      const dids = unknownSigners(r, trust);
      const base = r.status === 'unsigned' ? unsignedText(r, trust, l10n) : verifiedText(r, trust, l10n);
      const command = `logbook trust add ${dids[0]} --name NAME`;
      return {
        verdict,
        summary: l10n.t('{0}; {1}', base, completenessText(r, l10n)),
        detail:
          dids.length === 1
            ? l10n.t(
                '{0} is neither your signing key nor on your trust list: anyone can make a key and sign a rewritten log with it. If you know the signer: {1}.',
                dids[0]!,
                command,
              )
            : l10n.t(
                '{0} are neither your signing key nor on your trust list: anyone can make a key and sign a rewritten log with it. If you know the signer: {1}.',
                dids.join(', '),
                command,
              ),
      };
    }
    case 'unsigned':
      return {
        verdict,
        summary: l10n.t('{0}; {1}', unsignedText(r, trust, l10n), completenessText(r, l10n)),
        detail: null,
      };
    default:
      return {
        verdict,
        summary: l10n.t('{0}; {1}', verifiedText(r, trust, l10n), completenessText(r, l10n)),
        detail: null,
      };
  }
}
