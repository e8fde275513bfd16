// The hash chain and its signatures, kept beside the segments in `signatures.log` (FORMAT.md,
// "Signatures"). One line per chain entry and one per signature:
//
//   logbook-signatures 2 <conversation id>    (version 1: no id, head(0) = zeros)
//   h <index> <sha256 of the record's JSON, base64url>
//   s <count> <chain head after `count` events, base64url> <did:key> <Ed25519 signature, base64url>
//   l <from> <to>       events from..to (inclusive) were in the log before this signer saw them
//   i <from> <to>       events from..to were imported unsigned; whoever imported them signed them
//
// head(0) = the genesis (chain-head.ts: the conversation's id in version 2, zeros in version 1);
// head(i + 1) = sha256(head(i) || hash(i)), with version 2's `l`/`i` lines linked in too. A signature
// covers the message `logbook-chain 1 <count> <head base64url>`, so it vouches for every event before it.
//
// A fork starts its file with the proof that its first events were signed by its source:
//   f <copies> <source conversation id> [2]   events 0..copies-1 are copies of source events; 2: the
//                                         source's chain is version 2 (its genesis binds the id)
//   p <hash>                              the source's chain, one line per source event
//   m <l|i> <from> <to>                   a version-2 source's marker lines, where they were
//   q <count> <head> <did:key> <signature>   the source's signatures over it
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { publicKeyOfDid } from './did-key';

export const SIGNATURES_FILE = 'signatures.log';
export const SIGNATURES_HEADER = 'logbook-signatures 1';
/** Version 2's first line: the chain's genesis binds the conversation's id. */
export const SIGNATURES_HEADER_V2 = 'logbook-signatures 2';
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
  return crypto.hash('sha256', recordJson, 'buffer');
}

/** head||hash, reused: the chain is walked one link at a time and each link is hashed at once. */
const link = Buffer.alloc(64);

export function nextHead(head: Uint8Array, hash: Uint8Array): Buffer {
  link.set(head, 0);
  link.set(hash, 32);
  return crypto.hash('sha256', link, 'buffer');
}

/** nextHead with the event's hash as signatures.log writes it (base64url). */
export function nextHeadOf(head: Uint8Array, hash: string): Buffer {
  link.set(head, 0);
  link.write(hash, 32, 'base64url');
  return crypto.hash('sha256', link, 'buffer');
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

/** An `l` or `i` line: events from..to are late or imported; written before event `from`'s hash. */
export interface ChainMarker {
  kind: 'l' | 'i';
  from: number;
  to: number;
}

export interface ChainFile {
  /** 1: head(0) is zeros and markers are not chained; 2: head(0) binds `conversation`, markers chained */
  version: 1 | 2;
  /** the conversation id a version-2 chain is bound to */
  conversation: string | null;
  /** base64url hash of event i at position i */
  hashes: string[];
  signatures: ChainSignature[];
  /** ranges of events hashed when a signer found them already in the log (inclusive) */
  late: { from: number; to: number }[];
  /** ranges of events imported unsigned, hashed and signed by whoever imported them (inclusive) */
  imported: { from: number; to: number }[];
  /** every `l` and `i` line, in file order */
  markers: ChainMarker[];
  /** a fork's proof that its first `copies` events were signed by its source */
  fork: SourceProof | null;
  /** a line that does not parse, or an `h` line out of order: the file itself was altered */
  malformed: { line: number; text: string } | null;
  /** the file ends in a torn line or a power cut's zeros: its writer died while writing it */
  cutShort: boolean;
}

export interface SourceProof {
  copies: number;
  source: string;
  /** the version of the source's chain (2: its genesis binds `source`, its markers are chained) */
  version: 1 | 2;
  /** the source's event hashes, in its order */
  hashes: string[];
  /** a version-2 source's markers (`m` lines) */
  markers: ChainMarker[];
  signatures: ChainSignature[];
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
  return unlessMissing(() => fs.readFileSync(path.join(dir, SIGNATURES_FILE), 'utf8'));
}

/** What `read` returns, or null when the file it reads does not exist. */
function unlessMissing<T>(read: () => T): T | null {
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return null;
  }
}

/** Parses signatures.log. A torn last line (no newline) is ignored: the writer died mid-write. */
export function parseChainFile(text: string): ChainFile {
  const whole = text;
  text = withoutZeroTail(text);
  const out: ChainFile = {
    version: 1,
    conversation: null,
    hashes: [],
    signatures: [],
    late: [],
    imported: [],
    markers: [],
    fork: null,
    malformed: null,
    cutShort: text !== whole,
  };
  const lines = text.split('\n');
  if (lines.pop() !== '') out.cutShort = true; // after the last newline: empty, or a torn line
  if (lines.length === 0) return out;
  const header = lines[0]!;
  if (header.startsWith(SIGNATURES_HEADER_V2 + ' ') && header.length > SIGNATURES_HEADER_V2.length + 1) {
    const id = header.slice(SIGNATURES_HEADER_V2.length + 1);
    if (/\s/.test(id)) {
      out.malformed = { line: 1, text: header };
      return out;
    }
    out.version = 2;
    out.conversation = id;
  } else if (header !== SIGNATURES_HEADER) {
    out.malformed = { line: 1, text: header };
    return out;
  }
  let lastCount = 0;
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n]!;
    // The common line, `h <index> <hash>`, without splitting it: a 100k-event chain opens in a blink.
    if (line.charCodeAt(0) === 0x68 && line.charCodeAt(1) === 0x20) {
      const sp = line.indexOf(' ', 2);
      if (
        sp > 2 &&
        line.length === sp + 44 &&
        line.indexOf(' ', sp + 1) < 0 &&
        line.slice(2, sp) === String(out.hashes.length)
      ) {
        out.hashes.push(line.slice(sp + 1));
        continue;
      }
    }
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
      if (!Number.isSafeInteger(count) || count < lastCount || count < 1 || count > out.hashes.length)
        return bad();
      lastCount = count;
      out.signatures.push({ count, head: f[2]!, did: f[3]!, signature: f[4]!, line: n + 1 });
    } else if (f[0] === 'f' && (f.length === 3 || (f.length === 4 && f[3] === '2')) && n === 1) {
      const copies = Number(f[1]);
      if (!Number.isSafeInteger(copies) || copies < 1) return bad();
      const version = f.length === 4 ? 2 : 1;
      out.fork = { copies, source: f[2]!, version, hashes: [], markers: [], signatures: [] };
    } else if (f[0] === 'p' && f.length === 2 && out.fork && out.hashes.length === 0) {
      if (f[1]!.length !== 43 || out.fork.signatures.length > 0) return bad();
      out.fork.hashes.push(f[1]!);
    } else if (f[0] === 'm' && f.length === 4 && out.fork?.version === 2 && out.hashes.length === 0) {
      const marker = markerOf(f.slice(1));
      if (!marker || marker.from !== out.fork.hashes.length || out.fork.signatures.length > 0) return bad();
      out.fork.markers.push(marker);
    } else if (f[0] === 'q' && f.length === 5 && out.fork && out.hashes.length === 0) {
      const count = Number(f[1]);
      const last = out.fork.signatures.at(-1)?.count ?? 1;
      if (!Number.isSafeInteger(count) || count < last || count > out.fork.hashes.length) return bad();
      out.fork.signatures.push({ count, head: f[2]!, did: f[3]!, signature: f[4]!, line: n + 1 });
    } else if ((f[0] === 'l' || f[0] === 'i') && f.length === 3) {
      const marker = markerOf(f);
      if (!marker || marker.from !== out.hashes.length) return bad();
      (marker.kind === 'l' ? out.late : out.imported).push({ from: marker.from, to: marker.to });
      out.markers.push(marker);
    } else return bad();
  }
  return out;
}

/** `l|i <from> <to>` split into its fields, or null when they are not a range. */
function markerOf(f: string[]): ChainMarker | null {
  const from = Number(f[1]);
  const to = Number(f[2]);
  if ((f[0] !== 'l' && f[0] !== 'i') || !Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return null;
  if (from < 0 || from > to) return null;
  return { kind: f[0], from, to };
}

export function markerLine(m: ChainMarker): string {
  return `${m.kind} ${m.from} ${m.to}`;
}

/**
 * The text before a run of NUL bytes that ends the file: what a power cut can leave where the last
 * lines were (the size was kept, their data was not). Treated like a torn last line.
 */
export function withoutZeroTail(text: string): string {
  const at = text.indexOf('\0');
  return at >= 0 && /^\0*$/.test(text.slice(at)) ? text.slice(0, at) : text;
}

/**
 * The did:keys named by a conversation's signature lines, in the order they first sign, unverified.
 * The file holds a hash line per event and a signature line only now and then, so it is searched as
 * bytes for the lines that start with `s ` or `q `: `logbook show` of a long conversation then
 * neither decodes nor splits megabytes of hash lines it does not need.
 */
export function chainSigners(dir: string): string[] {
  const bytes = unlessMissing(() => fs.readFileSync(path.join(dir, SIGNATURES_FILE)));
  if (bytes === null) return [];
  // Each kind is found in one forward search of its own, then the lines are taken in file order.
  const starts = SIGNATURE_TAGS.some((tag) => bytes.subarray(0, tag.length).equals(tag)) ? [0] : [];
  for (const tag of SIGNATURE_TAGS) {
    const needle = Buffer.concat([Buffer.of(NEWLINE), tag]);
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) starts.push(at + 1);
  }
  const seen = new Set<string>();
  for (const at of starts.sort((x, y) => x - y)) {
    const end = bytes.indexOf(NEWLINE, at);
    const did = bytes.toString('utf8', at, end < 0 ? bytes.length : end).split(' ')[3];
    if (did) seen.add(did);
  }
  return [...seen];
}

const NEWLINE = 0x0a;
/** How signature lines start: this conversation's own, and a fork's copies of its source's. */
const SIGNATURE_TAGS = [Buffer.from('s '), Buffer.from('q ')];
