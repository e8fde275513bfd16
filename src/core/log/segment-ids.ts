// Finding a record by its id in a segment log: ids.idx (crc32 of each record's id, id-index.ts),
// loaded on first need, and the ids of recent records, known without reading them back.
import type { StoredEvent } from './event-store';
import { IdIndex, idHash } from './id-index';
import { RecentIds } from './recent-ids';
import type { SegmentReader } from './segment-reader';

export class SegmentIds<E extends StoredEvent> {
  private index: IdIndex | null = null;
  private readonly recent = new RecentIds(4096);
  /** the seq of the last record `add` indexed, -1 before the first */
  private lastSeq = -1;

  constructor(
    private readonly file: string,
    private readonly writable: boolean,
    private readonly reader: SegmentReader<E>,
    /** Records the log holds now, and how many of them ids.idx covers on disk (the checkpoint). */
    private readonly extent: () => { length: number; checkpoint: number },
  ) {}

  /** Whether ids.idx is loaded: none means no append and no lookup since open. */
  get loaded(): boolean {
    return this.index !== null;
  }

  /** Loads ids.idx on first need and derives the hashes the file lacks from the log. */
  ensure(): IdIndex {
    if (this.index) return this.index;
    const { length, checkpoint } = this.extent();
    const ids = IdIndex.load(this.file, this.writable, Math.min(checkpoint, length));
    if (ids.coveredCount < length) {
      this.reader.walk(ids.coveredCount, length, (seq, slot) => {
        if (this.reader.corrupt.has(seq)) ids.add(0);
        else {
          ids.add(idHash(slot.id));
          this.recent.add(slot.id, seq);
        }
      });
    }
    this.index = ids;
    return ids;
  }

  /** The index of the record with `id`, or -1. */
  find(id: string, hash = idHash(id)): number {
    const index = this.ensure();
    if (!index.mightHave(hash)) return -1;
    const cands = index.candidates(hash);
    for (let i = 0; i < cands.length; i++) {
      const c = cands[i]!;
      if (this.reader.corrupt.has(c)) continue;
      // A recent record's id is known without reading the record (the common case at append).
      if ((this.recent.idAt(c) ?? this.reader.readOne(c).id) === id) return c;
    }
    return -1;
  }

  /**
   * Whether a readable record has `id`. The record appended last is checked first, without
   * hashing: it is the parent of most events (an observation's action, a reply's message).
   */
  has(id: string): boolean {
    if (this.lastSeq >= 0 && this.recent.idAt(this.lastSeq) === id) return true;
    return this.find(id) >= 0;
  }

  /** Indexes a record just appended (after `find` has loaded the index). */
  add(hash: number, id: string, seq: number): void {
    this.index!.add(hash);
    this.recent.add(id, seq);
    this.lastSeq = seq;
  }

  writePending(): void {
    this.index?.writePending();
  }

  async sync(): Promise<void> {
    await this.index?.sync();
  }

  close(): void {
    this.index?.close();
  }
}
