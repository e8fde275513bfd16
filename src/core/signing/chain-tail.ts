// What a writer needs of a long signatures.log, read from its end: the header, the last signature
// and the lines after the hash it covers last. A writer resumes from the head the last signature
// states (chain-writer.ts), so the lines before it are never needed to append; reading them all
// made each open of a 100,000-event conversation read and split 5 MB. Anything this reader does
// not expect (a fork's proof, a line out of order, a line it cannot parse, a torn or zeroed end
// it cannot see past) makes it answer null, and the writer reads the whole file as before. What
// the whole read checked beyond this, that every earlier line is well-formed, `logbook verify`
// checks in full, with every hash against its record and every signature against its key.
import fs from 'node:fs';
import {
  type ChainFile,
  type ChainMarker,
  type ChainSignature,
  SIGNATURES_HEADER,
  SIGNATURES_HEADER_V2,
  withoutZeroTail,
} from './chain';

/** Files smaller than this are read whole: a few milliseconds at most. */
export const TAIL_READ_MIN_BYTES = 1 << 20;
const FIRST_CHUNK = 64 * 1024;
const HEADER_BYTES = 4096;

export interface ChainTail {
  /**
   * The chain as the writer walks it: `hashes` holds only the entries from the first hash read on
   * (its length is the file's count of hashes), `signatures` only those read.
   */
  parsed: ChainFile;
  /** Where the writer continues: the end of the last whole line (after an unsigned tail is cut). */
  keep: number;
}

/**
 * signatures.log read from its end, as ChainWriter.open reads the whole file: the hashes no
 * signature covers cut (as unsignedTailAt cuts them). Null when it cannot be read this way; the
 * caller then reads the whole file.
 */
export function readChainTail(file: string): ChainTail | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size < TAIL_READ_MIN_BYTES) return null;
    const head = readRange(fd, 0, HEADER_BYTES);
    const header = headerOf(head);
    if (!header) return null;
    for (let chunk = FIRST_CHUNK; ; chunk *= 4) {
      const from = Math.max(header.end, size - chunk);
      const found = tailOf(readRange(fd, from, size - from), from, from === header.end, header);
      if (found !== 'more') return found;
      if (from === header.end) return null;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function readRange(fd: number, at: number, length: number): string {
  const buf = Buffer.alloc(length);
  const n = fs.readSync(fd, buf, 0, length, at);
  // Every line after the header is ASCII; latin1 keeps one character per byte, so offsets are bytes.
  return buf.toString('latin1', 0, n);
}

interface Header {
  version: 1 | 2;
  conversation: string | null;
  /** The byte after the header's newline. */
  end: number;
}

function headerOf(head: string): Header | null {
  const nl = head.indexOf('\n');
  if (nl < 0) return null;
  const line = Buffer.from(head.slice(0, nl), 'latin1').toString('utf8');
  // A fork's proof comes right after the header: the whole file is read for it.
  if (head.charCodeAt(nl + 1) === 0x66 /* f */) return null;
  const end = Buffer.byteLength(head.slice(0, nl + 1), 'latin1');
  if (line === SIGNATURES_HEADER) return { version: 1, conversation: null, end };
  const prefix = SIGNATURES_HEADER_V2 + ' ';
  if (line.startsWith(prefix) && line.length > prefix.length && !/\s/.test(line.slice(prefix.length)))
    return { version: 2, conversation: line.slice(prefix.length), end };
  return null;
}

interface Line {
  at: number;
  kind: 'h' | 's' | 'l' | 'i';
  index?: number;
  hash?: string;
  sig?: ChainSignature;
  marker?: ChainMarker;
}

/** The lines of `text` (whole lines only, after the first partial one unless `whole`). */
function linesOf(text: string, start: number, whole: boolean): Line[] | null {
  const out: Line[] = [];
  let at = whole ? 0 : text.indexOf('\n') + 1;
  if (!whole && at === 0) return [];
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    if (end < 0) break; // a torn last line: ignored, as the whole read ignores it
    const f = text.slice(at, end).split(' ');
    const abs = start + at;
    if (f[0] === 'h' && f.length === 3 && f[2]!.length === 43) {
      const index = Number(f[1]);
      if (!Number.isSafeInteger(index) || String(index) !== f[1]) return null;
      out.push({ at: abs, kind: 'h', index, hash: f[2]! });
    } else if (f[0] === 's' && f.length === 5) {
      const count = Number(f[1]);
      if (!Number.isSafeInteger(count) || count < 1) return null;
      out.push({ at: abs, kind: 's', sig: { count, head: f[2]!, did: f[3]!, signature: f[4]!, line: 0 } });
    } else if ((f[0] === 'l' || f[0] === 'i') && f.length === 3) {
      const from = Number(f[1]);
      const to = Number(f[2]);
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) return null;
      out.push({ at: abs, kind: f[0], marker: { kind: f[0], from, to } });
    } else return null;
    at = end + 1;
  }
  return out;
}

/**
 * The chain from these lines, or 'more' when they do not reach back to the hash the last
 * signature covers last, or null when they are not what a writer leaves.
 */
function tailOf(raw: string, start: number, whole: boolean, header: Header): ChainTail | null | 'more' {
  const text = withoutZeroTail(raw);
  const lines = linesOf(text, start, whole);
  if (lines === null) return null;
  // Hashes are numbered in order, without a gap, and each signature covers hashes already written.
  const first = lines.find((l) => l.kind === 'h')?.index;
  if (first === undefined) return 'more';
  let next = first;
  let lastCount = 0;
  for (const l of lines) {
    if (l.kind === 'h') {
      if (l.index !== next) return null;
      next++;
    } else if (l.kind === 's') {
      if (l.sig!.count > next || l.sig!.count < lastCount) return null;
      lastCount = l.sig!.count;
    }
  }
  const count = next;
  const last = lines.findLast((l) => l.kind === 's')?.sig;
  // The hash the last signature covers last must be among the lines read: what follows it is the
  // whole of what the writer changes or continues.
  if (!last || last.count - 1 < first) return whole ? null : 'more';
  // The writer resumes from the head it states; one that is not a head is left to the whole read.
  if (Buffer.from(last.head, 'base64url').length !== 32) return null;
  if (count > last.count) {
    // The hashes no signature covers are cut, from the first hash or range past the signed ones.
    const signedEnd = lines.findIndex((l) => l.kind === 'h' && l.index === last.count - 1);
    const cut = lines.slice(signedEnd + 1).find((l) => l.kind !== 's');
    // What the cut leaves is read again, as the whole read parses the cut text again.
    if (cut) return tailOf(text.slice(0, cut.at - start), start, whole, header);
  }
  const hashes: string[] = [];
  const lastHash = lines.findLast((l) => l.kind === 'h')!.index!;
  // A sparse array as long as the file's count: only the entries read are set.
  hashes.length = lastHash + 1;
  for (const l of lines) if (l.kind === 'h') hashes[l.index!] = l.hash!;
  const markers = lines.filter((l) => l.marker).map((l) => l.marker!);
  const parsed: ChainFile = {
    version: header.version,
    conversation: header.conversation,
    hashes,
    signatures: lines.filter((l) => l.sig).map((l) => l.sig!),
    late: markers.filter((m) => m.kind === 'l'),
    imported: markers.filter((m) => m.kind === 'i'),
    markers,
    fork: null,
    malformed: null,
    cutShort: text !== raw || !text.endsWith('\n'),
  };
  return { parsed, keep: start + text.lastIndexOf('\n') + 1 };
}
