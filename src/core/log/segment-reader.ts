// The read side of a segment log: finds any record from the nearest known position (the
// positions table for the session's tail, else the sparse index), reads forward, and turns what it
// cannot read into CorruptRecord slots (quarantining the bytes) so indices never shift.
import {
  type CorruptRecord,
  type EventCodec,
  type Slot,
  type StoredEvent,
  EventStoreError,
  corruptRecord,
} from './event-store';
import { PosTable } from './pos-table';
import { type Quarantine } from './quarantine';
import { type CursorGarbage, type CursorRecord, SegmentCursor } from './segment-cursor';
import { type SegmentFiles } from './segment-files';
import { type ScanHooks, type ScanStart, scanForward, staleAsGarbage } from './segment-recovery';
import { type SparseIndex } from './sparse-index';

/** Positions this close together are read by readAt in one walk. */
const READ_AT_GAP = 64;

export class SegmentReader<E extends StoredEvent> {
  /** slots known to be unreadable */
  readonly corrupt = new Map<number, CorruptRecord>();
  /** positions of the records seen this session (set up by the open scan) */
  table = new PosTable(0);

  constructor(
    private readonly files: SegmentFiles,
    private readonly sparse: SparseIndex,
    private readonly stride: number,
    private readonly codec: EventCodec<E>,
    private readonly quarantine: Quarantine,
    private readonly writable: boolean,
  ) {}

  readOne(index: number): Slot<E> {
    let out: Slot<E> | undefined;
    this.walk(index, index + 1, (_s, slot) => (out = slot));
    return out!;
  }

  /**
   * The slots at these positions (each inside the log), in increasing order, each once. Positions
   * close together are read in one walk that does not decode the records between them; far-apart
   * ones are located afresh, which costs less than reading the gap.
   */
  readAt(positions: readonly number[]): Slot<E>[] {
    const at = new Set(positions);
    const sorted = [...at].sort((x, y) => x - y);
    const keep = (seq: number) => at.has(seq);
    const out: Slot<E>[] = [];
    for (let i = 0; i < sorted.length;) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1]! - sorted[j]! <= READ_AT_GAP) j++;
      this.walk(sorted[i]!, sorted[j]! + 1, (_seq, slot) => out.push(slot), keep);
      i = j + 1;
    }
    return out;
  }

  /**
   * Emits slots [from, to) in order, reading sequentially from the nearest known position. With
   * `wanted`, only the slots it accepts are emitted, and the records it skips are not decoded (the
   * costly part of a read that passes over many records).
   */
  walk(
    from: number,
    to: number,
    emit: (seq: number, slot: Slot<E>) => void,
    wanted?: (seq: number) => boolean,
  ): void {
    const out = wanted ? (seq: number, slot: Slot<E>) => wanted(seq) && emit(seq, slot) : emit;
    let seq = from;
    while (seq < to) {
      const c = this.corrupt.get(seq);
      if (c) {
        out(seq, c);
        seq++;
      } else seq = this.walkRun(seq, to, out, wanted);
    }
  }

  private walkRun(
    from: number,
    to: number,
    emit: (seq: number, slot: Slot<E>) => void,
    wanted?: (seq: number) => boolean,
  ): number {
    const start = this.locate(from);
    const cur = new SegmentCursor(this.files, start.segPos, start.offset, 256 * 1024);
    let expected = start.seq;
    let pending: CursorGarbage[] = [];
    let seq = from;
    while (seq < to) {
      const item = cur.next();
      if (!item) {
        this.registerGap(expected, to, pending, 'record missing');
        for (; seq < to; seq++) emit(seq, this.corrupt.get(seq)!);
        return seq;
      }
      if (item.type === 'garbage') {
        pending.push(item);
        continue;
      }
      if (item.seq < expected) {
        pending.push(staleAsGarbage(item.segPos, item.offset, item.size, item.seq));
        continue;
      }
      if (item.seq > expected || pending.length > 0) {
        this.registerGap(expected, item.seq, pending);
        pending = [];
        for (; seq < item.seq && seq < to; seq++) emit(seq, this.corrupt.get(seq)!);
      }
      expected = item.seq + 1;
      if (item.seq === seq && seq < to) {
        if (!wanted || wanted(seq)) emit(seq, this.decode(item));
        seq++;
      }
    }
    return seq;
  }

  private locate(seq: number): ScanStart {
    if (this.table.has(seq)) {
      const segPos = this.files.posOf(this.table.segNo(seq));
      if (segPos >= 0) return { segPos, offset: this.table.offset(seq), seq };
    }
    const k = Math.floor(seq / this.stride);
    let e = this.sparse.get(k);
    if (!e || this.files.posOf(e.segNo) < 0) {
      this.rebuildSparse();
      e = this.sparse.get(k);
    }
    if (!e || this.files.posOf(e.segNo) < 0) {
      throw new EventStoreError('CORRUPT', `cannot locate record ${seq}: the sparse index cannot be rebuilt`);
    }
    return { segPos: this.files.posOf(e.segNo), offset: e.offset, seq: e.seq };
  }

  /** A damaged entry was found by a read: rebuild the whole sparse index from the segments. */
  private rebuildSparse(): void {
    this.sparse.truncate(0);
    scanForward(this.files, { segPos: 0, offset: 0, seq: 0 }, this.scanHooks(false));
    if (this.writable) this.sparse.writePending();
  }

  /** What a forward scan records: sparse entries, holes, and (at open) the positions table. */
  scanHooks(intoTable: boolean): ScanHooks {
    return {
      record: (seq, segNo, offset, size) => {
        if (intoTable) this.table.push(segNo, offset, size);
        this.sparse.add(seq, segNo, offset);
      },
      gap: (a, b, garbage, at) => {
        this.registerGap(a, b, garbage);
        const where = this.gapStart(garbage, at);
        for (let s = a; s < b; s++) {
          if (intoTable) this.table.push(where.segNo, where.offset, 0);
          this.sparse.add(s, where.segNo, where.offset);
        }
      },
    };
  }

  private decode(item: CursorRecord): Slot<E> {
    const text = item.buf.toString('utf8', item.jsonStart, item.jsonStart + item.jsonLen);
    try {
      return this.codec.decode(text, item.seq);
    } catch (err) {
      const c = corruptRecord(item.seq, `record cannot be decoded: ${String(err)}`);
      this.corrupt.set(item.seq, c);
      return c;
    }
  }

  /**
   * Where a lost slot "is": the first garbage byte (so a later read finds the garbage again and
   * reports why) or, when records are simply missing, the next valid record.
   */
  gapStart(
    garbage: CursorGarbage[],
    at: { segNo: number; offset: number },
  ): { segNo: number; offset: number } {
    const g = garbage[0];
    return g ? { segNo: this.files.noAt(g.segPos), offset: g.offset } : at;
  }

  /** Slots [from, to) are unreadable because of `garbage` (or simply absent). */
  registerGap(from: number, to: number, garbage: CursorGarbage[], missing = 'record missing'): void {
    const reason = garbage[0]?.reason ?? missing;
    for (let s = from; s < to; s++) {
      if (!this.corrupt.has(s)) this.corrupt.set(s, corruptRecord(s, reason));
    }
    garbage.forEach((g, i) =>
      this.quarantine.add(g, i === 0 && to > from ? from : -1, i === 0 ? to - from : 0),
    );
  }
}
