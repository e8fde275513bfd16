// Exact id -> index for the most recent records (bounded), so the common checks at append, a
// duplicate of a recent id or a parent_id naming a recent event, never touch the disk.
// The ring grows with use instead of being allocated at full size: opening a log to read it
// should not pay for 32k slots it may never fill.
export class RecentIds {
  private readonly map = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly seqs: number[] = [];
  /** next slot to overwrite once the ring is full */
  private next = 0;

  constructor(private readonly capacity: number) {}

  add(id: string, seq: number): void {
    if (this.ids.length < this.capacity) {
      this.ids.push(id);
      this.seqs.push(seq);
    } else {
      const slot = this.next;
      const old = this.ids[slot]!;
      // Only forget the old id if no later add re-pointed it.
      if (this.map.get(old) === this.seqs[slot]) this.map.delete(old);
      this.ids[slot] = id;
      this.seqs[slot] = seq;
      this.next = slot + 1 === this.capacity ? 0 : slot + 1;
    }
    this.map.set(id, seq);
  }

  get(id: string): number | undefined {
    return this.map.get(id);
  }
}
