// Sparse index: entry k locates record k*stride as (segment number, byte offset). Entries are
// fixed-size, so entry k is read with one pread and the last one is found from the file size;
// nothing is loaded at open. Each entry carries its seq and its own crc, so a damaged or stale
// entry is detected rather than followed. The file is only a cache of the segments: entries past
// the last checkpoint are dropped at open and re-derived from the log, and a damaged file is rebuilt.
import fs from 'node:fs';
import { crc32 } from './record-format';

export const ENTRY_SIZE = 16;

export interface SparseEntry {
  seq: number;
  segNo: number;
  offset: number;
}

export class SparseIndex {
  /** entries in the file (all trusted after open) */
  private fileCount = 0;
  /** entries added since, not yet written */
  private pending: SparseEntry[] = [];
  private readonly cache = new Map<number, SparseEntry>();
  private readonly scratch = Buffer.alloc(ENTRY_SIZE);

  private constructor(
    private readonly fd: number,
    readonly stride: number,
    private readonly writable: boolean,
  ) {}

  /** Opens (creating when writable) and keeps at most `trusted` entries. */
  static open(file: string, stride: number, writable: boolean, trusted: number): SparseIndex {
    const exists = fs.existsSync(file);
    // Read-only and no file: keep the entries derived by the open scan in memory only.
    if (!exists && !writable) return new SparseIndex(-1, stride, false);
    const fd = fs.openSync(file, writable ? (exists ? 'r+' : 'w+') : 'r');
    const idx = new SparseIndex(fd, stride, writable);
    const inFile = Math.floor(fs.fstatSync(fd).size / ENTRY_SIZE);
    idx.fileCount = Math.min(inFile, trusted);
    if (writable && fs.fstatSync(fd).size !== idx.fileCount * ENTRY_SIZE) {
      fs.ftruncateSync(fd, idx.fileCount * ENTRY_SIZE);
    }
    return idx;
  }

  get count(): number {
    return this.fileCount + this.pending.length;
  }

  /** The entry, or null if it fails its own checks (damaged file). */
  get(k: number): SparseEntry | null {
    if (k < 0 || k >= this.count) return null;
    if (k >= this.fileCount) return this.pending[k - this.fileCount]!;
    const hit = this.cache.get(k);
    if (hit) return hit;
    const n = fs.readSync(this.fd, this.scratch, 0, ENTRY_SIZE, k * ENTRY_SIZE);
    if (n !== ENTRY_SIZE) return null;
    const b = this.scratch;
    const seq = b.readUInt32LE(0);
    if (crc32(b.subarray(0, 12)) !== b.readUInt32LE(12) || seq !== k * this.stride) return null;
    const e = { seq, segNo: b.readUInt32LE(4), offset: b.readUInt32LE(8) };
    if (this.cache.size > 4096) this.cache.clear();
    this.cache.set(k, e);
    return e;
  }

  /** Adds the entry for the next multiple of stride; ignores anything else. */
  add(seq: number, segNo: number, offset: number): void {
    if (seq !== this.count * this.stride) return;
    this.pending.push({ seq, segNo, offset });
  }

  /** Drops entries >= count (the log was truncated below them). */
  truncate(count: number): void {
    if (count >= this.count) return;
    if (count >= this.fileCount) {
      this.pending.length = count - this.fileCount;
      return;
    }
    this.pending = [];
    this.fileCount = count;
    for (const k of this.cache.keys()) if (k >= count) this.cache.delete(k);
    if (this.writable) fs.ftruncateSync(this.fd, count * ENTRY_SIZE);
  }

  /** Writes pending entries (no sync: a lost write is re-derived at the next open). */
  writePending(): void {
    if (!this.writable || this.pending.length === 0) return;
    const buf = Buffer.alloc(this.pending.length * ENTRY_SIZE);
    this.pending.forEach((e, i) => {
      const o = i * ENTRY_SIZE;
      buf.writeUInt32LE(e.seq, o);
      buf.writeUInt32LE(e.segNo, o + 4);
      buf.writeUInt32LE(e.offset, o + 8);
      buf.writeUInt32LE(crc32(buf.subarray(o, o + 12)), o + 12);
    });
    writeAllSync(this.fd, buf, this.fileCount * ENTRY_SIZE);
    this.fileCount += this.pending.length;
    this.pending = [];
  }

  sync(): Promise<void> {
    return this.writable ? fdatasync(this.fd) : Promise.resolve();
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
  }
}

export function writeAllSync(fd: number, buf: Uint8Array, position: number): void {
  let done = 0;
  while (done < buf.length) {
    done += fs.writeSync(fd, buf, done, buf.length - done, position + done);
  }
}

export function fdatasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
}
