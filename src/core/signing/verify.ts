// Verifies a segment log against its signatures.log: every record's bytes against the hash the
// chain holds for its position, the chain against each signature, each signature against its
// signer's did:key. Reports the first bad event and why; a record whose checksum fails is reported
// as corrupt (damage), not as tampering.
import {
  SIGNATURES_FILE,
  ZERO_HEAD,
  b64,
  eventHash,
  nextHead,
  parseChainFile,
  readChainText,
  signatureHolds,
  type SourceProof,
} from './chain';
import { rawRecords } from './raw-records';

export type BadReason =
  | 'content changed'
  | 'removed'
  | 'inserted'
  | 'reordered'
  | 'signature invalid'
  | 'unsigned'
  | 'unknown signer'
  | 'corrupt';

export interface BadEvent {
  index: number;
  /** the id of the event now at `index`, when there is one and it parses */
  id: string | null;
  reason: BadReason;
  detail: string;
}

export interface VerifyResult {
  /** verified: every event signed when written and intact; unsigned: intact as far as signed, some never signed */
  status: 'verified' | 'broken' | 'unsigned';
  events: number;
  /** events whose bytes match a signed chain */
  verified: number;
  signers: string[];
  /** who signed which events (inclusive ranges, in order); a fork's copies name its source's signer */
  signedBy: { did: string; from: number; to: number }[];
  /** events imported unsigned (from an OpenHands conversation), signed from the import on */
  imported: number;
  /** events chained late (already in the log when a signer first saw them), inclusive ranges */
  late: { from: number; to: number }[];
  firstBad: BadEvent | null;
}

export interface VerifyOptions {
  /** when given, a signature by any other did:key is "unknown signer" */
  trusted?: readonly string[];
}

function idOf(json: Uint8Array | undefined): string | null {
  if (json === undefined) return null;
  try {
    const id = (JSON.parse(Buffer.from(json).toString('utf8')) as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

export function verifyConversation(dir: string, opts: VerifyOptions = {}): VerifyResult {
  const jsons: Buffer[] = [];
  const hashes: string[] = [];
  let corrupt: BadEvent | null = null;
  for (const r of rawRecords(dir)) {
    if (!r.ok) {
      corrupt = {
        index: jsons.length,
        id: null,
        reason: 'corrupt',
        detail: `the record in segment ${r.segment} at byte ${r.offset} is damaged (${r.reason}), not readable as an event`,
      };
      break;
    }
    jsons.push(r.bytes);
    hashes.push(b64(eventHash(r.bytes)));
  }
  const n = jsons.length;
  const text = readChainText(dir);
  const result = (
    status: VerifyResult['status'],
    verified: number,
    firstBad: BadEvent | null,
    extra: Partial<VerifyResult> = {},
  ): VerifyResult => ({
    status,
    events: n + (corrupt ? 1 : 0),
    verified,
    signers: [],
    signedBy: [],
    imported: 0,
    late: [],
    firstBad,
    ...extra,
  });
  if (text === null) {
    if (corrupt) return result('broken', 0, corrupt);
    return result(
      'unsigned',
      0,
      n > 0
        ? {
            index: 0,
            id: idOf(jsons[0]),
            reason: 'unsigned',
            detail: 'the conversation was written without signatures',
          }
        : null,
    );
  }
  const chain = parseChainFile(text);
  const bad: BadEvent[] = [];
  if (corrupt) bad.push(corrupt);
  if (chain.malformed) {
    const at = chain.hashes.length;
    bad.push({
      index: at,
      id: idOf(jsons[at]),
      reason: 'signature invalid',
      detail: `${SIGNATURES_FILE} line ${chain.malformed.line} is not a valid signature line`,
    });
  }
  // The chain itself: each signature must be over the head of the stored hashes at its count.
  const signers = new Set<string>();
  const signedBy: VerifyResult['signedBy'] = [];
  let head: Buffer = ZERO_HEAD;
  let at = 0;
  let signedUpTo = 0;
  for (const s of chain.signatures) {
    for (; at < s.count; at++) head = nextHead(head, Buffer.from(chain.hashes[at]!, 'base64url'));
    const from = signedUpTo;
    const rangeBad = (reason: BadReason, detail: string): void => {
      bad.push({ index: from, id: idOf(jsons[from]), reason, detail });
    };
    if (opts.trusted && !opts.trusted.includes(s.did)) {
      rangeBad(
        'unknown signer',
        `events ${from}–${s.count - 1} are signed by ${s.did}, which is not a trusted signer`,
      );
      break;
    }
    if (!signatureHolds(s, head)) {
      rangeBad(
        'signature invalid',
        `the signature on ${SIGNATURES_FILE} line ${s.line} (events ${from}–${s.count - 1}) does not match: the signed hashes were altered`,
      );
      break;
    }
    signers.add(s.did);
    addRange(signedBy, s.did, from, s.count - 1);
    signedUpTo = s.count;
  }
  // A fork's copies: signed by its source, as the source's own chain and signatures show.
  let sourceSigners: string[] = [];
  if (chain.fork) {
    const proof = checkSourceProof(chain.fork, chain.hashes, jsons);
    if ('bad' in proof) bad.push(proof.bad);
    else {
      sourceSigners = proof.signers;
      const own = signedBy.splice(0);
      signedBy.push(...proof.signedBy);
      for (const r of own)
        if (r.to >= chain.fork.copies) addRange(signedBy, r.did, Math.max(r.from, chain.fork.copies), r.to);
    }
  }
  // Each record against the hash signed for its position.
  const stored = chain.hashes;
  const firstAt = new Map<string, number>();
  for (let i = stored.length - 1; i >= 0; i--) firstAt.set(stored[i]!, i);
  for (let i = 0; i < Math.max(n, stored.length); i++) {
    if (i < n && i < stored.length && hashes[i] === stored[i]) continue;
    if (i >= n) {
      if (corrupt) break; // the records after a damaged one are not read
      bad.push({
        index: i,
        id: null,
        reason: 'removed',
        detail: `the log ends after ${n} events, but event ${i} was signed: events ${i}–${stored.length - 1} were removed`,
      });
      break;
    }
    if (i >= stored.length) {
      bad.push({
        index: i,
        id: idOf(jsons[i]),
        reason: 'unsigned',
        detail: `events ${i}–${n - 1} are in the log but not in the signed chain`,
      });
      break;
    }
    bad.push({ index: i, id: idOf(jsons[i]), ...classify(i, hashes, stored, firstAt) });
    break;
  }
  if (
    signedUpTo < stored.length &&
    !bad.some((b) => b.reason === 'signature invalid' || b.reason === 'unknown signer')
  ) {
    bad.push({
      index: signedUpTo,
      id: idOf(jsons[signedUpTo]),
      reason: 'unsigned',
      detail: `events ${signedUpTo}–${stored.length - 1} were chained but no signature covers them (the writer stopped before signing)`,
    });
  }
  const tampering = bad.filter((b) => b.reason !== 'unsigned');
  const first = (xs: BadEvent[]): BadEvent | null =>
    xs.reduce<BadEvent | null>((m, b) => (m === null || b.index < m.index ? b : m), null);
  const verified = Math.min(signedUpTo, first(bad)?.index ?? Infinity, n);
  const imported = chain.imported.reduce((k, r) => k + Math.min(r.to, n - 1) - r.from + 1, 0);
  const extra = {
    signers: [...new Set([...sourceSigners, ...signers])],
    signedBy: signedBy
      .filter((r) => r.from < verified)
      .map((r) => ({ ...r, to: Math.min(r.to, verified - 1) })),
    imported: Math.max(0, imported),
    late: chain.late,
  };
  if (tampering.length > 0) return result('broken', verified, first(tampering), extra);
  if (bad.length > 0) return result('unsigned', verified, first(bad), extra);
  if (chain.late.length > 0) {
    const l = chain.late[0]!;
    return result(
      'unsigned',
      verified,
      {
        index: l.from,
        id: idOf(jsons[l.from]),
        reason: 'unsigned',
        detail: `events ${l.from}–${l.to} were written before they were signed (an older conversation, or the writer stopped before signing), and signed later`,
      },
      extra,
    );
  }
  return result('verified', verified, null, extra);
}

function addRange(out: VerifyResult['signedBy'], did: string, from: number, to: number): void {
  if (to < from) return;
  const last = out.at(-1);
  if (last && last.did === did && last.to + 1 === from) last.to = to;
  else out.push({ did, from, to });
}

/**
 * Checks a fork's proof that its first events were signed by its source: the source's signatures
 * over the source's chain, and each copy's hash found in that chain, in order, under a signature.
 */
export function checkSourceProof(
  proof: SourceProof,
  hashes: readonly string[],
  jsons: readonly Buffer[],
): { signedBy: VerifyResult['signedBy']; signers: string[] } | { bad: BadEvent } {
  const fail = (index: number, detail: string): { bad: BadEvent } => ({
    bad: { index, id: idOf(jsons[index]), reason: 'signature invalid', detail },
  });
  let head: Buffer = ZERO_HEAD;
  let at = 0;
  for (const s of proof.signatures) {
    for (; at < s.count; at++) head = nextHead(head, Buffer.from(proof.hashes[at]!, 'base64url'));
    if (!signatureHolds(s, head))
      return fail(
        0,
        `the signature of the source conversation ${proof.source} on ${SIGNATURES_FILE} line ${s.line} does not match its chain: the copied proof was altered`,
      );
  }
  const signedBy: VerifyResult['signedBy'] = [];
  const signers = new Set<string>();
  let j = 0;
  let q = 0;
  for (let k = 0; k < Math.min(proof.copies, hashes.length); k++) {
    while (j < proof.hashes.length && proof.hashes[j] !== hashes[k]) j++;
    while (q < proof.signatures.length && proof.signatures[q]!.count <= j) q++;
    if (j >= proof.hashes.length || q >= proof.signatures.length)
      return fail(k, `event ${k} is a copy, but its source ${proof.source} did not sign it`);
    const did = proof.signatures[q]!.did;
    signers.add(did);
    addRange(signedBy, did, k, k);
    j++;
  }
  return { signedBy, signers: [...signers] };
}

/** Why the record at `i` is not the one signed there. */
function classify(
  i: number,
  hashes: string[],
  stored: string[],
  firstAt: Map<string, number>,
): { reason: BadReason; detail: string } {
  const j = firstAt.get(hashes[i]!);
  const signedLater = (from: number): boolean => {
    for (let k = from; k < hashes.length; k++) if (hashes[k] === stored[i]) return true;
    return false;
  };
  if (j === undefined) {
    if (hashes[i + 1] !== undefined && hashes[i + 1] === stored[i]) {
      return {
        reason: 'inserted',
        detail: `event ${i} was never signed: it was inserted before the event signed at ${i}`,
      };
    }
    return { reason: 'content changed', detail: `event ${i} is not what was signed: its content changed` };
  }
  if (j > i) {
    if (signedLater(i + 1))
      return {
        reason: 'reordered',
        detail: `the event at ${i} was signed at position ${j}: events were reordered`,
      };
    return {
      reason: 'removed',
      detail: `the event at ${i} was signed at position ${j}: ${j - i === 1 ? `event ${i} was` : `events ${i}–${j - 1} were`} removed`,
    };
  }
  return {
    reason: 'reordered',
    detail: `the event at ${i} was signed at position ${j}: events were reordered or copied`,
  };
}
