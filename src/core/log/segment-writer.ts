// The write side of a segment log: appends encoded records to the active segment with positional
// writes, rolls to a new segment at the size limit, and syncs whatever was written since the last
// sync (including older segments and new directory entries) when group commit asks. A batching
// writer (a bulk import's) holds records and writes many with one call: a write per record costs
// more than encoding it.
import fs from 'node:fs';
import { RecordEncoder } from './record-format';
import { type SegmentFiles } from './segment-files';
import { SpareSegment } from './segment-spare';
import { fdatasync } from './sparse-index';

export interface SegmentIo {
  write(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number;
  fdatasync(fd: number): Promise<void>;
}

export const defaultIo: SegmentIo = {
  write: (fd, b, o, l, p) => fs.writeSync(fd, b, o, l, p),
  fdatasync,
};

export class SegmentWriter {
  private activeNo: number;
  private activeFd: number;
  private size: number;
  private readonly encoder = new RecordEncoder();
  private readonly dirtyFds = new Set<number>();
  private readonly dirsToSync = new Set<string>();
  /** the active segment has writes that the next sync must cover (its fd is in dirtyFds) */
  private activeDirty = false;
  /** offset of the record written by the last write() */
  lastOffset = 0;
  /**
   * set when a failed write could not be cut off again (the file end is unknown), or when held
   * records could not be written (records the store already counted are missing)
   */
  failure: unknown = null;
  /** records encoded but not yet written, for a batching writer; they start at `heldAt` */
  private readonly held: Buffer | null;
  private heldBytes = 0;
  private heldAt = 0;
  /** why held records never reached the file: every later read and sync fails with it */
  private heldLost: unknown = null;
  /** the next segment, created ahead once the active one passes `spareAt` bytes */
  private readonly spare: SpareSegment;
  private spareAt: number;

  /**
   * Continues the last segment (creating the first one for a new log). With `batchBytes`, records
   * are held until that many bytes are waiting, a sync, a roll or `writeHeld`.
   */
  constructor(
    private readonly files: SegmentFiles,
    private readonly io: SegmentIo,
    private readonly segmentBytes: number,
    batchBytes = 0,
  ) {
    this.held = batchBytes > 0 ? Buffer.allocUnsafeSlow(batchBytes) : null;
    this.spare = new SpareSegment(files);
    this.spareAt = segmentBytes / 2;
    if (files.count === 0) {
      files.create();
      this.dirsToSync.add(files.dir);
    }
    this.activeNo = files.noAt(files.count - 1);
    this.activeFd = files.openForWrite(this.activeNo);
    this.size = files.sizeAt(files.count - 1);
    files.setLive(this.activeNo);
  }

  /** Directories whose new entries must be durable before the next sync completes. */
  syncDirs(dirs: string[]): void {
    for (const d of dirs) this.dirsToSync.add(d);
  }

  get segNo(): number {
    return this.activeNo;
  }

  get offset(): number {
    return this.size;
  }

  /**
   * Writes record `seq` at the end of the log and returns its size; it starts at `lastOffset` of
   * segment `segNo`. On failure, whatever part was written is cut off again before the error is
   * rethrown, so a failed append never leaves half a record.
   */
  write(seq: number, json: string): number {
    const enc = this.encoder;
    const len = enc.encodeInPlace(seq, json);
    if (this.size > 0 && this.size + len > this.segmentBytes) this.roll();
    const pos = this.size;
    if (this.held && len <= this.held.length) {
      if (this.heldBytes + len > this.held.length) this.writeHeld();
      if (this.heldBytes === 0) this.heldAt = pos;
      enc.buf.copy(this.held, this.heldBytes, enc.start, enc.start + len);
      this.heldBytes += len;
    } else {
      this.writeHeld();
      this.writeAt(enc.buf, enc.start, len, pos);
    }
    this.lastOffset = pos;
    this.size = pos + len;
    if (this.size > this.spareAt) {
      this.spareAt = Infinity;
      this.spare.prepare();
    }
    if (!this.activeDirty) {
      this.activeDirty = true;
      this.dirtyFds.add(this.activeFd);
    }
    return len;
  }

  /**
   * Writes the records held by a batching writer. If that fails, the records the store already
   * counted are not in the file: the writer is failed for good, and the error rethrown.
   */
  writeHeld(): void {
    if (this.heldLost !== null) throw this.heldLost;
    if (this.heldBytes === 0) return;
    const bytes = this.heldBytes;
    this.heldBytes = 0;
    try {
      this.writeAt(this.held!, 0, bytes, this.heldAt);
    } catch (err) {
      this.failure ??= err;
      this.heldLost = err;
      throw err;
    }
  }

  /** Writes `len` bytes of `buf` at `pos` of the active segment, or none of them (the part written is cut off). */
  private writeAt(buf: Buffer, start: number, len: number, pos: number): void {
    try {
      let done = 0;
      while (done < len) done += this.io.write(this.activeFd, buf, start + done, len - done, pos + done);
    } catch (err) {
      try {
        fs.ftruncateSync(this.activeFd, pos);
      } catch (cutErr) {
        this.failure = cutErr;
      }
      throw err;
    }
    this.files.setSize(this.activeNo, pos + len);
  }

  private roll(): void {
    this.writeHeld();
    const { no, fd } = this.spare.take();
    this.spareAt = this.segmentBytes / 2;
    this.activeNo = no;
    this.activeFd = fd;
    this.activeDirty = false;
    this.size = 0;
    this.files.setLive(no);
    // The new file's directory entry must reach the disk before anything in it is durable.
    this.dirsToSync.add(this.files.dir);
  }

  /** Waits for the next segment's open, if one is on its way, and closes it (the file stays). */
  closeSpare(): Promise<void> {
    return this.spare.close();
  }

  /** fdatasyncs every segment written since the last sync, then fsyncs new directory entries. */
  async sync(): Promise<void> {
    this.writeHeld();
    const fds = [...this.dirtyFds];
    this.dirtyFds.clear();
    this.activeDirty = false;
    const dirs = [...this.dirsToSync];
    this.dirsToSync.clear();
    await Promise.all(fds.map((fd) => this.io.fdatasync(fd)));
    for (const dir of dirs) {
      const d = await fs.promises.open(dir, 'r');
      try {
        await d.sync();
      } finally {
        await d.close();
      }
    }
  }
}
