// Reads records forward from a (segment, offset), through later segments, in chunks.
// It reports what the bytes are, not what they mean: a valid record (framing and crc hold) or a
// run of garbage up to the next valid record (or the end of the segment). Deciding whether
// garbage is a torn tail or a hole in the middle, and which slots it cost, is the store's job.
import { type Framed, crcMatches, frameAt, MAX_HEADER, NL } from './record-format';
import { type SegmentFiles } from './segment-files';

export interface CursorRecord {
  type: 'record';
  seq: number;
  segPos: number;
  offset: number;
  size: number;
  /** valid until the next call to next() */
  buf: Buffer;
  jsonStart: number;
  jsonLen: number;
}

export interface CursorGarbage {
  type: 'garbage';
  segPos: number;
  offset: number;
  size: number;
  reason: string;
}

export type CursorItem = CursorRecord | CursorGarbage;

export class SegmentCursor {
  private chunk: Buffer;
  private chunkPos = -1;
  private chunkStart = 0;
  private chunkLen = 0;

  constructor(
    private readonly files: SegmentFiles,
    public segPos: number,
    public offset: number,
    private readonly chunkSize = 64 * 1024,
  ) {
    this.chunk = Buffer.allocUnsafe(chunkSize);
  }

  next(): CursorItem | null {
    for (;;) {
      if (this.segPos >= this.files.count) return null;
      const size = this.files.sizeAt(this.segPos);
      if (this.offset >= size) {
        if (this.segPos + 1 >= this.files.count) return null;
        this.segPos++;
        this.offset = 0;
        continue;
      }
      const start = this.offset;
      const f = this.frame(start, size);
      if (typeof f !== 'string') {
        this.offset += f.size;
        return {
          type: 'record',
          seq: f.seq,
          segPos: this.segPos,
          offset: start,
          size: f.size,
          buf: this.chunk,
          jsonStart: f.jsonStart,
          jsonLen: f.jsonLen,
        };
      }
      const end = this.resync(start + 1, size);
      this.offset = end;
      return { type: 'garbage', segPos: this.segPos, offset: start, size: end - start, reason: f };
    }
  }

  /** Makes the chunk hold [off, off + minLen) of the current segment, or up to its end. */
  private load(off: number, minLen: number, size: number): void {
    const want = Math.min(off + minLen, size);
    if (this.chunkPos === this.segPos && off >= this.chunkStart && want <= this.chunkStart + this.chunkLen)
      return;
    const len = Math.min(Math.max(minLen, this.chunkSize), size - off);
    if (this.chunk.length < len) this.chunk = Buffer.allocUnsafe(Math.max(len, this.chunk.length * 2));
    this.chunkLen = this.files.read(this.segPos, this.chunk, 0, len, off);
    this.chunkStart = off;
    this.chunkPos = this.segPos;
  }

  /** A verified record at `off`, or why there is none. */
  private frame(off: number, size: number): Framed | string {
    let need = MAX_HEADER;
    for (;;) {
      this.load(off, need, size);
      const rel = off - this.chunkStart;
      const f = frameAt(this.chunk, rel, this.chunkLen);
      if (f === 'bad') return 'malformed record';
      if (f === 'short') {
        const avail = this.chunkStart + this.chunkLen - off;
        if (this.chunkStart + this.chunkLen >= size || avail < need) return 'incomplete record (torn write)';
        need = avail * 2;
        continue;
      }
      if (!crcMatches(this.chunk, rel, f)) return 'checksum mismatch';
      return f;
    }
  }

  /** Offset of the next valid record at or after `from` in this segment (after a newline), else size. */
  private resync(from: number, size: number): number {
    let p = from;
    while (p < size) {
      this.load(p, 1, size);
      const rel = this.chunk.subarray(0, this.chunkLen).indexOf(NL, p - this.chunkStart);
      if (rel < 0) {
        p = this.chunkStart + this.chunkLen;
        continue;
      }
      const cand = this.chunkStart + rel + 1;
      if (cand >= size) return size;
      if (typeof this.frame(cand, size) !== 'string') return cand;
      p = cand;
    }
    return size;
  }
}
