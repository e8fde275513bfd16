/**
 * What a Conversation keeps in memory, all of it derived from its log: the state, what the next
 * prompt is built from, the pending actions' events and the recent events the stuck detector reads.
 *
 * Opening costs the same for a long log as for a short one: the newest trusted snapshot that
 * carries a view checkpoint, the few events that checkpoint names, and the tail after it (fewer
 * than SNAPSHOT_EVERY events). A full replay happens only when no such snapshot can be used (a new
 * log, snapshots of an older version, a log that forks after the snapshot); the memory is then the
 * same, only slower to build. Either way nothing grows with the log but the state itself: the view
 * lets go of what it can never show again, answered actions are dropped, `recent` is capped.
 */
import { z } from 'zod';
import { ViewBuilder, type ViewCheckpoint } from '../context';
import type { ActionEvent, Event } from '../events';
import { type EventStore, isCorruptRecord } from '../log/event-store';
import { type ConversationState, deriveState, reduce, usableSnapshot } from '../state';
import type { StoredConversationEvent } from './event-codec';
import { PromptBuilder } from './prompt-builder';

/** Events between two persisted state snapshots. */
export const SNAPSHOT_EVERY = 1000;

/**
 * Most events the stuck detector is given: far more than any pattern needs (its thresholds are a
 * handful of steps), and it keeps each check O(1) in a long run.
 */
export const RECENT_LIMIT = 1000;

/** Events read per `slice` while opening. */
const CHUNK = 256;

const ViewCheckpointSchema: z.ZodType<ViewCheckpoint> = z.object({
  entries: z.array(z.string()),
  summary: z.object({ id: z.string(), before: z.number().int().nonnegative() }).nullable(),
  request: z.boolean(),
  forgotten: z.array(z.string()),
});
/** What a Conversation stores in each snapshot besides the state. */
const ResumeSchema = z.object({ view: ViewCheckpointSchema });

type Store = EventStore<StoredConversationEvent>;

export interface MemoryLoad {
  memory: ConversationMemory;
  /** Index of the snapshot it was opened from; null for a full replay. */
  fromSnapshot: number | null;
  /** Events read after the snapshot (or from 0), corrupt slots not counted. */
  replayed: number;
}

export class ConversationMemory {
  /** Events since the last user message: at least the newest RECENT_LIMIT of them. */
  recent: Event[] = [];
  private readonly pending = new Map<string, ActionEvent>();

  private constructor(
    private current: ConversationState,
    readonly prompt: PromptBuilder,
  ) {}

  /** An empty conversation's memory. */
  static empty(state: ConversationState): ConversationMemory {
    return new ConversationMemory(state, new PromptBuilder());
  }

  /** Opens the memory of a stored conversation: from its newest usable snapshot, else by replay. */
  static async load(store: Store, id: string): Promise<MemoryLoad> {
    return (await ConversationMemory.resume(store, id)) ?? (await replayAll(store, id));
  }

  get state(): ConversationState {
    return this.current;
  }

  /** Folds one event appended after the current head. */
  absorb(event: Event): void {
    this.current = reduce(this.current, event);
    this.see(event);
    if (isAnswer(event)) this.dropAnswered();
  }

  /** The ActionEvent of a pending action. */
  pendingAction(id: string): ActionEvent | undefined {
    return this.pending.get(id);
  }

  /** What a snapshot needs besides the state so that `load` can start from it. */
  resumeData(): z.output<typeof ResumeSchema> {
    return { view: this.prompt.view.checkpoint() };
  }

  /** Everything but the state: the prompt, pending actions' events, recent events. */
  private see(event: Event): void {
    this.prompt.add(event);
    if (event.kind === 'ActionEvent') this.pending.set(event.id, event);
    if (event.kind === 'MessageEvent' && event.source === 'user') this.recent = [];
    else {
      this.recent.push(event);
      if (this.recent.length > RECENT_LIMIT * 2) this.recent = this.recent.slice(-RECENT_LIMIT);
    }
  }

  private dropAnswered(): void {
    const stillPending = new Set(this.current.pendingActions.map((p) => p.actionId));
    for (const id of this.pending.keys()) if (!stillPending.has(id)) this.pending.delete(id);
  }

  private trimRecent(): void {
    if (this.recent.length > RECENT_LIMIT) this.recent = this.recent.slice(-RECENT_LIMIT);
  }

  /** Replays the whole log: the state of its last event's branch, every event seen in order. */
  static fromEvents(events: readonly Event[], id: string): ConversationMemory {
    const m = new ConversationMemory(deriveState(events, { id }), new PromptBuilder());
    for (const e of events) m.see(e);
    m.dropAnswered();
    m.trimRecent();
    return m;
  }

  /**
   * The memory from the newest usable snapshot plus the events after it; undefined when there is no
   * snapshot with a usable view checkpoint, or when the tail holds what a snapshot cannot carry on
   * from exactly (a fork, or a result naming an action older than the snapshot that the view let go).
   */
  private static async resume(store: Store, id: string): Promise<MemoryLoad | undefined> {
    const last = store.length - 1;
    if (last < 0) return undefined;
    const snap = await usableSnapshot(store, last);
    if (!snap) return undefined;
    const state = snap.state.id === id ? snap.state : { ...snap.state, id };
    const memory = await ConversationMemory.atSnapshot(store, state, snap.resume);
    if (!memory) return undefined;

    let replayed = 0;
    let userMessage = false;
    for (let from = snap.index + 1; from <= last; from += CHUNK) {
      const slots = await store.slice(from, Math.min(from + CHUNK, last + 1));
      for (const [k, slot] of slots.entries()) {
        if (isCorruptRecord(slot)) continue;
        const e = slot as Event;
        const parent = e.parent_id;
        if (typeof parent === 'string' && parent !== '' && parent !== memory.state.head) {
          const j = await store.indexOf(parent);
          if (j >= 0 && j < from + k) return undefined; // a fork: the branch rules need the whole log
        }
        if (memory.prompt.view.referencesUnknownAction(e)) {
          const j = await store.indexOf((e as { action_id: string }).action_id);
          if (j >= 0 && j <= snap.index) return undefined;
        }
        memory.absorb(e);
        replayed++;
        if (e.kind === 'MessageEvent' && e.source === 'user') userMessage = true;
      }
    }
    await memory.fillFrom(store, snap.index, userMessage);
    return { memory, fromSnapshot: snap.index, replayed };
  }

  /** Completes a memory restored at a snapshot once its tail is absorbed (see resume). */
  private async fillFrom(store: Store, snapshotIndex: number, tailHadUserMessage: boolean): Promise<void> {
    for (const p of this.current.pendingActions) {
      if (this.pending.has(p.actionId)) continue;
      const e = await store.getById(p.actionId);
      if (e && !isCorruptRecord(e) && e.kind === 'ActionEvent')
        this.pending.set(p.actionId, e as ActionEvent);
    }
    if (!tailHadUserMessage) {
      const before = await recentBefore(store, snapshotIndex, RECENT_LIMIT - this.recent.length);
      this.recent = [...before, ...this.recent];
    }
    this.trimRecent();
  }

  /** A memory at a snapshot: its state and a prompt restored from its view checkpoint. */
  private static async atSnapshot(
    store: Store,
    state: ConversationState,
    resume: unknown,
  ): Promise<ConversationMemory | undefined> {
    const parsed = ResumeSchema.safeParse(resume);
    if (!parsed.success) return undefined;
    const cp = parsed.data.view;
    const named = new Map<string, Event>();
    for (const id of cp.summary ? [...cp.entries, cp.summary.id] : cp.entries) {
      const e = await store.getById(id).catch(() => undefined);
      if (!e || isCorruptRecord(e)) return undefined;
      named.set(id, e as Event);
    }
    const view = ViewBuilder.restore(cp, (id) => named.get(id));
    return view ? new ConversationMemory(state, new PromptBuilder(view)) : undefined;
  }
}

function isAnswer(e: Event): boolean {
  return e.kind === 'ObservationEvent' || e.kind === 'UserRejectObservation' || e.kind === 'AgentErrorEvent';
}

async function replayAll(store: Store, id: string): Promise<MemoryLoad> {
  const events: Event[] = [];
  for await (const slot of store.iterate(0)) if (!isCorruptRecord(slot)) events.push(slot as Event);
  return { memory: ConversationMemory.fromEvents(events, id), fromSnapshot: null, replayed: events.length };
}

/** Up to `max` readable events at or before `index`, after the last user message there, in order. */
async function recentBefore(store: Store, index: number, max: number): Promise<Event[]> {
  const out: Event[] = [];
  for (let to = index + 1; to > 0 && out.length < max; to -= CHUNK) {
    const slots = await store.slice(Math.max(0, to - CHUNK), to);
    for (let k = slots.length - 1; k >= 0; k--) {
      const slot = slots[k]!;
      if (isCorruptRecord(slot)) continue;
      const e = slot as Event;
      if (e.kind === 'MessageEvent' && e.source === 'user') return out.reverse();
      out.push(e);
      if (out.length >= max) break;
    }
  }
  return out.reverse();
}
