// The segment files of one log (segments/000001.log, ...): listing, sizes, positional reads.
// Sizes are known for the active segment (it is ours) and stat'ed lazily for the others, so
// opening a long log does not touch every segment.
import fs from 'node:fs';
import path from 'node:path';

const SEGMENT_NAME = /^(\d{6,})\.log$/;

export function segmentName(no: number): string {
  return `${String(no).padStart(6, '0')}.log`;
}

export class SegmentFiles {
  private nos: number[];
  private readonly posByNo = new Map<number, number>();
  private readonly sizes = new Map<number, number>();
  /** the segment appends go to, whose size changes at every append: kept out of `sizes` (W1) */
  private liveNo = -1;
  private liveSize = 0;
  private readonly fds = new Map<number, number>();

  constructor(readonly dir: string) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    this.nos = names
      .map((n) => SEGMENT_NAME.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    this.nos.forEach((no, i) => this.posByNo.set(no, i));
  }

  get count(): number {
    return this.nos.length;
  }

  /** segment numbers present, ascending */
  get numbers(): readonly number[] {
    return this.nos;
  }

  noAt(pos: number): number {
    return this.nos[pos]!;
  }

  /** position of a segment number in the list, or -1 */
  posOf(no: number): number {
    return this.posByNo.get(no) ?? -1;
  }

  pathOf(no: number): string {
    return path.join(this.dir, segmentName(no));
  }

  /** The number the next segment gets. */
  get nextNo(): number {
    return (this.nos.length > 0 ? this.nos[this.nos.length - 1]! : 0) + 1;
  }

  /**
   * A new segment numbered after the last; the caller writes through the returned fd. With
   * `emptyMayExist`, an empty file of that name is taken as the new segment (one opened ahead whose
   * open had not reported back); a file with bytes in it is never taken.
   */
  create(emptyMayExist = false): { no: number; fd: number } {
    fs.mkdirSync(this.dir, { recursive: true });
    const no = this.nextNo;
    let fd: number;
    try {
      fd = fs.openSync(this.pathOf(no), 'wx+');
    } catch (err) {
      if (!emptyMayExist || (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      fd = fs.openSync(this.pathOf(no), 'r+');
      if (fs.fstatSync(fd).size !== 0) {
        fs.closeSync(fd);
        throw err;
      }
    }
    return this.adopt(no, fd);
  }

  /** Makes the empty file `no` (the next number), opened read-write as `fd`, the last segment. */
  adopt(no: number, fd: number): { no: number; fd: number } {
    if (no !== this.nextNo) throw new Error(`segment ${no} is not the next one (${this.nextNo})`);
    this.posByNo.set(no, this.nos.length);
    this.nos.push(no);
    this.sizes.set(no, 0);
    this.fds.set(no, fd);
    return { no, fd };
  }

  /** Opens an existing segment for writing in place (positional writes, no O_APPEND). */
  openForWrite(no: number): number {
    const old = this.fds.get(no);
    if (old !== undefined) fs.closeSync(old);
    const fd = fs.openSync(this.pathOf(no), 'r+');
    this.fds.set(no, fd);
    return fd;
  }

  fdOf(no: number): number {
    let fd = this.fds.get(no);
    if (fd === undefined) {
      fd = fs.openSync(this.pathOf(no), 'r');
      this.fds.set(no, fd);
    }
    return fd;
  }

  sizeAt(pos: number): number {
    const no = this.nos[pos]!;
    if (no === this.liveNo) return this.liveSize;
    let s = this.sizes.get(no);
    if (s === undefined) {
      s = fs.fstatSync(this.fdOf(no)).size;
      this.sizes.set(no, s);
    }
    return s;
  }

  /** The readable size of a segment (the active one grows as we append, shrinks on repair). */
  setSize(no: number, size: number): void {
    if (no === this.liveNo) this.liveSize = size;
    else this.sizes.set(no, size);
  }

  /** The segment whose size now changes at every append (its size so far is known here). */
  setLive(no: number): void {
    if (no === this.liveNo) return;
    const size = this.sizeAt(this.posOf(no));
    if (this.liveNo >= 0) this.sizes.set(this.liveNo, this.liveSize);
    this.sizes.delete(no);
    this.liveNo = no;
    this.liveSize = size;
  }

  read(pos: number, buf: Buffer, bufOffset: number, length: number, fileOffset: number): number {
    let got = 0;
    const fd = this.fdOf(this.nos[pos]!);
    while (got < length) {
      const n = fs.readSync(fd, buf, bufOffset + got, length - got, fileOffset + got);
      if (n === 0) break;
      got += n;
    }
    return got;
  }

  closeAll(): void {
    for (const fd of this.fds.values()) {
      try {
        fs.closeSync(fd);
      } catch {
        /* already closed */
      }
    }
    this.fds.clear();
  }
}
