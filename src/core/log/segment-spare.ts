// The next segment, opened ahead. Creating a file waits on the file system's journal, a millisecond
// or more while an fsync or a deletion commits (W1 measured 1.4 ms a roll beside other runs' files
// being deleted), and an append that rolls to a new segment should not wait for it. Once the active
// segment is half full, its successor is created in the background as an empty file; the roll takes
// it when its open has reported back, and otherwise creates it at once, as before. A spare left
// empty at close stays: an empty last segment is also what a roll followed by a crash leaves, and
// the next writer continues in it.
import fs from 'node:fs';
import type { SegmentFiles } from './segment-files';

interface Pending {
  no: number;
  /** set when the open reported back in time */
  fd: number | null;
  /** the roll or the close went on without waiting: a late fd is closed at once */
  given: boolean;
  opened: Promise<void>;
}

export class SpareSegment {
  private pending: Pending | null = null;

  constructor(private readonly files: SegmentFiles) {}

  /** Starts creating the segment after the last, unless one is on its way. */
  prepare(): void {
    if (this.pending) return;
    const p: Pending = { no: this.files.nextNo, fd: null, given: false, opened: Promise.resolve() };
    p.opened = new Promise<void>((resolve) => {
      fs.open(this.files.pathOf(p.no), 'wx+', (err, fd) => {
        if (!err) {
          if (p.given) fs.closeSync(fd);
          else p.fd = fd;
        }
        resolve();
      });
    });
    this.pending = p;
  }

  /** The next segment: the one opened ahead if it is ready, else one made now. */
  take(): { no: number; fd: number } {
    const p = this.pending;
    this.pending = null;
    if (!p) return this.files.create();
    p.given = true;
    if (p.fd !== null && p.no === this.files.nextNo) return this.files.adopt(p.no, p.fd);
    if (p.fd !== null) fs.closeSync(p.fd);
    // Its open may have made the file without reporting back yet: an empty one is taken.
    return this.files.create(true);
  }

  /** Waits for an open on its way and closes what it opened; the empty file stays. */
  async close(): Promise<void> {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    p.given = true;
    await p.opened;
    if (p.fd !== null) fs.closeSync(p.fd);
  }
}
