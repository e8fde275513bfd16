// The hash chain and its signatures, kept beside the segments in `signatures.log` (FORMAT.md,
// "Signatures"). One line per event and one per signature:
//
//   logbook-signatures 1
//   h <index> <sha256 of the record's JSON, base64url>
//   s <count> <chain head after `count` events, base64url> <did:key> <Ed25519 signature, base64url>
//   l <from> <to>       events from..to (inclusive) were in the log before this signer saw them
//
// head(0) = 32 zero bytes; head(i + 1) = sha256(head(i) || hash(i)). A signature covers the
// message `logbook-chain 1 <count> <head base64url>`, so it vouches for every event before it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { publicKeyOfDid } from './did-key';

export const SIGNATURES_FILE = 'signatures.log';
export const SIGNATURES_HEADER = 'logbook-signatures 1';
export const ZERO_HEAD = Buffer.alloc(32);

/**
 * The exact bytes an event's signature covers: the JSON the log stores for it, which is the event
 * in the OpenHands wire format serialized as JSON.stringify does (the event's own key order, which
 * JSON.parse keeps), with a long argument stored once (FORMAT.md). Pinned by a test.
 */
export function signablePayload(recordJson: string): Buffer {
  return Buffer.from(recordJson, 'utf8');
}

/** sha256 of the record's JSON bytes (a string is taken as UTF-8, as the store writes it). */
export function eventHash(recordJson: string | Uint8Array): Buffer {
  return typeof recordJson === 'string'
    ? crypto.createHash('sha256').update(recordJson, 'utf8').digest()
    : crypto.createHash('sha256').update(recordJson).digest();
}

export function nextHead(head: Uint8Array, hash: Uint8Array): Buffer {
  return crypto.createHash('sha256').update(head).update(hash).digest();
}

export function signedMessage(count: number, head: Uint8Array): Buffer {
  return Buffer.from(`logbook-chain 1 ${count} ${b64(head)}`, 'utf8');
}

export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

export interface ChainSignature {
  /** events covered: indices 0..count-1 */
  count: number;
  head: string;
  did: string;
  signature: string;
  /** line number in the file, for messages */
  line: number;
}

export interface ChainFile {
  /** base64url hash of event i at position i */
  hashes: string[];
  signatures: ChainSignature[];
  /** ranges of events hashed when a signer found them already in the log (inclusive) */
  late: { from: number; to: number }[];
  /** a line that does not parse, or an `h` line out of order: the file itself was altered */
  malformed: { line: number; text: string } | null;
}

/** Whether `s` is a valid signature, by the key its DID names, over `head` (the chain head at its count). */
export function signatureHolds(s: ChainSignature, head: Uint8Array): boolean {
  const key = publicKeyOfDid(s.did);
  if (key === null || b64(head) !== s.head) return false;
  try {
    return crypto.verify(null, signedMessage(s.count, head), key, Buffer.from(s.signature, 'base64url'));
  } catch {
    return false;
  }
}

/** The text of a conversation's signatures.log, or null when it has none. */
export function readChainText(dir: string): string | null {
  try {
    return fs.readFileSync(path.join(dir, SIGNATURES_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return null;
  }
}

/** Parses signatures.log. A torn last line (no newline) is ignored: the writer died mid-write. */
export function parseChainFile(text: string): ChainFile {
  const out: ChainFile = { hashes: [], signatures: [], late: [], malformed: null };
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a torn line
  if (lines.length === 0) return out;
  if (lines[0] !== SIGNATURES_HEADER) {
    out.malformed = { line: 1, text: lines[0]! };
    return out;
  }
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n]!;
    const f = line.split(' ');
    const bad = (): ChainFile => {
      out.malformed = { line: n + 1, text: line };
      return out;
    };
    if (f[0] === 'h' && f.length === 3) {
      if (Number(f[1]) !== out.hashes.length || f[2]!.length !== 43) return bad();
      out.hashes.push(f[2]!);
    } else if (f[0] === 's' && f.length === 5) {
      const count = Number(f[1]);
      if (!Number.isSafeInteger(count) || count < 1 || count > out.hashes.length) return bad();
      out.signatures.push({ count, head: f[2]!, did: f[3]!, signature: f[4]!, line: n + 1 });
    } else if (f[0] === 'l' && f.length === 3) {
      const from = Number(f[1]);
      const to = Number(f[2]);
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to || from !== out.hashes.length)
        return bad();
      out.late.push({ from, to });
    } else return bad();
  }
  return out;
}
