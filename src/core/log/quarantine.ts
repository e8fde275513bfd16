// Bytes that are not a valid record but have valid records after them are never dropped: they are
// copied to quarantine/<segment>-<offset>.bin (once) and listed, and the slots they cost are served
// as CorruptRecord placeholders so every later record keeps its index.
import fs from 'node:fs';
import path from 'node:path';
import { type QuarantineEntry } from './event-store';
import { type SegmentFiles, segmentName } from './segment-files';

export interface GarbageRange {
  segPos: number;
  offset: number;
  size: number;
  reason: string;
}

export class Quarantine {
  readonly entries: QuarantineEntry[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly files: SegmentFiles,
    private readonly writable: boolean,
    private readonly onEntry?: (q: QuarantineEntry) => void,
  ) {}

  /** Records a garbage range (idempotent per segment+offset); copies its bytes when writable. */
  add(g: GarbageRange, index: number, slots: number): void {
    const segNo = this.files.noAt(g.segPos);
    const key = `${segNo}:${g.offset}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    let file: string | null = null;
    if (this.writable && g.size > 0) {
      file = path.join(this.dir, `${segmentName(segNo).replace('.log', '')}-${g.offset}.bin`);
      if (!fs.existsSync(file)) {
        fs.mkdirSync(this.dir, { recursive: true });
        const buf = Buffer.allocUnsafe(g.size);
        const n = this.files.read(g.segPos, buf, 0, g.size, g.offset);
        fs.writeFileSync(file, buf.subarray(0, n));
      }
    }
    const entry: QuarantineEntry = {
      index,
      slots,
      segment: segmentName(segNo),
      offset: g.offset,
      bytes: g.size,
      reason: g.reason,
      file,
    };
    this.entries.push(entry);
    this.onEntry?.(entry);
  }
}
