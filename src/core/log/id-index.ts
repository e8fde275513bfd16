// id -> index without keeping every id string in memory or reading every record at open:
// `ids.idx` holds one u32 per record, crc32(id), in record order (little-endian). It is loaded
// lazily (first append or id lookup). The first lookups scan the hashes (a few tens of µs at 100k);
// only a process that looks up many ids builds the open-addressing table of typed arrays (a JS Map of
// 100k entries takes ~20 ms to build; the table several ms, more than a short run's lookups cost).
// A hit is confirmed by the caller reading the record's id, because 32-bit hashes collide (about
// n / 4e9 per lookup, so such reads are rare).
// Only the prefix covered by the last checkpoint is trusted; the rest is recomputed from the log.
// A writer's appends ask a Bloom filter (id-filter.ts) whether their id is new, so they seldom probe
// the table; the table takes in the hashes appended since at its next lookup.
import fs from 'node:fs';
import { IdFilter } from './id-filter';
import { crc32Text } from './record-format';
import { writeAllSync, fdatasync } from './sparse-index';

export function idHash(id: string): number {
  return crc32Text(id);
}

/**
 * hash -> record indices; linear probing, load factor <= 1/2. Each slot is a (hash, index) pair
 * side by side in one array, so a probe reads one cache line, not one in each of two arrays: the
 * table is probed at every append (W1).
 */
class HashSlots {
  /** slot k: its hash at 2k, its record index at 2k+1 (-1: empty) */
  private slots: Int32Array;
  private mask: number;
  private count = 0;
  private readonly found: number[] = [];

  constructor(expected: number) {
    let cap = 1024;
    while (cap < expected * 2) cap *= 2;
    this.slots = HashSlots.empty(cap);
    this.mask = cap - 1;
  }

  private static empty(cap: number): Int32Array {
    return new Int32Array(2 * cap).fill(-1);
  }

  /** a cheap mix, so sequential-looking hashes still spread over the table */
  private start(h: number): number {
    return Math.imul(h ^ (h >>> 16), 0x45d9f3b) & this.mask;
  }

  insert(h: number, index: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    const slots = this.slots;
    let p = this.start(h);
    while (slots[2 * p + 1] !== -1) p = (p + 1) & this.mask;
    slots[2 * p] = h | 0;
    slots[2 * p + 1] = index;
    this.count++;
  }

  /**
   * every index stored under `h`, in one array reused by the next call (appends look up two ids
   * each, and a fresh array per lookup was garbage for the collector)
   */
  find(h: number): readonly number[] {
    const out = this.found;
    out.length = 0;
    const { slots, mask } = this;
    const key = h | 0;
    let p = this.start(h);
    for (let v = slots[2 * p + 1]!; v !== -1; v = slots[2 * p + 1]!) {
      if (slots[2 * p] === key) out.push(v);
      p = (p + 1) & mask;
    }
    return out;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = HashSlots.empty(old.length * 2);
    this.mask = old.length - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== -1) this.insert(old[i]! >>> 0, old[i + 1]!);
  }
}

/** Lookups answered by scanning the hashes before the table is built: its build costs about as much. */
const SCANS_BEFORE_TABLE = 128;

export class IdIndex {
  /** every record's hash, in order (scanned before the table is built; kept to rebuild it after a truncation) */
  private hashes: Uint32Array;
  /**
   * built after SCANS_BEFORE_TABLE lookups; holds the first `tableCovered` hashes, and takes in the
   * rest at the next lookup (appends only check the filter, so they never probe the table)
   */
  private table: HashSlots | null = null;
  private tableCovered = 0;
  /** built at the first `mightHave`, then kept up to date by `add` (null again when it must grow) */
  private filter: IdFilter | null = null;
  private questions = 0;
  private scans = 0;
  private readonly found: number[] = [];
  private readonly needle = new Uint32Array(1);
  private fileCount = 0;
  private covered = 0;

  private constructor(
    private readonly fd: number,
    private readonly writable: boolean,
    initial: Uint32Array,
  ) {
    this.hashes = new Uint32Array(Math.max(1024, initial.length * 2));
    this.hashes.set(initial);
    this.fileCount = initial.length;
    this.covered = initial.length;
  }

  /** Loads the first `trusted` hashes and drops whatever the file holds beyond them. */
  static load(file: string, writable: boolean, trusted: number): IdIndex {
    const exists = fs.existsSync(file);
    if (!exists && !writable) return new IdIndex(-1, false, new Uint32Array(0));
    const fd = fs.openSync(file, writable ? (exists ? 'r+' : 'w+') : 'r');
    const size = fs.fstatSync(fd).size;
    const n = Math.min(Math.floor(size / 4), trusted);
    if (writable && size !== n * 4) fs.ftruncateSync(fd, n * 4);
    const buf = Buffer.allocUnsafeSlow(n * 4); // unpooled: Uint32Array needs an aligned offset
    let got = 0;
    while (got < buf.length) {
      const r = fs.readSync(fd, buf, got, buf.length - got, got);
      if (r === 0) break;
      got += r;
    }
    return new IdIndex(fd, writable, new Uint32Array(buf.buffer, buf.byteOffset, Math.floor(got / 4)));
  }

  /** records [0, covered) are in the table */
  get coveredCount(): number {
    return this.covered;
  }

  /** Adds the hash for record `covered` (records must be added in order). */
  add(hash: number): void {
    if (this.covered === this.hashes.length) {
      const bigger = new Uint32Array(this.hashes.length * 2);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[this.covered] = hash;
    this.covered++;
    const f = this.filter;
    if (f) {
      if (f.full) this.filter = null;
      else f.add(hash);
    }
  }

  /**
   * False when no record has this hash (the common answer for a new id); true when one may have.
   * The filter is built at the SCANS_BEFORE_TABLE-th question: a process that asks a few (a short
   * run's appends, one `--at ID`) is answered by scanning the hashes, which costs less than building it.
   */
  mightHave(hash: number): boolean {
    if (!this.filter) {
      if (++this.questions <= SCANS_BEFORE_TABLE) return true;
      this.filter = IdFilter.of(this.hashes, this.covered);
    }
    return this.filter.mightHave(hash);
  }

  /** Indices whose id has this hash (to be confirmed by the caller), valid until the next call. */
  candidates(hash: number): readonly number[] {
    if (!this.table && ++this.scans > SCANS_BEFORE_TABLE) {
      this.table = this.tableOf(this.covered);
      this.tableCovered = this.covered;
    }
    if (!this.table) return this.scan(hash);
    for (; this.tableCovered < this.covered; this.tableCovered++) {
      this.table.insert(this.hashes[this.tableCovered]!, this.tableCovered);
    }
    return this.table.find(hash);
  }

  /** Every index holding `hash`, found by a byte search of the hashes (native, far faster than a loop). */
  private scan(hash: number): readonly number[] {
    const out = this.found;
    out.length = 0;
    this.needle[0] = hash;
    const needle = new Uint8Array(this.needle.buffer);
    const bytes = Buffer.from(this.hashes.buffer, this.hashes.byteOffset, this.covered * 4);
    // A match may straddle two hashes: only one at a multiple of 4 is a record's.
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
      if (at % 4 === 0) out.push(at / 4);
    }
    return out;
  }

  private tableOf(count: number): HashSlots {
    // Room for a few thousand appends before the first rehash: a writer's table keeps growing.
    const table = new HashSlots(Math.max(count + 1024, 8192));
    for (let i = 0; i < count; i++) table.insert(this.hashes[i]!, i);
    return table;
  }

  /** Drops records >= count. */
  truncate(count: number): void {
    if (count >= this.covered) return;
    this.covered = count;
    if (this.table) {
      this.table = this.tableOf(count);
      this.tableCovered = count;
    }
    // A filter may say "maybe" for a dropped hash, never "no" for a kept one; rebuilt smaller at need.
    this.filter = null;
    if (count < this.fileCount) {
      this.fileCount = count;
      if (this.writable) fs.ftruncateSync(this.fd, count * 4);
    }
  }

  /** Writes the hashes not yet in the file (no sync: a lost write is recomputed after a crash). */
  writePending(): void {
    if (!this.writable || this.covered === this.fileCount) return;
    const part = this.hashes.subarray(this.fileCount, this.covered);
    writeAllSync(this.fd, new Uint8Array(part.buffer, part.byteOffset, part.byteLength), this.fileCount * 4);
    this.fileCount = this.covered;
  }

  sync(): Promise<void> {
    return this.writable ? fdatasync(this.fd) : Promise.resolve();
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
  }
}
