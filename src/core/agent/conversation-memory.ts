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
import { lazySchema } from '../schema/lazy-schema';
import { ViewBuilder, type ViewCheckpoint } from '../context';
import type { ActionEvent, Event } from '../events';
import { type EventStore, isCorruptRecord } from '../log/event-store';
import { type ConversationState, deriveState, reduce, usableSnapshot } from '../state';
import type { StoredConversationEvent } from './event-codec';
import { PromptBuilder } from './prompt-builder';
import { decodePositions, encodePositions, idsCrc, KeptPositionsSchema } from './view-positions';

/**
 * Events between two persisted snapshots: an open reads fewer than this many after the newest
 * one. A snapshot costs one small file and a sync; the store keeps only the newest few and older
 * ones at widening intervals (log/snapshot-thinning.ts), so a state at an earlier index (time
 * travel) reads at most about half its age.
 */
export const SNAPSHOT_EVERY = 500;

/**
 * Most events the stuck detector is given: far more than any of its patterns needs (a handful of
 * steps each), and it keeps each check cheap in a long run.
 */
export const RECENT_LIMIT = 500;

/** Events read per `slice` while opening. */
const CHUNK = 64;
/** Positions this close together are read in one `slice` rather than one by one. */
const RUN_GAP = 32;
/** Most positions one `slice` spans while restoring a view, so a read never holds much more than the view. */
const RUN_SPAN = 4096;

const SummarySchema = lazySchema(() =>
  z
    .object({
      id: z.string(),
      before: z.number().int().nonnegative(),
      at: z.number().int().nonnegative().nullable(),
    })
    .nullable(),
);
const ViewCheckpointSchema: z.ZodType<ViewCheckpoint> = lazySchema(() =>
  z.object({
    entries: z.array(z.string()),
    at: z.array(z.number().int().nonnegative().nullable()),
    summary: SummarySchema,
    request: z.boolean(),
    forgotten: z.array(z.string()),
  }),
);
/** A view checkpoint whose entries are given by their positions (view-positions.ts), not their ids. */
const CompactViewSchema = lazySchema(() =>
  z.object({
    kept: KeptPositionsSchema,
    summary: SummarySchema,
    request: z.boolean(),
    forgotten: z.array(z.string()),
  }),
);
type CompactView = z.output<typeof CompactViewSchema>;
/**
 * What a Conversation stores in each snapshot besides the state. Snapshots written before the
 * compact form name every entry by id; they are still read.
 */
const ResumeSchema = lazySchema(() =>
  z.object({
    view: z.union([CompactViewSchema, ViewCheckpointSchema]),
    /** The view shows a system prompt (absent in older snapshots: then the view must be read to know). */
    systemPrompt: z.boolean().optional(),
  }),
);
type ResumeData = z.output<typeof ResumeSchema>;

type Store = EventStore<StoredConversationEvent>;

/** What a snapshot stores besides the state, for a view at this checkpoint. */
export function resumeDataOf(checkpoint: ViewCheckpoint, systemPrompt: boolean): ResumeData {
  const { entries, at, ...rest } = checkpoint;
  const kept = encodePositions(entries, at);
  return { view: kept ? { kept, ...rest } : { entries, at, ...rest }, systemPrompt };
}

/**
 * A view not read yet: the snapshot's checkpoint, and the events seen since, in order. Reading it
 * costs about one read of every event the view shows, which for a long conversation that nothing
 * condensed is most of the log; an open does not need it, the next prompt does.
 */
interface DeferredView {
  store: Store;
  snapshot: number;
  saved: ViewCheckpoint | CompactView;
  seen: { event: Event; index: number }[];
  /** Whether the view shows a system prompt; undefined when only reading it tells. */
  systemPrompt: boolean | undefined;
}

/** Events seen after an open before the view is read anyway: its reading is then due. */
const MOST_DEFERRED = 4 * SNAPSHOT_EVERY;

export interface MemoryLoad {
  memory: ConversationMemory;
  /** Index of the snapshot it was opened from; null for a full replay. */
  fromSnapshot: number | null;
  /** Events read after the snapshot (or from 0), corrupt slots not counted. */
  replayed: number;
}

export class ConversationMemory {
  /**
   * Events since the last user message: at least the newest RECENT_LIMIT of them, once
   * `settleRecent` has read those before the snapshot the memory was opened from.
   */
  recent: Event[] = [];
  /**
   * The read of the recent events before the snapshot, not made yet: a user message (a new task,
   * what most runs that continue a conversation start with) makes it moot.
   */
  private olderRecent: (() => Promise<Event[]>) | undefined;
  private readonly pending = new Map<string, ActionEvent>();
  private built: PromptBuilder | undefined;
  private deferred: DeferredView | undefined;
  private reading: Promise<PromptBuilder> | undefined;

  private constructor(
    private current: ConversationState,
    prompt: PromptBuilder | DeferredView,
  ) {
    if (prompt instanceof PromptBuilder) this.built = prompt;
    else this.deferred = prompt;
  }

  /** An empty conversation's memory. */
  static empty(state: ConversationState): ConversationMemory {
    return new ConversationMemory(state, new PromptBuilder());
  }

  /** Opens the memory of a stored conversation: from its newest usable snapshot, else by replay. */
  static async load(store: Store, id: string): Promise<MemoryLoad> {
    return (await ConversationMemory.resume(store, id)) ?? (await replayAll(store, id));
  }

  /**
   * The memory after a full replay of `events` (each with its index in the log): the state of the
   * last event's branch, every event seen in order.
   */
  static fromEvents(events: readonly Event[], id: string, indices?: readonly number[]): ConversationMemory {
    const m = new ConversationMemory(deriveState(events, { id }), new PromptBuilder());
    events.forEach((e, i) => m.see(e, indices?.[i] ?? i));
    m.dropAnswered();
    m.trimRecent();
    return m;
  }

  get state(): ConversationState {
    return this.current;
  }

  /** Folds the event appended at `index`, right after the current head. */
  absorb(event: Event, index: number): void {
    this.current = reduce(this.current, event);
    this.see(event, index);
    if (isAnswer(event)) this.dropAnswered();
  }

  /** The ActionEvent of a pending action. */
  pendingAction(id: string): ActionEvent | undefined {
    return this.pending.get(id);
  }

  /** What the next prompt is built from (read from the log first, after an open from a snapshot). */
  async prompt(): Promise<PromptBuilder> {
    if (this.built) return this.built;
    this.reading ??= this.readView();
    return this.reading;
  }

  /** Whether the next request would carry a system prompt; known without reading the view when the snapshot says. */
  async hasSystemPrompt(): Promise<boolean> {
    const known = this.deferred?.systemPrompt;
    return known ?? (await this.prompt()).hasSystemPrompt();
  }

  /** What a snapshot needs besides the state so that `load` can start from it. */
  async resumeData(): Promise<ResumeData> {
    const { view } = await this.prompt();
    return resumeDataOf(view.checkpoint(), view.showsKind('SystemPromptEvent'));
  }

  /** Everything but the state: the prompt, pending actions' events, recent events. */
  private see(event: Event, index: number): void {
    if (this.built) this.built.add(event, index);
    else this.defer(event, index);
    if (event.kind === 'ActionEvent') this.pending.set(event.id, event);
    if (event.kind === 'MessageEvent' && event.source === 'user') {
      this.recent = [];
      this.olderRecent = undefined;
    } else {
      this.recent.push(event);
      if (this.recent.length > RECENT_LIMIT * 2) this.trimRecent();
    }
  }

  private dropAnswered(): void {
    const stillPending = new Set(this.current.pendingActions.map((p) => p.actionId));
    for (const id of this.pending.keys()) if (!stillPending.has(id)) this.pending.delete(id);
  }

  /**
   * Reads the recent events before the snapshot, when opened from one mid-turn and no user message
   * came since; the agent loop calls it before the stuck detector looks at `recent`.
   */
  async settleRecent(): Promise<readonly Event[]> {
    const read = this.olderRecent;
    if (read) {
      this.olderRecent = undefined;
      const older = await read();
      // Events seen while it was read are already in `recent`, after these.
      this.recent = [...older, ...this.recent];
      this.trimRecent();
    }
    return this.recent;
  }

  private trimRecent(): void {
    if (this.recent.length > RECENT_LIMIT) this.recent = this.recent.slice(-RECENT_LIMIT);
  }

  private defer(event: Event, index: number): void {
    const d = this.deferred!;
    d.seen.push({ event, index });
    if (event.kind === 'SystemPromptEvent' && !d.saved.forgotten.includes(event.id)) d.systemPrompt = true;
    // What a condensation leaves in the view only the view says.
    if (event.kind === 'Condensation') d.systemPrompt = undefined;
    if (d.seen.length > MOST_DEFERRED) void this.prompt().catch(() => undefined);
  }

  /**
   * The deferred view, read: restored from the snapshot's checkpoint and given the events seen
   * since; when that cannot be done exactly (a checkpoint event unreadable, a result naming an
   * action before the snapshot that the view let go), rebuilt from every event of the log.
   */
  private async readView(): Promise<PromptBuilder> {
    const d = this.deferred!;
    const restored = await restoreView(d.store, d.saved);
    let prompt: PromptBuilder | undefined = restored && new PromptBuilder(restored.view);
    // Events seen while the checkpoint's events are read are appended after it, in order.
    for (let k = 0; prompt && k < d.seen.length; k++) {
      const { event, index } = d.seen[k]!;
      if (prompt.view.referencesUnknownAction(event)) {
        const j = await d.store.indexOf((event as { action_id: string }).action_id);
        if (j >= 0 && j <= d.snapshot) prompt = undefined;
      }
      prompt?.add(event, index);
    }
    if (!prompt) {
      prompt = new PromptBuilder();
      const upTo = d.seen.at(-1)?.index ?? d.snapshot;
      let index = 0;
      for await (const slot of d.store.iterate(0)) {
        if (index > upTo) break;
        if (!isCorruptRecord(slot)) prompt.add(slot as Event, index);
        index++;
      }
      // Seen while the log was read: after `upTo`, in order.
      for (const { event, index: i } of d.seen) if (i > upTo) prompt.add(event, i);
    }
    this.built = prompt;
    this.deferred = undefined;
    return prompt;
  }

  /**
   * The memory from the newest usable snapshot plus the events after it, its view deferred (read
   * when the first prompt needs it); undefined when there is no snapshot with a usable view
   * checkpoint, or when the tail holds what a snapshot cannot carry on from (a fork).
   */
  private static async resume(store: Store, id: string): Promise<MemoryLoad | undefined> {
    const last = store.length - 1;
    if (last < 0) return undefined;
    const snap = await usableSnapshot(store, last);
    if (!snap) return undefined;
    const parsed = ResumeSchema.safeParse(snap.resume);
    if (!parsed.success || !positionsHold(parsed.data.view, store.length)) return undefined;
    const state = snap.state.id === id ? snap.state : { ...snap.state, id };
    const memory = new ConversationMemory(state, {
      store,
      snapshot: snap.index,
      saved: parsed.data.view,
      seen: [],
      systemPrompt: parsed.data.systemPrompt,
    });

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
        memory.absorb(e, from + k);
        replayed++;
        if (e.kind === 'MessageEvent' && e.source === 'user') userMessage = true;
      }
    }
    await memory.readPendingActions(store, new Map());
    // The recent events before the snapshot are read when the loop first needs them, if ever.
    if (!userMessage) memory.olderRecent = () => recentBefore(store, snap.index);
    memory.trimRecent();
    return { memory, fromSnapshot: snap.index, replayed };
  }

  /**
   * The events of pending actions appended before the snapshot: the view checkpoint names every
   * action still waiting for a result, so they are normally among `known` already.
   */
  private async readPendingActions(store: Store, known: ReadonlyMap<string, Event>): Promise<void> {
    for (const p of this.current.pendingActions) {
      if (this.pending.has(p.actionId)) continue;
      const e = known.get(p.actionId) ?? (await readById(store, p.actionId));
      if (e?.kind === 'ActionEvent') this.pending.set(p.actionId, e);
    }
  }
}

/** A compact checkpoint's positions decode and lie within the log (an id-named one is checked when read). */
function positionsHold(saved: ViewCheckpoint | CompactView, length: number): boolean {
  if (!('kept' in saved)) return true;
  const positions = decodePositions(saved.kept);
  return positions !== null && (positions.length === 0 || positions.at(-1)! < length);
}

function isAnswer(e: Event): boolean {
  return e.kind === 'ObservationEvent' || e.kind === 'UserRejectObservation' || e.kind === 'AgentErrorEvent';
}

async function replayAll(store: Store, id: string): Promise<MemoryLoad> {
  const events: Event[] = [];
  const indices: number[] = [];
  let index = 0;
  for await (const slot of store.iterate(0)) {
    if (!isCorruptRecord(slot)) {
      events.push(slot as Event);
      indices.push(index);
    }
    index++;
  }
  return {
    memory: ConversationMemory.fromEvents(events, id, indices),
    fromSnapshot: null,
    replayed: events.length,
  };
}

/**
 * The view a checkpoint describes, its events read back from the store: where positions are known
 * (always, for checkpoints the runtime writes) in runs of nearby events, each checked by id; any
 * other by id. Undefined when one cannot be read.
 */
async function restoreView(
  store: Store,
  saved: ViewCheckpoint | CompactView,
): Promise<{ view: ViewBuilder; events: Map<string, Event> } | undefined> {
  const found = new Map<string, Event>();
  let cp: ViewCheckpoint;
  if ('kept' in saved) {
    const { kept, ...rest } = saved;
    const positions = decodePositions(kept);
    if (!positions || positions.at(-1)! >= store.length) return undefined;
    const events = await readAt(store, positions);
    if (events.some((e) => e === undefined)) return undefined;
    const entries = events.map((e) => e!.id);
    // The events now at those positions must be the ones the checkpoint named.
    if (idsCrc(entries) !== kept.idsCrc) return undefined;
    for (const e of events) found.set(e!.id, e!);
    cp = { entries, at: positions, ...rest };
  } else {
    cp = saved;
  }
  const wanted = cp.entries.map((id, i) => ({ id, at: cp.at[i] ?? null }));
  if (cp.summary) wanted.push({ id: cp.summary.id, at: cp.summary.at });
  const positioned = wanted
    .filter((w) => !found.has(w.id) && w.at !== null && w.at < store.length)
    .sort((a, b) => a.at! - b.at!);
  const read = await readAt(
    store,
    positioned.map((w) => w.at!),
  );
  positioned.forEach((w, k) => {
    const e = read[k];
    if (e?.id === w.id) found.set(e.id, e);
  });
  for (const w of wanted) {
    if (found.has(w.id)) continue;
    const e = await readById(store, w.id);
    if (!e) return undefined;
    found.set(w.id, e);
  }
  const view = ViewBuilder.restore(cp, (id) => found.get(id));
  return view ? { view, events: found } : undefined;
}

/**
 * The readable events at these increasing positions (undefined where a record is unreadable), read
 * in runs of nearby positions.
 */
async function readAt(store: Store, positions: readonly number[]): Promise<(Event | undefined)[]> {
  if (store.readAt && positions.every((p, i) => i === 0 || p > positions[i - 1]!)) {
    // Decodes only these records: a view's positions skip the forgotten events between them.
    const slots = await store.readAt(positions);
    if (slots.length === positions.length)
      return slots.map((slot) => (isCorruptRecord(slot) ? undefined : (slot as Event)));
  }
  const out: (Event | undefined)[] = [];
  for (let i = 0; i < positions.length;) {
    const from = positions[i]!;
    let j = i;
    while (
      j + 1 < positions.length &&
      positions[j + 1]! - positions[j]! <= RUN_GAP &&
      positions[j + 1]! - from < RUN_SPAN
    )
      j++;
    const slots = await store.slice(from, positions[j]! + 1);
    for (; i <= j; i++) {
      const slot = slots[positions[i]! - from];
      out.push(slot && !isCorruptRecord(slot) ? (slot as Event) : undefined);
    }
  }
  return out;
}

/** The readable event with this id, or undefined (absent, unreadable, or the read failed). */
async function readById(store: Store, id: string): Promise<Event | undefined> {
  const e = await store.getById(id).catch(() => undefined);
  return e && !isCorruptRecord(e) ? (e as Event) : undefined;
}

/**
 * The readable events at or before `index` that follow the last user message there, at most
 * RECENT_LIMIT of them, in order.
 */
async function recentBefore(store: Store, index: number): Promise<Event[]> {
  const out: Event[] = [];
  for (let to = index + 1; to > 0 && out.length < RECENT_LIMIT; to -= CHUNK) {
    const slots = await store.slice(Math.max(0, to - CHUNK), to);
    for (let k = slots.length - 1; k >= 0 && out.length < RECENT_LIMIT; k--) {
      const slot = slots[k]!;
      if (isCorruptRecord(slot)) continue;
      const e = slot as Event;
      if (e.kind === 'MessageEvent' && e.source === 'user') return out.reverse();
      out.push(e);
    }
  }
  return out.reverse();
}
