// Exact id -> index for the most recent records (bounded), so the common checks at append, a
// duplicate of a recent id or a parent_id naming a recent event, never touch the disk.
export class RecentIds {
  private readonly map = new Map<string, number>();
  private readonly ring: (string | undefined)[];

  constructor(private readonly capacity: number) {
    this.ring = new Array<string | undefined>(capacity);
  }

  add(id: string, seq: number): void {
    const slot = seq % this.capacity;
    const old = this.ring[slot];
    if (old !== undefined && this.map.get(old) === seq - this.capacity) this.map.delete(old);
    this.ring[slot] = id;
    this.map.set(id, seq);
  }

  get(id: string): number | undefined {
    return this.map.get(id);
  }
}
