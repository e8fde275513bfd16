// Verifies a segment log against its signatures.log: every record's bytes against the hash the
// chain holds for its position, the chain against each signature, each signature against its
// signer's did:key. Reports the first bad event and why; a record whose checksum fails is reported
// as corrupt (damage), not as tampering. The verdict's types, the fork's source check and the
// comparison of a mismatched record live in verdict.ts, source-proof-check.ts and record-mismatch.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { crcMatches, frameAt } from '../log/record-format';
import {
  type ChainFile,
  type ChainSignature,
  SIGNATURES_FILE,
  parseChainFile,
  readChainText,
  signatureHolds,
} from './chain';
import { ChainWalker, chainIdToken } from './chain-head';
import { judgeCompleteness } from './completeness';
import { folderKey, readHeadRecord } from './head-record';
import { rawRecords, segmentPaths } from './raw-records';
import { classify } from './record-mismatch';
import { addRange, checkSourceProof } from './source-proof-check';
import type { BadEvent, BadReason, VerifyOptions, VerifyResult } from './verdict';

export type { BadEvent, BadReason, VerifyOptions, VerifyResult } from './verdict';
export { checkSourceProof } from './source-proof-check';

/** The id of the event at `index`, read again from the log (needed only for the events reported). */
function idReader(dir: string): (index: number) => string | null {
  const cache = new Map<number, string | null>();
  return (index) => {
    if (cache.has(index)) return cache.get(index)!;
    let id: string | null = null;
    let i = 0;
    for (const r of rawRecords(dir)) {
      if (!r.ok) break;
      if (i++ < index) continue;
      try {
        const v = (JSON.parse(r.json) as { id?: unknown }).id;
        id = typeof v === 'string' ? v : null;
      } catch {
        id = null;
      }
      break;
    }
    cache.set(index, id);
    return id;
  };
}

/** Records scanned between two yields of the background verifier (~2.5 MB of the bench's events). */
const RECORDS_PER_STEP = 500;

/**
 * Hashes every record in file order. The checksum is checked only for a record whose hash is not
 * the one chained at its position: a matching sha256 already proves its bytes, and a mismatch is
 * then told apart as damage (checksum fails) or a change (checksum recomputed, or never broken).
 * One read buffer is reused across segments, and no record is kept: only its hash.
 */
function* scanRecords(
  dir: string,
  expected: readonly string[],
): Generator<void, { hashes: string[]; corrupt: BadEvent | null }> {
  const hashes: string[] = [];
  let buf = Buffer.alloc(0);
  for (const file of segmentPaths(dir)) {
    const fd = fs.openSync(file, 'r');
    let size: number;
    try {
      size = fs.fstatSync(fd).size;
      if (buf.length < size) buf = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const k = fs.readSync(fd, buf, got, size - got, got);
        if (k === 0) break;
        got += k;
      }
      size = got;
    } finally {
      fs.closeSync(fd);
    }
    let pos = 0;
    while (pos < size) {
      const f = frameAt(buf, pos, size);
      const damaged = (reason: string): { hashes: string[]; corrupt: BadEvent } => ({
        hashes,
        corrupt: {
          index: hashes.length,
          id: null,
          reason: 'corrupt',
          detail: `the record in segment ${path.basename(file)} at byte ${pos} is damaged (${reason}), not readable as an event`,
        },
      });
      if (f === 'short') return damaged('a torn record');
      if (f === 'bad') return damaged('bytes that are no record');
      const hash = crypto.hash('sha256', buf.subarray(f.jsonStart, f.jsonStart + f.jsonLen), 'base64url');
      if (hash !== expected[hashes.length] && !crcMatches(buf, pos, f))
        return damaged('its checksum does not match');
      hashes.push(hash);
      pos += f.size;
      if (hashes.length % RECORDS_PER_STEP === 0) yield;
    }
  }
  return { hashes, corrupt: null };
}

/**
 * A live writer signs a few ms after it appends: records it appended while the check read them can
 * look appended by someone else. Such a finding is checked again after the writer's signing delay.
 */
const APPENDED_RECHECKS = 3;
const APPENDED_RECHECK_MS = 25;
const appendedTail = (r: VerifyResult): boolean => r.firstBad?.reason === 'appended';

/** Verifies a conversation at once (the CLI). */
export function verifyConversation(dir: string, opts: VerifyOptions = {}): VerifyResult {
  let r = verifyOnce(dir, opts);
  for (let k = 0; k < APPENDED_RECHECKS && appendedTail(r); k++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, APPENDED_RECHECK_MS);
    r = verifyOnce(dir, opts);
  }
  return r;
}

function verifyOnce(dir: string, opts: VerifyOptions): VerifyResult {
  const steps = verifySteps(dir, opts);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

/** The same check in slices, giving the event loop back between them (the editor, on open). */
export async function verifyConversationInSteps(
  dir: string,
  opts: VerifyOptions = {},
): Promise<VerifyResult> {
  let r = await verifyInStepsOnce(dir, opts);
  for (let k = 0; k < APPENDED_RECHECKS && appendedTail(r); k++) {
    await new Promise((resolve) => setTimeout(resolve, APPENDED_RECHECK_MS));
    r = await verifyInStepsOnce(dir, opts);
  }
  return r;
}

async function verifyInStepsOnce(dir: string, opts: VerifyOptions): Promise<VerifyResult> {
  const steps = verifySteps(dir, opts);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function* verifySteps(dir: string, opts: VerifyOptions): Generator<void, VerifyResult> {
  // The chain first: records a live writer appends meanwhile then show as not yet signed, never
  // as signed hashes whose records are missing.
  const text = readChainText(dir);
  const chain: ChainFile | null = text === null ? null : parseChainFile(text);
  const { hashes, corrupt } = yield* scanRecords(dir, chain?.hashes ?? []);
  const idOf = idReader(dir);
  const n = hashes.length;
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
    importedRanges: [],
    late: [],
    firstBad,
    conversation: chain?.conversation ?? null,
    completeness: { state: 'unproven', reason: 'the conversation is not signed' },
    ...extra,
  });
  if (chain === null) {
    if (corrupt) return result('broken', 0, corrupt);
    // No signatures.log, but the head kept outside the folder says this log was signed: removed.
    const record = opts.headFile === undefined ? null : readHeadRecord(opts.headFile);
    if (record !== null && record !== 'unreadable' && record.dir === folderKey(dir) && record.count > 0)
      return result('broken', 0, {
        index: 0,
        id: idOf(0),
        reason: 'removed',
        detail: `${SIGNATURES_FILE} is gone, but the head kept outside the folder says ${record.count} events were signed: the signatures were removed`,
      });
    return result(
      'unsigned',
      0,
      n > 0
        ? {
            index: 0,
            id: idOf(0),
            reason: 'unsigned',
            detail: 'the conversation was written without signatures',
          }
        : null,
    );
  }
  const bad: BadEvent[] = [];
  if (corrupt) bad.push(corrupt);
  if (chain.malformed) {
    const at = chain.hashes.length;
    bad.push({
      index: at,
      id: idOf(at),
      reason: 'signature invalid',
      detail: `${SIGNATURES_FILE} line ${chain.malformed.line} is not a valid signature line`,
    });
  }
  // The chain itself: each signature must be over the head of the stored hashes at its count.
  const signers = new Set<string>();
  const signedBy: VerifyResult['signedBy'] = [];
  const walker = new ChainWalker(chain);
  const valid: ChainSignature[] = [];
  let signedUpTo = 0;
  for (const s of chain.signatures) {
    while (walker.at < s.count) {
      walker.advanceTo(Math.min(s.count, walker.at + 8 * RECORDS_PER_STEP));
      yield;
    }
    const head = walker.head;
    const from = signedUpTo;
    const rangeBad = (reason: BadReason, detail: string): void => {
      bad.push({ index: from, id: idOf(from), reason, detail });
    };
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
    valid.push(s);
  }
  // A fork's copies: signed by its source, as the source's own chain and signatures show.
  let sourceSigners: string[] = [];
  if (chain.fork) {
    const proof = checkSourceProof(chain.fork, chain.hashes, idOf);
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
      // After signed events, events no chain holds were added by someone other than the signer:
      // a writer chains each record as it writes it, and chains a crash's unsigned tail (as late)
      // when the log is opened again.
      bad.push(
        signedUpTo > 0 && !chain.cutShort
          ? {
              index: i,
              id: idOf(i),
              reason: 'appended',
              detail: `events ${i}–${n - 1} follow the signed events but are in no chain: they were appended by someone other than the signer`,
            }
          : {
              index: i,
              id: idOf(i),
              reason: 'unsigned',
              detail: `events ${i}–${n - 1} are in the log but not in the signed chain`,
            },
      );
      break;
    }
    bad.push({ index: i, id: idOf(i), ...classify(i, hashes, stored, firstAt) });
    break;
  }
  if (signedUpTo < stored.length && !bad.some((b) => b.reason === 'signature invalid')) {
    // The writer puts each signature right after the hashes it covers: hashes after the last
    // signature in a file that ends whole were added by someone else (a writer that died leaves a
    // torn line or a power cut's zeros).
    bad.push(
      signedUpTo > 0 && !chain.cutShort
        ? {
            index: signedUpTo,
            id: idOf(signedUpTo),
            reason: 'appended',
            detail: `events ${signedUpTo}–${stored.length - 1} were chained after the last signature, and no signature covers them: they were appended by someone other than the signer`,
          }
        : {
            index: signedUpTo,
            id: idOf(signedUpTo),
            reason: 'unsigned',
            detail: `events ${signedUpTo}–${stored.length - 1} were chained but no signature covers them (the writer stopped before signing)`,
          },
    );
  }
  const first = (xs: BadEvent[]): BadEvent | null =>
    xs.reduce<BadEvent | null>((m, b) => (m === null || b.index < m.index ? b : m), null);
  const verified = Math.min(signedUpTo, first(bad)?.index ?? Infinity, n);
  // Against the head kept outside the folder: a cut tail, or a chain rewritten and signed again.
  const record = opts.headFile === undefined ? null : readHeadRecord(opts.headFile);
  const completeness =
    opts.headFile === undefined
      ? ({ state: 'unproven', reason: 'no head is kept outside the folder here' } as const)
      : judgeCompleteness(record, folderKey(dir), valid, verified);
  if (completeness.state === 'diverged') {
    bad.push({
      index: 0,
      id: idOf(0),
      reason: 'rewritten',
      detail: `the chain at event ${completeness.recorded - 1} is not the one signed there when it was written (the head kept outside the folder differs): the log was rewritten and signed again`,
    });
  }
  // A version-2 chain names its conversation: another's chain (with its events) put in this folder.
  const vouched = completeness.state === 'complete';
  if (
    opts.expectedId !== undefined &&
    chain.version === 2 &&
    chain.conversation !== chainIdToken(opts.expectedId) &&
    !vouched
  ) {
    bad.push({
      index: 0,
      id: idOf(0),
      reason: 'spliced',
      detail: `${SIGNATURES_FILE} is bound to conversation ${chain.conversation}, not to this conversation (${opts.expectedId}): its events were signed for another conversation`,
    });
  }
  const tampering = bad.filter((b) => b.reason !== 'unsigned');
  const imported = chain.imported.reduce((k, r) => k + Math.min(r.to, n - 1) - r.from + 1, 0);
  const extra = {
    signers: [...new Set([...sourceSigners, ...signers])],
    signedBy: signedBy
      .filter((r) => r.from < verified)
      .map((r) => ({ ...r, to: Math.min(r.to, verified - 1) })),
    imported: Math.max(0, imported),
    importedRanges: chain.imported
      .filter((r) => r.from < n)
      .map((r) => ({ from: r.from, to: Math.min(r.to, n - 1) })),
    late: chain.late,
    completeness,
  };
  if (tampering.length > 0) return result('broken', verified, first(tampering), extra);
  if (completeness.state === 'truncated') return result('truncated', verified, null, extra);
  if (bad.length > 0) return result('unsigned', verified, first(bad), extra);
  if (chain.late.length > 0) {
    const l = chain.late[0]!;
    return result(
      'unsigned',
      verified,
      {
        index: l.from,
        id: idOf(l.from),
        reason: 'unsigned',
        detail: `events ${l.from}–${l.to} were written before they were signed (an older conversation, or the writer stopped before signing), and signed later`,
      },
      extra,
    );
  }
  return result('verified', verified, null, extra);
}
