// The hash of each record a writer appended, in order, kept as it wrote them: a signer that must
// chain a whole new log (an import) then need not read every record back to hash it.
import { eventHash } from './chain';

const HASH_BYTES = 32;

export class RecordHashes {
  private buf = Buffer.alloc(HASH_BYTES * 1024);
  private n = 0;

  get count(): number {
    return this.n;
  }

  /** Notes the hash of the next record, given its JSON exactly as written. */
  addRecord(json: string): void {
    if ((this.n + 1) * HASH_BYTES > this.buf.length) {
      const grown = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(grown);
      this.buf = grown;
    }
    eventHash(json).copy(this.buf, this.n * HASH_BYTES);
    this.n++;
  }

  /** The hash of record `i` (a copy). */
  at(i: number): Buffer {
    if (!Number.isInteger(i) || i < 0 || i >= this.n) throw new RangeError(`no hash of record ${i}`);
    return Buffer.from(this.buf.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES));
  }
}
