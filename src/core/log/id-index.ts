// id -> index without keeping every id string in memory or reading every record at open:
// `ids.idx` holds one u32 per record, crc32(id), in record order. It is loaded lazily (first
// append or id lookup), into a hash -> index map; a hit is confirmed by reading the record's id,
// because 32-bit hashes collide (about n / 4e9 per lookup, so confirmation reads are rare).
// Only the prefix covered by the last checkpoint is trusted; the rest is recomputed from the log.
import fs from 'node:fs';
import { crc32 } from './record-format';
import { writeAllSync, fdatasync } from './sparse-index';

export function idHash(id: string): number {
  return crc32(id);
}

export class IdIndex {
  /** hash -> index, or -> list of indices when hashes collide within the log */
  private readonly map = new Map<number, number | number[]>();
  private fileCount = 0;
  private pending: number[] = [];
  private covered = 0;

  private constructor(
    private readonly fd: number,
    private readonly writable: boolean,
  ) {}

  /** Loads the first `trusted` hashes and drops whatever the file holds beyond them. */
  static load(file: string, writable: boolean, trusted: number): IdIndex {
    const exists = fs.existsSync(file);
    if (!exists && !writable) return new IdIndex(-1, false);
    const fd = fs.openSync(file, writable ? (exists ? 'r+' : 'w+') : 'r');
    const idx = new IdIndex(fd, writable);
    const size = fs.fstatSync(fd).size;
    const n = Math.min(Math.floor(size / 4), trusted);
    if (writable && size !== n * 4) fs.ftruncateSync(fd, n * 4);
    if (n > 0) {
      const buf = Buffer.allocUnsafeSlow(n * 4); // unpooled: Uint32Array needs an aligned offset
      let got = 0;
      while (got < buf.length) {
        const r = fs.readSync(fd, buf, got, buf.length - got, got);
        if (r === 0) break;
        got += r;
      }
      const hashes = new Uint32Array(buf.buffer, buf.byteOffset, Math.floor(got / 4));
      for (let i = 0; i < hashes.length; i++) idx.put(hashes[i]!, i);
      idx.fileCount = hashes.length;
      idx.covered = hashes.length;
    }
    return idx;
  }

  /** records [0, covered) are in the map */
  get coveredCount(): number {
    return this.covered;
  }

  private put(h: number, i: number): void {
    const cur = this.map.get(h);
    if (cur === undefined) this.map.set(h, i);
    else if (typeof cur === 'number') this.map.set(h, [cur, i]);
    else cur.push(i);
  }

  /** Adds the hash for record `covered` (records must be added in order). */
  add(hash: number): void {
    this.put(hash, this.covered);
    this.covered++;
    if (this.writable) this.pending.push(hash);
  }

  /** Indices whose id has this hash (to be confirmed by the caller). */
  candidates(hash: number): readonly number[] {
    const cur = this.map.get(hash);
    if (cur === undefined) return [];
    return typeof cur === 'number' ? [cur] : cur;
  }

  /** Drops records >= count. */
  truncate(count: number): void {
    if (count >= this.covered) return;
    for (const [h, v] of this.map) {
      if (typeof v === 'number') {
        if (v >= count) this.map.delete(h);
      } else {
        const kept = v.filter((i) => i < count);
        if (kept.length === 0) this.map.delete(h);
        else this.map.set(h, kept.length === 1 ? kept[0]! : kept);
      }
    }
    this.covered = count;
    if (count >= this.fileCount) this.pending.length = count - this.fileCount;
    else {
      this.pending = [];
      this.fileCount = count;
      if (this.writable) fs.ftruncateSync(this.fd, count * 4);
    }
  }

  writePending(): void {
    if (!this.writable || this.pending.length === 0) return;
    const buf = Buffer.from(Uint32Array.from(this.pending).buffer);
    writeAllSync(this.fd, buf, this.fileCount * 4);
    this.fileCount += this.pending.length;
    this.pending = [];
  }

  /** hashes durable after the next sync() */
  get writtenCount(): number {
    return this.fileCount;
  }

  sync(): Promise<void> {
    return this.writable ? fdatasync(this.fd) : Promise.resolve();
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
  }
}
