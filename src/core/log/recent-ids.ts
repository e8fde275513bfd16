// The ids of the most recent records, by seq (a bounded ring), so the common checks at append, a
// duplicate of a recent id or a parent_id naming a recent event, confirm an id-index candidate
// without reading its record from disk. Keyed by seq, not by id: the id index already maps an id's
// hash to its candidate seqs, and a Map from id strings cost more per append (W1) than all the
// other id checks together. The slots are allocated on the first add: opening a log only to read
// it should not pay for them.
export class RecentIds {
  private ids: (string | undefined)[] | null = null;
  /** the seq whose id each slot holds, -1 for none */
  private seqs: Float64Array | null = null;

  constructor(private readonly capacity: number) {}

  /** Remembers the id of record `seq`, forgetting the one `capacity` seqs before it. */
  add(id: string, seq: number): void {
    if (!this.ids || !this.seqs) {
      this.ids = new Array<string | undefined>(this.capacity).fill(undefined);
      this.seqs = new Float64Array(this.capacity).fill(-1);
    }
    const slot = seq % this.capacity;
    this.ids[slot] = id;
    this.seqs[slot] = seq;
  }

  /** The id of record `seq` if it was added and no later seq took its slot; else undefined. */
  idAt(seq: number): string | undefined {
    if (!this.ids || !this.seqs) return undefined;
    const slot = seq % this.capacity;
    return this.seqs[slot] === seq ? this.ids[slot] : undefined;
  }
}
