// One record = one line a person can grep:
//
//   <crc32 of the rest, 8 lowercase hex> <seq> <byte length of json> <json>\n
//
// `seq` is the record's index in the whole log, so every record says where it belongs: a reader can
// tell a lost record from a torn one, and a sparse-index entry can be checked against the file.
// The crc covers "<seq> <length> <json>", so a flipped digit in the header is caught too.
import zlib from 'node:zlib';

type Crc32 = (data: Uint8Array | string, value?: number) => number;
// Read at the first record, not at load: node:zlib takes milliseconds to load, and activation needs none.
let nativeCrc: Crc32 | null | undefined;

let table: Uint32Array | undefined;
function crcTable(): Uint32Array {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  return table;
}

export function tableCrc32(data: Uint8Array, value = 0): number {
  const t = crcTable();
  let c = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * zlib.crc32 (Node >= 20.15) when present, else a table-driven fallback with the same result.
 * `value`: the crc of what came before, to continue it.
 */
export function crc32(data: Uint8Array | string, value = 0): number {
  if (nativeCrc === undefined) nativeCrc = (zlib as { crc32?: Crc32 }).crc32 ?? null;
  if (nativeCrc) return nativeCrc(data, value) >>> 0;
  return tableCrc32(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, value);
}

/** crc32's table as signed words: the loop below then stays in 32-bit integers. */
let signedTable: Int32Array | undefined;
/** Strings longer than this go to the native crc32: below it, its call costs more than the loop. */
const SHORT_TEXT = 64;

/**
 * crc32 of a string's UTF-8 bytes, the same value as crc32(text). An event id is hashed at every
 * append, and an ASCII id is its own UTF-8: the table loop over its char codes takes about two thirds
 * of the native call's time for a UUID, which checks its arguments and converts the string first.
 */
export function crc32Text(text: string): number {
  if (text.length > SHORT_TEXT) return crc32(text);
  const t = (signedTable ??= Int32Array.from(crcTable()));
  let c = -1;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (u > 0x7f) return crc32(text);
    c = t[(c ^ u) & 0xff]! ^ (c >>> 8);
  }
  return (c ^ -1) >>> 0;
}

export const NL = 0x0a;
const SP = 0x20;
/** 8 hex + space + up to 15 digits + space + up to 15 digits + space */
export const MAX_HEADER = 8 + 1 + 15 + 1 + 15 + 1;

export function encodeRecord(seq: number, json: string): Buffer {
  const enc = new RecordEncoder();
  const size = enc.encodeInPlace(seq, json);
  return Buffer.from(enc.buf.subarray(enc.start, enc.start + size));
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Writes `v` (a non-negative safe integer) in decimal so that it ends just before `end`; returns its start. */
function decimalBefore(b: Buffer, end: number, v: number): number {
  let p = end;
  do {
    const d = v % 10;
    b[--p] = 0x30 + d;
    v = (v - d) / 10;
  } while (v > 0);
  return p;
}

/**
 * Encodes records into one reusable buffer (appends are the hot path; a fresh Buffer per record
 * is mostly garbage-collector work). The json is converted to UTF-8 once, after room for the
 * longest header; the header is then written byte by byte right-aligned against it.
 */
export class RecordEncoder {
  buf = Buffer.allocUnsafeSlow(64 * 1024);
  /** where the last encoded record starts in `buf` */
  start = 0;

  /** Encodes into `buf` at `start`; returns the record's size. Valid until the next encode. */
  encodeInPlace(seq: number, json: string): number {
    // Worst case 3 UTF-8 bytes per UTF-16 unit.
    const need = MAX_HEADER + json.length * 3 + 1;
    if (this.buf.length < need) this.buf = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2));
    const b = this.buf;
    const end = MAX_HEADER + b.write(json, MAX_HEADER, 'utf8');
    b[end] = NL;
    b[MAX_HEADER - 1] = SP;
    let p = decimalBefore(b, MAX_HEADER - 1, end - MAX_HEADER);
    b[--p] = SP;
    p = decimalBefore(b, p, seq);
    let crc = crc32(b.subarray(p, end));
    b[--p] = SP;
    for (let i = 0; i < 8; i++) {
      b[--p] = HEX[crc & 15]!;
      crc >>>= 4;
    }
    this.start = p;
    return end + 1 - p;
  }

  /** The record as a view of the reused buffer, valid until the next encode. */
  encode(seq: number, json: string): Buffer {
    const size = this.encodeInPlace(seq, json);
    return this.buf.subarray(this.start, this.start + size);
  }
}

export interface Framed {
  seq: number;
  /** whole record size including header and newline */
  size: number;
  /** offset of the json within the buffer */
  jsonStart: number;
  jsonLen: number;
  crc: number;
}

/** 'short': more bytes are needed to decide; 'bad': these bytes cannot start a record. */
export type FrameResult = Framed | 'short' | 'bad';

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Parses the header at `pos` and checks the trailing newline; does not check the crc. */
export function frameAt(buf: Uint8Array, pos: number, end: number): FrameResult {
  if (end - pos < 9) {
    for (let i = pos; i < end; i++) if (hexVal(buf[i]!) < 0) return 'bad';
    return 'short';
  }
  let crc = 0;
  for (let i = 0; i < 8; i++) {
    const v = hexVal(buf[pos + i]!);
    if (v < 0) return 'bad';
    crc = crc * 16 + v;
  }
  if (buf[pos + 8] !== SP) return 'bad';
  let p = pos + 9;
  const seq = readDecimal(buf, p, end);
  if (typeof seq === 'string') return seq;
  p = seq.next;
  const len = readDecimal(buf, p, end);
  if (typeof len === 'string') return len;
  p = len.next;
  const recordEnd = p + len.value;
  if (recordEnd >= end) return 'short';
  if (buf[recordEnd] !== NL) return 'bad';
  return { seq: seq.value, size: recordEnd + 1 - pos, jsonStart: p, jsonLen: len.value, crc };
}

/** Reads digits followed by one space. */
function readDecimal(
  buf: Uint8Array,
  p: number,
  end: number,
): { value: number; next: number } | 'short' | 'bad' {
  let v = 0;
  let digits = 0;
  for (;;) {
    if (p >= end) return 'short';
    const c = buf[p]!;
    if (c === SP) break;
    if (c < 0x30 || c > 0x39 || digits >= 15) return 'bad';
    v = v * 10 + (c - 0x30);
    digits++;
    p++;
  }
  if (digits === 0 || (digits > 1 && buf[p - digits] === 0x30)) return 'bad';
  return { value: v, next: p + 1 };
}

/** True when the crc in the header matches the rest of the line. */
export function crcMatches(buf: Uint8Array, pos: number, f: Framed): boolean {
  return crc32(buf.subarray(pos + 9, pos + f.size - 1)) === f.crc;
}

export function jsonOf(buf: Buffer, f: Framed): string {
  return buf.toString('utf8', f.jsonStart, f.jsonStart + f.jsonLen);
}
