// A segment log whose every event is hash-chained and signed (FORMAT.md, "Signatures"). It wraps
// the store rather than changing it: the codec passes each record's JSON through (so the hash is of
// the exact bytes written, at no second serialization), an append listener chains the record once
// it is written, and signatures are made 5 ms after an append, like group commit, and at every
// flush and close. An unsigned store does none of this.
import path from 'node:path';
import {
  type AppendListener,
  type AppendOptions,
  type EventCodec,
  type EventStore,
  type Slot,
  type Snapshot,
  type StoredEvent,
  jsonCodec,
  readOnlyError,
} from '../log/event-store';
import { SegmentEventStore, type SegmentStoreOptions } from '../log/segment-store';
import { b64, eventHash } from './chain';
import type { SigningIdentity } from './identity';
import type { RecordHashes } from './record-hashes';
import { ChainWriter } from './chain-writer';
import { type CopySource, planSourceProof } from './fork-proof';

export type { CopySource } from './fork-proof';

export interface SignedStoreOptions<E extends StoredEvent> extends SegmentStoreOptions<E> {
  identity: SigningIdentity;
  /**
   * What records already in the log without a hash are: `late` (written before a signer saw them:
   * an older conversation, or a crash before signing) or `imported` (an import just wrote them).
   */
  unchainedAre?: 'late' | 'imported';
  /** The conversation's id: a chain started here (version 2) binds it. Defaults to the folder's name. */
  conversationId?: string;
  /**
   * The hashes of the log's records as their writer computed them while writing (an import, which
   * wrote every one): the unchained records are chained from them instead of being read back. They
   * are used only when they cover the whole log.
   */
  recordHashes?: RecordHashes;
  /**
   * Where this conversation's signed head is kept outside its folder (head-record.ts), rewritten
   * after each sync of signatures.log; none: not kept (verify then cannot prove completeness).
   */
  headFile?: string;
}

/**
 * Opens `dir` as a SegmentEventStore whose appends are signed by `identity`. A read-only open
 * (another process writes) signs nothing and reads as usual.
 */
export async function openSignedStore<E extends StoredEvent>(
  dir: string,
  opts: SignedStoreOptions<E>,
): Promise<SignedEventStore<E>> {
  const codec = opts.codec ?? jsonCodec<E>();
  let last: { e: E; json: string } | null = null;
  const passing: EventCodec<E> = {
    oneLine: codec.oneLine ?? false,
    decode: (line, index) => codec.decode(line, index),
    encode: (e) => {
      const json = codec.encode(e);
      last = { e, json };
      return json;
    },
  };
  const { identity, unchainedAre, conversationId, headFile, recordHashes, ...rest } = opts;
  const inner = await SegmentEventStore.open<E>(dir, { ...rest, codec: passing });
  if (inner.readOnly) return new SignedEventStore(inner, null, identity.did, passing.encode);
  let chain: ChainWriter;
  try {
    chain = ChainWriter.open(dir, identity, inner.length, {
      unchainedAre: unchainedAre ?? 'late',
      recordHashes,
      conversationId: conversationId ?? path.basename(path.resolve(dir)),
      headFile,
    });
  } catch (err) {
    await inner.close();
    throw err;
  }
  inner.subscribe((e) => {
    const l = last;
    last = null;
    // The codec saw this event just before it was written: hash exactly those bytes.
    chain.add(eventHash(l && l.e === e ? l.json : codec.encode(e)));
  });
  return new SignedEventStore(inner, chain, identity.did, (e) => codec.encode(e));
}

export class SignedEventStore<E extends StoredEvent = StoredEvent> implements EventStore<E> {
  constructor(
    readonly inner: SegmentEventStore<E>,
    private readonly chain: ChainWriter | null,
    private signer: string,
    private readonly encode: (e: E) => string,
  ) {}

  /** The did:key that signs the next appends. */
  get signerDid(): string {
    return this.signer;
  }

  /** From now on the appends are signed by `identity` (the events before it by the key before). */
  useIdentity(identity: SigningIdentity): void {
    if (!this.chain) throw readOnlyError(this.lockHeldBy);
    this.chain.useIdentity(identity);
    this.signer = identity.did;
  }

  get dir(): string {
    return this.inner.dir;
  }

  /**
   * Appends a fork's copies of its source's events into this empty log, with the proof that the
   * source signed them (its chain and signatures, FORMAT.md "Forks"), so they verify as signed by
   * the source's did:key. Copies the source never signed (an unsigned or tampered source, events
   * after its last signature) are chained as late.
   */
  async appendCopies(events: readonly E[], source: CopySource): Promise<void> {
    if (this.inner.length > 0) throw new Error('Copies are written into an empty log only.');
    const chain = this.chain;
    if (!chain) throw readOnlyError(this.lockHeldBy);
    const plan = planSourceProof(
      source,
      events.map((e) => b64(eventHash(this.encode(e)))),
    );
    if (plan.block) chain.before(plan.block);
    for (let k = 0; k < events.length; k++) {
      const mark = plan.marks.get(k);
      if (mark) chain.marker(mark);
      await this.append(events[k]!);
    }
  }

  get readOnly(): boolean {
    return this.inner.readOnly;
  }
  get lockHeldBy(): string | null {
    return this.inner.lockHeldBy;
  }
  get truncatedOnOpen(): number {
    return this.inner.truncatedOnOpen;
  }
  get lostOnOpen() {
    return this.inner.lostOnOpen;
  }
  get length(): number {
    return this.inner.length;
  }
  get openReport() {
    return this.inner.openReport;
  }

  append(e: E, opts?: AppendOptions): Promise<number> {
    if (this.chain?.failure) return Promise.reject(this.chain.failure);
    // Signed like any append, 5 ms later (a group commit). Signing here, before the append
    // resolves, cost 0.10–0.15× of this machine's durable p50 (FORMAT.md, "Durable appends");
    // events a crash leaves unsigned are chained as late when the log is opened again.
    if (opts?.durable) this.chain?.durableAppended();
    const appended = this.inner.append(e, opts);
    const chain = this.chain;
    if (opts?.durable && chain)
      appended.then(
        (index) => chain.durableThrough(index + 1),
        () => undefined,
      );
    return appended;
  }

  get(index: number): Promise<Slot<E>> {
    return this.inner.get(index);
  }
  getById(id: string): Promise<E | undefined> {
    return this.inner.getById(id);
  }
  indexOf(id: string): Promise<number> {
    return this.inner.indexOf(id);
  }
  slice(from?: number, to?: number): Promise<Slot<E>[]> {
    return this.inner.slice(from, to);
  }
  /** Passed through: without it, a view restored from a snapshot decodes every event between its own. */
  readAt(positions: readonly number[]): Promise<Slot<E>[]> {
    return this.inner.readAt(positions);
  }
  iterate(from?: number): AsyncIterableIterator<Slot<E>> {
    return this.inner.iterate(from);
  }
  subscribe(listener: AppendListener<E>): () => void {
    return this.inner.subscribe(listener);
  }
  async flush(): Promise<void> {
    if (!this.chain) return this.inner.flush();
    this.chain.commit();
    await Promise.all([this.inner.flush(), this.chain.syncNow()]);
    await this.chain.recordHeadNow();
  }
  writeSnapshot(index: number, json: string): Promise<void> {
    return this.inner.writeSnapshot(index, json);
  }
  latestSnapshot(atOrBefore?: number): Promise<Snapshot | undefined> {
    return this.inner.latestSnapshot(atOrBefore);
  }
  async close(): Promise<void> {
    try {
      if (this.chain && !this.chain.failure) {
        this.chain.commit();
        await Promise.all([this.inner.flush(), this.chain.syncNow()]);
        await this.chain.recordHeadNow();
      }
    } finally {
      this.chain?.close();
      await this.inner.close();
    }
  }
}
