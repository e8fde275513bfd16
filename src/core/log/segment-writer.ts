// The write side of a segment log: appends encoded records to the active segment with positional
// writes, rolls to a new segment at the size limit, and syncs whatever was written since the last
// sync (including older segments and new directory entries) when group commit asks.
import fs from 'node:fs';
import { RecordEncoder } from './record-format';
import { type SegmentFiles } from './segment-files';
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
  /** set when a failed write could not be cut off again: the file end is unknown */
  failure: unknown = null;

  /** Continues the last segment (creating the first one for a new log). */
  constructor(
    private readonly files: SegmentFiles,
    private readonly io: SegmentIo,
    private readonly segmentBytes: number,
  ) {
    if (files.count === 0) {
      files.create();
      this.dirsToSync.add(files.dir);
    }
    this.activeNo = files.noAt(files.count - 1);
    this.activeFd = files.openForWrite(this.activeNo);
    this.size = files.sizeAt(files.count - 1);
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
    const buf = enc.buf;
    const start = enc.start;
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
    this.lastOffset = pos;
    this.size = pos + len;
    this.files.setSize(this.activeNo, this.size);
    if (!this.activeDirty) {
      this.activeDirty = true;
      this.dirtyFds.add(this.activeFd);
    }
    return len;
  }

  private roll(): void {
    const { no, fd } = this.files.create();
    this.activeNo = no;
    this.activeFd = fd;
    this.activeDirty = false;
    this.size = 0;
    // The new file's directory entry must reach the disk before anything in it is durable.
    this.dirsToSync.add(this.files.dir);
  }

  /** fdatasyncs every segment written since the last sync, then fsyncs new directory entries. */
  async sync(): Promise<void> {
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
