// Where a conversation's events are written. Appends form one queue after the head, known secrets
// are redacted, the derived memory absorbs each event, listeners are told, and a snapshot is taken
// every few events. The parts of the loop record through the narrow `ConversationLog`, so none of
// them touches the store or orders appends itself.
import {
  createEvent,
  type CreateFields,
  type Event,
  type EventKind,
  type EventOfKind,
  type PayloadSchemas,
} from '../events';
import type { EventStore } from '../log/event-store';
import { isCorruptRecord } from '../log/event-store';
import { encodeSnapshot, EXECUTION_STATUS_KEY, type ConversationState, type ExecutionStatus } from '../state';
import type { SecretGuard } from '../secrets';
import type { ConversationMemory } from './conversation-memory';
import type { StoredConversationEvent } from './event-codec';
import { stampEvent, type AgentStamp } from '../agents/agent-events';

/** What the parts of the loop read and record through. */
export interface ConversationLog {
  readonly state: ConversationState;
  /** Appends one event after the head; `durable`: on disk before it resolves. */
  append<K extends EventKind>(kind: K, fields: CreateFields<K>, durable?: boolean): Promise<EventOfKind<K>>;
  /** Records a new execution status (nothing when it is the status already). */
  setStatus(status: ExecutionStatus): Promise<void>;
  /** Records why the run stopped with an error, and the `error` status. */
  fail(code: string, detail: string): Promise<void>;
  /** Records a pause, and the `paused` status. */
  pause(): Promise<void>;
}

export type EventListener = (event: Event, index: number) => void;

export class ConversationJournal implements ConversationLog {
  private appendQueue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<EventListener>();

  constructor(
    private readonly store: EventStore<StoredConversationEvent>,
    /** Everything derived from the log that the loop reads: state, prompt view, pending actions. */
    readonly memory: ConversationMemory,
    private readonly secretGuard: SecretGuard,
    /** Events between two persisted snapshots (at least 1). */
    private readonly snapshotEvery: number,
    /** The payload schemas of the conversation's tools now (its own set, never another's). */
    private readonly payloads: () => PayloadSchemas,
    /** The agent that appends now (a handoff changes it); none: events carry no stamp. */
    private readonly stamp?: () => AgentStamp,
  ) {}

  get state(): ConversationState {
    return this.memory.state;
  }

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends one event after the current HEAD. Appends are queued: an event's parent is read only
   * once the append before it is in the state, so a user action during a run (a rename while the
   * agent's durable append waits for its fsync) never gives two events the same parent.
   */
  append<K extends EventKind>(kind: K, fields: CreateFields<K>, durable = false): Promise<EventOfKind<K>> {
    const write = async (): Promise<EventOfKind<K>> => {
      const event = createEvent(
        kind,
        { ...(fields as object), parent_id: this.state.head } as unknown as CreateFields<K>,
        this.payloads(),
      );
      return (await this.appendEvent(event as Event, durable)) as EventOfKind<K>;
    };
    const appended = this.appendQueue.then(write);
    this.appendQueue = appended.catch(() => undefined);
    return appended;
  }

  /** The one place events are appended; returns the event as stored (secrets redacted). */
  async appendEvent(given: Event, durable: boolean): Promise<Event> {
    const event = this.secretGuard.event(this.stamp ? stampEvent(given, this.stamp()) : given);
    const index = await this.store.append(event as StoredConversationEvent, { durable });
    this.memory.absorb(event, index);
    // Periodic snapshots let a long log be opened from the newest one plus its tail.
    if ((index + 1) % this.snapshotEvery === 0) await this.snapshotAt(index);
    for (const l of this.listeners) l(event, index);
    return event;
  }

  async setStatus(status: ExecutionStatus): Promise<void> {
    if (this.state.status === status) return;
    await this.append('ConversationStateUpdateEvent', { key: EXECUTION_STATUS_KEY, value: status });
  }

  async fail(code: string, detail: string): Promise<void> {
    await this.append('ConversationErrorEvent', { code, detail } as CreateFields<'ConversationErrorEvent'>);
    await this.setStatus('error');
  }

  async pause(): Promise<void> {
    await this.append('PauseEvent', {} as CreateFields<'PauseEvent'>);
    await this.setStatus('paused');
  }

  /** A snapshot at the last event, when that event is the head (not an unreadable record). */
  async snapshotHead(): Promise<void> {
    const last = this.store.length - 1;
    const slot = last >= 0 ? await this.store.get(last) : undefined;
    if (slot && !isCorruptRecord(slot) && slot.id === this.state.head) await this.snapshotAt(last);
  }

  /** Best effort: a snapshot that cannot be written only makes the next open slower. */
  private async snapshotAt(index: number): Promise<void> {
    const json = encodeSnapshot(this.state, await this.memory.resumeData());
    await this.store.writeSnapshot(index, json).catch(() => undefined);
  }
}
