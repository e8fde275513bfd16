// The words `logbook verify` and the editor use for a verification result.
import type { VerifyResult } from './verify';

const count = (k: number): string => k.toLocaleString('en-US');

/** "signed by DID", or, with more than one signer, which events each one signed. */
export function signedByText(r: VerifyResult): string {
  if (r.signers.length === 0) return 'no signature';
  if (r.signedBy.length <= 1) return `signed by ${r.signers.join(', ')}`;
  const range = (x: { from: number; to: number }): string =>
    x.from === x.to ? `event ${count(x.from)}` : `events ${count(x.from)}–${count(x.to)}`;
  return `signed by ${r.signedBy.map((x) => `${x.did} (${range(x)})`).join(', ')}`;
}

/** The line for an intact conversation: "12 events verified, signed by …", imported events said first. */
export function verifiedText(r: VerifyResult): string {
  const by = signedByText(r);
  if (r.imported === 0) return `${count(r.events)} events verified, ${by}`;
  // An import that kept the signatures of the first events: the unsigned ones come after them.
  const later = (r.importedRanges ?? []).filter((x) => x.from > 0);
  if (later.length > 0) {
    const where = later.map((x) =>
      x.from === x.to ? `event ${count(x.from)}` : `events ${count(x.from)}–${count(x.to)}`,
    );
    return `${count(r.events)} events verified, ${by}; ${where.join(', ')} imported unsigned`;
  }
  const s = r.imported === 1 ? '' : 's';
  return `${count(r.imported)} imported unsigned event${s}, then ${count(r.verified - r.imported)} verified, ${by}`;
}

/** The line for a conversation some of whose events were never signed when written. */
export function unsignedText(r: VerifyResult): string {
  const bad = r.firstBad!;
  const what = `event ${bad.index}${bad.id ? ` (${bad.id})` : ''}`;
  return r.signers.length === 0 && r.verified === 0
    ? `${count(r.events)} events, unsigned: ${bad.detail}`
    : `${count(r.events)} events, unsigned from ${what}: ${bad.detail}; ${count(r.verified)} verified, ${signedByText(r)}`;
}
