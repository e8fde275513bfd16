// The local log takes an event only after the event it names as parent. The agent-server's stream
// does not promise that order (a state update can overtake the event it follows), so an event
// whose parent has not arrived waits here, and goes to the log right after its parent does.
export type RemoteEvent = Record<string, unknown> & { id: string };

export class ParentOrder {
  private readonly written = new Set<string>();
  /** Events waiting, by the parent they wait for. */
  private readonly waiting = new Map<string, RemoteEvent[]>();

  /** `e` and every event it lets go, in an order the log accepts. */
  add(e: RemoteEvent): RemoteEvent[] {
    const parent = typeof e.parent_id === 'string' ? e.parent_id : undefined;
    if (parent !== undefined && !this.written.has(parent)) {
      const list = this.waiting.get(parent) ?? [];
      list.push(e);
      this.waiting.set(parent, list);
      return [];
    }
    const out: RemoteEvent[] = [];
    const queue = [e];
    for (let next = queue.shift(); next; next = queue.shift()) {
      out.push(next);
      this.written.add(next.id);
      const children = this.waiting.get(next.id);
      if (children) {
        this.waiting.delete(next.id);
        queue.push(...children);
      }
    }
    return out;
  }

  /** Whether `id` went to the log. */
  has(id: string): boolean {
    return this.written.has(id);
  }

  /** The events still waiting for a parent. */
  get held(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }
}
