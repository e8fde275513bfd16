/**
 * The log is a tree: forking a conversation appends an event whose `parent_id` names an earlier
 * event. Definition used everywhere in this folder:
 *
 * - The parent of the event at log index k is the event named by its `parent_id` when that is a
 *   non-empty string naming an event at an index < k; otherwise (null, absent, or a parent that is
 *   not an earlier event, e.g. a record lost to corruption) it is the event at index k - 1.
 *   The first event is the root. So a plain linear log is one branch, and the events appended after
 *   a fork point (without `parent_id`) continue the new branch.
 * - The branch of an event is the path from the root to it. State is the reduction of the branch
 *   of the head; the head of a log is its last event unless a caller picks another one.
 *
 * Parents always have a smaller index, so walking up always ends at the root.
 */

/** What branch resolution needs from an event (events and the store's slots both fit). */
export interface TreeNode {
  readonly id: string;
  readonly parent_id?: string | null;
}

/** Parent/depth bookkeeping for a log, built one event at a time in log order. */
export class LogTree {
  private readonly indexById = new Map<string, number>();
  private readonly parents: number[] = [];
  private readonly depths: number[] = [];

  get length(): number {
    return this.parents.length;
  }

  /** Adds the next event of the log; returns its index. */
  add(e: TreeNode): number {
    const k = this.parents.length;
    const named =
      typeof e.parent_id === 'string' && e.parent_id !== '' ? this.indexById.get(e.parent_id) : undefined;
    const parent = named ?? k - 1;
    this.parents.push(parent);
    this.depths.push(parent < 0 ? 0 : this.depths[parent]! + 1);
    // A duplicated id (the stores refuse them) resolves to its latest occurrence.
    this.indexById.set(e.id, k);
    return k;
  }

  /** Index of the parent of event `i`, -1 for the root. */
  parentOf(i: number): number {
    this.check(i);
    return this.parents[i]!;
  }

  /** Number of ancestors of event `i` (0 for the root). */
  depthOf(i: number): number {
    this.check(i);
    return this.depths[i]!;
  }

  indexOf(id: string): number {
    return this.indexById.get(id) ?? -1;
  }

  /** Log indices of the branch ending at `i`, root first. */
  pathTo(i: number): number[] {
    this.check(i);
    const path: number[] = [];
    for (let j = i; j >= 0; j = this.parents[j]!) path.push(j);
    return path.reverse();
  }

  private check(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.parents.length) {
      throw new RangeError(`event index ${i} is outside the log (length ${this.parents.length})`);
    }
  }
}

export function buildTree(events: Iterable<TreeNode>): LogTree {
  const tree = new LogTree();
  for (const e of events) tree.add(e);
  return tree;
}

/**
 * The events of the branch ending at `headId` (default: the last event), root first.
 * Throws a RangeError when `headId` is not in the log.
 */
export function branchOf<E extends TreeNode>(events: readonly E[], headId?: string): E[] {
  if (events.length === 0) {
    if (headId === undefined) return [];
    throw new RangeError(`head ${headId} is not in the log`);
  }
  const tree = buildTree(events);
  const head = headId === undefined ? events.length - 1 : tree.indexOf(headId);
  if (head < 0) throw new RangeError(`head ${headId} is not in the log`);
  return tree.pathTo(head).map((i) => events[i]!);
}

/** Ids of the events that have more than one child (the fork points), in log order. */
export function forkPoints(events: readonly TreeNode[]): string[] {
  const children = childCounts(events);
  return events.filter((_, i) => (children[i] ?? 0) > 1).map((e) => e.id);
}

/** Ids of the events that have no child: the head of each branch, in log order. */
export function branchHeads(events: readonly TreeNode[]): string[] {
  const children = childCounts(events);
  return events.filter((_, i) => (children[i] ?? 0) === 0).map((e) => e.id);
}

function childCounts(events: readonly TreeNode[]): number[] {
  const tree = buildTree(events);
  const counts = new Array<number>(tree.length).fill(0);
  for (let i = 0; i < tree.length; i++) {
    const p = tree.parentOf(i);
    if (p >= 0) counts[p]! += 1;
  }
  return counts;
}
