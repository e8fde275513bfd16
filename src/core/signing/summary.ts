// The words `logbook verify` and the editor use for a verification result, and the verdict both
// report: broken, truncated, signed by an unknown signer, unsigned, or verified (by you or a known
// signer). Who is "you" and who is known is the host's to say (its key, the user's trust list).
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

export function standingOf(did: string, trust: SignerTrust | undefined): SignerStanding {
  if (!trust) return 'known';
  if (trust.you.includes(did)) return 'you';
  return trust.known.has(did) ? 'known' : 'unknown';
}

/** "you", "Alice (did:key:…)", "did:key:… (unknown signer)"; without a trust list, the did:key. */
export function signerName(did: string, trust: SignerTrust | undefined): string {
  if (!trust) return did;
  switch (standingOf(did, trust)) {
    case 'you':
      return 'you';
    case 'known':
      return `${trust.known.get(did)} (${did})`;
    default:
      return `${did} (unknown signer)`;
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

/** "signed by you", or, with more than one signer, which events each one signed. */
export function signedByText(r: VerifyResult, trust?: SignerTrust): string {
  if (r.signers.length === 0) return 'no signature';
  if (r.signedBy.length <= 1) return `signed by ${r.signers.map((d) => signerName(d, trust)).join(', ')}`;
  const range = (x: { from: number; to: number }): string =>
    x.from === x.to ? `event ${count(x.from)}` : `events ${count(x.from)}–${count(x.to)}`;
  return `signed by ${r.signedBy.map((x) => `${signerName(x.did, trust)} (${range(x)})`).join(', ')}`;
}

/** The line for an intact conversation: "12 events verified, signed by …", imported events said first. */
export function verifiedText(r: VerifyResult, trust?: SignerTrust): string {
  const by = signedByText(r, trust);
  if (r.imported === 0) return `${count(r.verified)} events verified, ${by}`;
  // An import that kept the signatures of the first events: the unsigned ones come after them.
  const later = (r.importedRanges ?? []).filter((x) => x.from > 0);
  if (later.length > 0) {
    const where = later.map((x) =>
      x.from === x.to ? `event ${count(x.from)}` : `events ${count(x.from)}–${count(x.to)}`,
    );
    return `${count(r.verified)} events verified, ${by}; ${where.join(', ')} imported unsigned`;
  }
  const s = r.imported === 1 ? '' : 's';
  return `${count(r.imported)} imported unsigned event${s}, then ${count(r.verified - r.imported)} verified, ${by}`;
}

/** The line for a conversation some of whose events were never signed when written. */
export function unsignedText(r: VerifyResult, trust?: SignerTrust): string {
  const bad = r.firstBad!;
  const what = `event ${bad.index}${bad.id ? ` (${bad.id})` : ''}`;
  return r.signers.length === 0 && r.verified === 0
    ? `${count(r.events)} events, unsigned: ${bad.detail}`
    : `${count(r.events)} events, unsigned from ${what}: ${bad.detail}; ${count(r.verified)} verified, ${signedByText(r, trust)}`;
}

/** What can be said about events after the last one present: proven none, or how far it vouches. */
export function completenessText(r: VerifyResult): string {
  const c = r.completeness;
  if (c.state === 'complete') return 'none missing (checked against the head kept outside the folder)';
  if (c.state === 'truncated') return truncatedText(c);
  if (c.state === 'diverged') return 'rewritten since its head was recorded';
  return `completeness cannot be proven: ${c.reason}; it vouches for these ${count(r.verified)} events, not that none followed them`;
}

export interface VerifyReport {
  verdict: Verdict;
  /** one line: what was found */
  summary: string;
  /** why, for a verdict other than verified and unsigned */
  detail: string | null;
}

export function verifyReport(r: VerifyResult, trust: SignerTrust): VerifyReport {
  const verdict = verdictOf(r, trust);
  switch (verdict) {
    case 'broken': {
      const bad = r.firstBad!;
      const what = `event ${bad.index}${bad.id ? ` (${bad.id})` : ''}`;
      return {
        verdict,
        summary: `${count(r.events)} events, broken at ${what}: ${bad.reason}`,
        detail: `${what}: ${bad.reason}. ${bad.detail}.`,
      };
    }
    case 'truncated': {
      const c = r.completeness as Extract<VerifyResult['completeness'], { state: 'truncated' }>;
      return {
        verdict,
        summary: `${verifiedText(r, trust)}; ${truncatedText(c)}`,
        detail: `The head kept outside the conversation's folder says ${count(c.recorded)} events were signed; the log and ${'signatures.log'} now end after ${count(c.recorded - c.missing)}.`,
      };
    }
    case 'unknown-signer': {
      const dids = unknownSigners(r, trust);
      const base = r.status === 'unsigned' ? unsignedText(r, trust) : verifiedText(r, trust);
      return {
        verdict,
        summary: `${base}; ${completenessText(r)}`,
        detail: `${dids.join(', ')} ${dids.length === 1 ? 'is' : 'are'} neither your signing key nor on your trust list: anyone can make a key and sign a rewritten log with it. If you know the signer: logbook trust add ${dids[0]} --name NAME.`,
      };
    }
    case 'unsigned':
      return { verdict, summary: `${unsignedText(r, trust)}; ${completenessText(r)}`, detail: null };
    default:
      return { verdict, summary: `${verifiedText(r, trust)}; ${completenessText(r)}`, detail: null };
  }
}
