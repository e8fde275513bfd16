// The chat's timeline, host side: the conversation as it was right after any event of its log. The
// state comes from the core's StateTimeline (snapshots plus replay, kept per conversation and
// extended as the log grows), or, for a long log, from the persisted snapshot at or before the
// point plus the events after it (stateFromStore), so a long log is never held whole; the files the conversation changed up to that point come from its
// checkpoints, from the first one to the one that holds the files at that event (filesAtPoint, as
// `logbook diff` reads points). No 'vscode' import: unit tests drive it with a log and a store.
import { checkpointEntries, type FilesAtPoint, filesAtPoint } from '../../../core/checkpoints/timeline';
import type { CheckpointChange } from '../../../core/checkpoints/types';
import type { Event } from '../../../core/events';
import { isCorruptRecord } from '../../../core/log/event-store';
import { STRIDE } from '../../../core/log/snapshot-thinning';
import { type ConversationState, type StateSource, StateTimeline, stateFromStore } from '../../../core/state';
import { LIMITS, type TimelinePoint } from '../../../protocol/messages';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import { filesAtIndex, firstCheckpoint } from '../../node/time-travel/files-at-index';

/** What the timeline reads of a conversation (its open session, looked up for each read). */
export interface TimelineLog {
  /** How many records the log holds (readable or not): seqs run from 0 to this - 1. */
  readonly eventCount: number;
  readableEvents(fromSeq: number): Promise<{ seq: number; event: Event }[]>;
  /**
   * The log itself, when the session can lend it: a long log is then read from the snapshot before
   * each point instead of being held whole in memory.
   */
  readonly timelineStore?: TimelineStore;
}

/** The reads of a log the timeline needs: the state from a snapshot, the checkpoints forward. */
export type TimelineStore = StateSource;

/**
 * Logs longer than this are read from their snapshots at each point; shorter ones are held in
 * memory (a few MB at most), where a point costs well under a millisecond once they are read.
 */
export const IN_MEMORY_MAX = 2 * STRIDE;

/** The recorded files of one point: the conversation's first checkpoint and the point's own. */
export interface PointFiles {
  start: string | undefined;
  at: string | undefined;
  changes: CheckpointChange[];
}

export class TimelineError extends Error {
  override name = 'TimelineError';
}

export class ConversationTimeline {
  private readonly events: Event[] = [];
  /** The seq of each of `events`. */
  private readonly seqs: number[] = [];
  private nextSeq = 0;
  private timeline: StateTimeline;
  /** The log's first checkpoint, once read from a long log. */
  private start: string | undefined;
  /** planFrom answers by "start to point": a checkpoint never changes, so neither does its answer. */
  private readonly changes = new Map<string, Promise<CheckpointChange[]>>();

  constructor(
    private readonly id: string,
    private readonly log: () => Promise<TimelineLog>,
    private readonly store: () => WorkspaceCheckpointStore,
  ) {
    this.timeline = new StateTimeline({ id });
  }

  /** The state and the files right after the event at `seq` (or the last readable one before it). */
  async pointAt(seq: number): Promise<TimelinePoint> {
    const log = await this.log();
    const far = await this.fromStore(log, seq);
    let event: Event;
    let state: ConversationState;
    let pointSeq: number;
    if (far) {
      event = far.event;
      pointSeq = far.seq;
      state = (await stateFromStore(far.store, { id: this.id, atIndex: far.seq })).state;
    } else {
      const i = await this.indexAt(seq);
      event = this.events[i]!;
      pointSeq = this.seqs[i]!;
      state = this.timeline.stateAt(i);
    }
    const files = await this.filesAt(seq);
    const t = state.metrics.total;
    const shown = files.changes.slice(0, LIMITS.timelineFiles);
    return {
      seq: pointSeq,
      eventId: event.id.slice(0, LIMITS.id),
      timestamp: event.timestamp.slice(0, LIMITS.status),
      lastSeq: far ? log.eventCount - 1 : this.nextSeq - 1,
      status: state.status.slice(0, LIMITS.status),
      mode: state.mode === 'plan' ? 'plan' : 'act',
      promptTokens: count(t.promptTokens),
      completionTokens: count(t.completionTokens),
      cost: Number.isFinite(t.cost) && t.cost > 0 ? Math.min(t.cost, 1e12) : 0,
      plan: state.tasks.slice(0, LIMITS.planItems).map((task) => ({
        title: task.title.slice(0, LIMITS.planTitle),
        status: task.status.slice(0, LIMITS.status),
      })),
      files: shown
        .filter((c) => c.path.length <= LIMITS.path && (c.from?.length ?? 0) <= LIMITS.path)
        .map((c) => ({ path: c.path, status: c.status, ...(c.from ? { from: c.from } : {}) })),
      filesNotShown: files.changes.length - shown.length,
      filesNote: filesNote(files),
    };
  }

  /**
   * The recorded files at the event at `seq`, and what changed in them since the conversation's
   * first checkpoint. `at` undefined: no checkpoint holds them (the agent changed no files).
   */
  async filesAt(seq: number): Promise<PointFiles> {
    const log = await this.log();
    const far = await this.fromStore(log, seq);
    let start: string | undefined;
    let point: FilesAtPoint;
    if (far) {
      // The first checkpoint never changes once recorded.
      start = this.start ??= await firstCheckpoint(far.store);
      point = await filesAtIndex(far.store, far.seq, far.event.id);
    } else {
      const i = await this.indexAt(seq);
      start = checkpointEntries(this.events)[0]?.value.checkpoint;
      point = filesAtPoint(this.events, this.events[i]!.id);
    }
    if (!start || point.kind === 'now') return { start, at: undefined, changes: [] };
    const key = `${start}\n${point.checkpoint}`;
    let changes = this.changes.get(key);
    if (!changes) {
      changes =
        start === point.checkpoint
          ? Promise.resolve([])
          : this.store()
              .planFrom(start, point.checkpoint)
              .then((p) => p.changes);
      this.changes.set(key, changes);
      changes.catch(() => this.changes.delete(key));
    }
    return { start, at: point.checkpoint, changes: await changes };
  }

  /** A file the point lists (by its path), or a TimelineError: only those can be opened. */
  async changedFile(seq: number, path: string): Promise<PointFiles & { change: CheckpointChange }> {
    const files = await this.filesAt(seq);
    const change = files.changes.find((c) => c.path === path);
    if (!change)
      throw new TimelineError(`"${path}" is not a file this conversation changed up to event ${seq + 1}.`);
    return { ...files, change };
  }

  /**
   * For a long log the session lends: the last readable event at or before `seq`, read from the
   * log. Undefined for a log held in memory (short, or one the session cannot lend).
   */
  private async fromStore(
    log: TimelineLog,
    seq: number,
  ): Promise<{ store: TimelineStore; seq: number; event: Event } | undefined> {
    const store = log.timelineStore;
    if (!store || log.eventCount <= IN_MEMORY_MAX) return undefined;
    if (!Number.isInteger(seq) || seq < 0 || seq >= log.eventCount)
      throw new TimelineError(`There is no event ${seq + 1} in this conversation.`);
    for (let s = seq; s >= 0; s--) {
      const slot = await store.get(s);
      if (!isCorruptRecord(slot)) return { store, seq: s, event: slot as unknown as Event };
    }
    throw new TimelineError(`Event ${seq + 1} of this conversation cannot be read.`);
  }

  /** Index in `events` of the event at `seq`, reading what the log gained since the last call. */
  private async indexAt(seq: number): Promise<number> {
    const log = await this.log();
    if (!Number.isInteger(seq) || seq < 0 || seq >= log.eventCount)
      throw new TimelineError(`There is no event ${seq + 1} in this conversation.`);
    if (seq >= this.nextSeq) await this.readMore(log);
    // The last readable event at or before `seq` (an unreadable record has no state of its own).
    let lo = 0;
    let hi = this.seqs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.seqs[mid]! <= seq) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) throw new TimelineError(`Event ${seq + 1} of this conversation cannot be read.`);
    return found;
  }

  private async readMore(log: TimelineLog): Promise<void> {
    const count = log.eventCount;
    const fresh = await log.readableEvents(this.nextSeq);
    // No await from here on: a read that overlapped this one skips what this one took.
    for (const { seq, event } of fresh) {
      if (seq < this.nextSeq) continue;
      this.events.push(event);
      this.seqs.push(seq);
      this.timeline.append(event);
      this.nextSeq = seq + 1;
    }
    this.nextSeq = Math.max(this.nextSeq, count);
  }
}

function count(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER) : 0;
}

function filesNote(f: PointFiles): string {
  if (!f.start)
    return 'The conversation recorded no file checkpoint up to now, so no file changes are known.';
  if (!f.at) return 'No checkpoint holds the files at this point.';
  const n = f.changes.length;
  const what = n === 0 ? 'no file changed' : `${n} file${n === 1 ? '' : 's'} changed`;
  return `${what} since the conversation started`;
}
