// Positions (segment number, offset, size) of the records this session has seen: the tail
// scanned at open plus everything appended since. 12 bytes per record, so recent reads need no
// index walk; older records are located through the sparse index instead.
export class PosTable {
  private data = new Uint32Array(3 * 1024);
  private n = 0;

  constructor(readonly base: number) {}

  /** one past the last seq in the table */
  get end(): number {
    return this.base + this.n;
  }

  has(seq: number): boolean {
    return seq >= this.base && seq < this.base + this.n;
  }

  push(segNo: number, offset: number, size: number): void {
    if ((this.n + 1) * 3 > this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const o = this.n * 3;
    this.data[o] = segNo;
    this.data[o + 1] = offset;
    this.data[o + 2] = size;
    this.n++;
  }

  segNo(seq: number): number {
    return this.data[(seq - this.base) * 3]!;
  }

  offset(seq: number): number {
    return this.data[(seq - this.base) * 3 + 1]!;
  }

  /** 0 for a slot whose record could not be read */
  size(seq: number): number {
    return this.data[(seq - this.base) * 3 + 2]!;
  }

  truncate(end: number): void {
    this.n = Math.max(0, Math.min(this.n, end - this.base));
  }
}
