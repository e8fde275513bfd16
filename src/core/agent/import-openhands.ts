/**
 * Importing an OpenHands conversation into a new segment log, from either of its two formats:
 * - an OpenHands SDK conversation folder (base_state.json and events/event-NNNNN-<id>.json): events
 *   are copied record for record (unknown kinds too, as opaque events) and base_state.json is kept
 *   next to the log, so an export gives it back;
 * - an OpenHands V0 trajectory file (a JSON array of V0 records, as "save trajectory" writes it, or
 *   an object holding it under `history` or `trajectory`): each record is mapped to a Logbook event
 *   by importV0Trajectory.
 * Snapshots are written as the events are appended, so the first open of a long import reads only
 * the newest one's tail. A failed import leaves nothing behind.
 *
 * The import itself is recorded as the log's next event, a ConversationStateUpdateEvent whose key
 * is `imported_from` (OpenHands accepts any key and an export carries it as it is). With a signing
 * identity, the imported events are chained as imported (`i`, FORMAT.md "Imports") and everything
 * from the import event on is signed; a folder exported by Logbook keeps its signatures in
 * EXPORTED_SIGNATURES, and when the imported events are byte for byte what they signed, the import
 * keeps them, so the conversation still verifies as signed by its first author.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createEvent, type Event, importV0Trajectory } from '../events';
import {
  copyEvents,
  detectBackend,
  EventStoreError,
  isCorruptRecord,
  OpenHandsDirStore,
  SegmentEventStore,
} from '../log';
import type { EventCodec, EventStore, Slot } from '../log/event-store';
import { SIGNATURES_FILE, type SigningIdentity, openSignedStore } from '../signing';
import { parseChainFile } from '../signing/chain';
import { chainIdToken } from '../signing/chain-head';
import { RecordHashes } from '../signing/record-hashes';
import { conversationEventCodec, importEventCodec, type StoredConversationEvent } from './event-codec';
import { ORIGINAL_RECORDS, OriginalRecords, sameEvents, SdkExportPipeline } from './sdk-export-pipeline';
import { applyPatch, restamp } from './original-records';
import { followWithSnapshots } from './snapshot-follower';

/** The OpenHands base_state.json of an imported SDK conversation, kept next to its log. */
export const IMPORTED_BASE_STATE = 'openhands-base-state.json';

/** The signatures of a conversation exported by Logbook, beside the OpenHands files (which OpenHands ignores). */
export const EXPORTED_SIGNATURES = 'logbook-signatures.log';

/** Bytes of records an import writes with one call. */
const IMPORT_WRITE_BATCH = 1024 * 1024;

/** Events from which an import reads the files ahead on a worker thread (starting one costs a few ms). */
const READ_AHEAD_FROM = 2048;

/** The key of the event that records an import. */
export const IMPORTED_FROM_KEY = 'imported_from';

export type ImportFormat = 'openhands-sdk' | 'openhands-v0';

export interface ImportResult {
  format: ImportFormat;
  /** Events written. */
  count: number;
  /** The conversation id its snapshots were written for. */
  id: string;
  /** Whether the source's own signatures (a Logbook export) were kept for some of its events. */
  signaturesKept: boolean;
  /** How many of the first events stay signed by their first author (0 when none do). */
  signedEventsKept: number;
}

/** What `path` holds: an OpenHands SDK conversation folder or a V0 trajectory file; throws otherwise. */
export function detectImportFormat(path: string): ImportFormat {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new Error(`${path} does not exist.`);
  }
  if (stat.isDirectory()) {
    if (detectBackend(path) === 'openhands') return 'openhands-sdk';
    throw new Error(
      `${path} is not an OpenHands conversation (no base_state.json or events/ folder), ` +
        'nor an OpenHands V0 trajectory file.',
    );
  }
  if (stat.isFile()) return 'openhands-v0';
  throw new Error(`${path} is neither a folder nor a file.`);
}

/** The records of a V0 trajectory file; throws, naming the file, when it holds none. */
export function readV0Trajectory(file: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not an OpenHands V0 trajectory: it is not JSON (${(err as Error).message}).`);
  }
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of ['history', 'trajectory']) if (Array.isArray(o[key])) return o[key];
  }
  throw new Error(
    `${file} is not an OpenHands V0 trajectory: expected a JSON array of events ` +
      '(or an object with a "history" or "trajectory" array).',
  );
}

/**
 * Imports `from` (an SDK folder or a V0 file) into `to`, which must not hold anything yet. The id
 * defaults to the SDK conversation's own id (else its folder name), and to `to`'s name for V0.
 */
export async function importOpenHands(
  from: string,
  to: string,
  opts: { id?: string; identity?: SigningIdentity; headFile?: string } = {},
): Promise<ImportResult> {
  const format = detectImportFormat(from);
  // Read and checked before anything is created: a bad file leaves no empty conversation behind.
  const v0 = format === 'openhands-v0' ? importV0Trajectory(readV0Trajectory(from)) : undefined;
  const id = opts.id ?? (v0 ? basename(to) : sdkConversationId(from));
  const created = !existsSync(to);
  mkdirSync(to, { recursive: true });
  try {
    // Signed, every record is hashed as it is written, so chaining them needs no second read.
    const hashes = opts.identity ? new RecordHashes() : undefined;
    const written = hashes ? hashingCodec(importEventCodec, hashes) : undefined;
    const target = await SegmentEventStore.open<StoredConversationEvent>(to, {
      codec: written?.codec ?? importEventCodec,
      // A failed import is removed whole, so its records need not reach the file one by one.
      writeBatchBytes: IMPORT_WRITE_BATCH,
      // Its snapshots likewise: synced together when the store closes, before the import succeeds.
      deferSnapshotSyncs: true,
    });
    if (written) target.subscribe(written.onAppend);
    let count = 0;
    try {
      if (v0) {
        const snapshots = followWithSnapshots(target, id, { expectedLength: v0.length });
        for (const event of v0) await target.append(event as StoredConversationEvent);
        await target.flush();
        await snapshots.finish();
        count = v0.length;
      } else {
        count = await copySdkEvents(from, target, id);
      }
    } finally {
      await target.close();
    }
    if (!v0 && existsSync(join(from, 'base_state.json'))) {
      copyFileSync(join(from, 'base_state.json'), join(to, IMPORTED_BASE_STATE));
    }
    const signedKept = !v0 && hashes ? keepExportedSignatures(from, to, id, hashes) : 0;
    const signaturesKept = signedKept > 0;
    await recordImport(
      to,
      opts.identity,
      { conversationId: id, headFile: opts.headFile, hashes },
      {
        format,
        source: basename(from),
        events: count,
        signatures_kept: signaturesKept,
        ...(signaturesKept ? { signed_events_kept: signedKept } : {}),
      },
    );
    return { format, count, id, signaturesKept, signedEventsKept: signedKept };
  } catch (err) {
    // Half an import is worse than none: the user fixes the source and runs it again.
    if (created) rmSync(to, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The SDK folder's events appended to `target` as they are read (a few dozen files ahead, see
 * OpenHandsDirStore.iterate), with the snapshots a log of their number keeps.
 */
async function copySdkEvents(
  from: string,
  target: SegmentEventStore<StoredConversationEvent>,
  id: string,
): Promise<number> {
  const originals = OriginalRecords.open(join(from, ORIGINAL_RECORDS));
  try {
    // Events only copied are not frozen (importEventCodec); a Logbook export's are compared and rebuilt.
    const source = await OpenHandsDirStore.open<StoredConversationEvent>(from, {
      codec: originals ? conversationEventCodec : importEventCodec,
      readOnly: true,
      // A long folder's files are read on a second thread while this one stores them.
      readAheadFrom: READ_AHEAD_FROM,
    });
    try {
      const snapshots = followWithSnapshots(target, id, { expectedLength: source.length });
      const count = originals
        ? await copyWithOriginals(source.iterate(0), originals, target)
        : await copyEvents(source, target);
      await snapshots.finish();
      return count;
    } finally {
      await source.close();
    }
  } finally {
    originals?.close();
  }
}

/**
 * A Logbook export: each record the export changed comes back as the log stored it, as long as
 * the export pipeline still makes exactly the exported events of it (sdk-export-pipeline.ts);
 * from the first one it does not, the exported events are imported as they are. The exported
 * events are read as they are needed, never all at once.
 */
async function copyWithOriginals(
  exported: AsyncIterable<Slot<StoredConversationEvent>>,
  originals: OriginalRecords,
  target: SegmentEventStore<StoredConversationEvent>,
): Promise<number> {
  const pipeline = new SdkExportPipeline();
  const ahead = new Lookahead(exported);
  let index = 0; // next record of the original log
  let n = 0;
  const append = async (e: Slot<StoredConversationEvent>) => {
    if (isCorruptRecord(e))
      throw new EventStoreError('CORRUPT', `record ${n} is unreadable (${e.reason}); fix or skip it first`);
    await target.append(e);
    n++;
  };
  for (;;) {
    const kept = originals.at(index);
    const whole = kept && 'record' in kept ? kept.record : undefined;
    const first = whole === undefined ? await ahead.peek(1) : [];
    if (whole === undefined && first.length === 0) break;
    let record = whole !== undefined ? conversationEventCodec.decode(whole, index) : first[0]!;
    if (isCorruptRecord(record)) break;
    // Only its agent stamp was kept: it goes back on the exported event.
    if (kept && 'stamp' in kept && kept.stamp) record = restamp(record, kept.stamp);
    // Only the fields the export changed were kept: the record is rebuilt from its export.
    if (kept && 'patch' in kept) record = applyPatch(record, kept.patch) as StoredConversationEvent;
    const made = pipeline.convert(record);
    const next = await ahead.peek(made.length);
    if (next.some(isCorruptRecord) || !sameEvents(made, next as StoredConversationEvent[])) break;
    await append(record);
    ahead.skip(made.length);
    index++;
  }
  for (let rest = await ahead.peek(1); rest.length > 0; rest = await ahead.peek(1)) {
    await append(rest[0]!);
    ahead.skip(1);
  }
  await target.flush();
  return n;
}

/** An async sequence that can be looked ahead into by a few items. */
class Lookahead<T> {
  private readonly iterator: AsyncIterator<T>;
  private readonly buffered: T[] = [];
  private ended = false;

  constructor(source: AsyncIterable<T>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next `n` items (fewer at the end), not consumed. */
  async peek(n: number): Promise<T[]> {
    while (this.buffered.length < n && !this.ended) {
      const r = await this.iterator.next();
      if (r.done) this.ended = true;
      else this.buffered.push(r.value);
    }
    return this.buffered.slice(0, n);
  }

  /** Consumes `n` items already peeked at. */
  skip(n: number): void {
    this.buffered.splice(0, n);
  }
}

/**
 * The import's codec, which notes the hash of every record the store writes: the JSON it encodes is
 * hashed once the store reports the append (a failed append reports nothing).
 */
function hashingCodec(
  base: EventCodec<StoredConversationEvent>,
  hashes: RecordHashes,
): {
  codec: EventCodec<StoredConversationEvent>;
  onAppend: (e: StoredConversationEvent) => void;
} {
  let last: { e: StoredConversationEvent; json: string } | null = null;
  return {
    codec: {
      ...base,
      encode: (e) => {
        const json = base.encode(e);
        last = { e, json };
        return json;
      },
    },
    onAppend: (e) => {
      const l = last;
      last = null;
      hashes.addRecord(l && l.e === e ? l.json : base.encode(e));
    },
  };
}

/**
 * Appends the event that records the import. Signed, the events before it are chained as imported
 * (or as the exported signatures had them) and it is the first event signed by `identity`.
 */
async function recordImport(
  to: string,
  identity: SigningIdentity | undefined,
  chain: { conversationId: string; headFile: string | undefined; hashes: RecordHashes | undefined },
  value: Record<string, unknown>,
): Promise<void> {
  const store: EventStore<StoredConversationEvent> = identity
    ? await openSignedStore<StoredConversationEvent>(to, {
        codec: conversationEventCodec,
        identity,
        unchainedAre: 'imported',
        recordHashes: chain.hashes,
        conversationId: chain.conversationId,
        ...(chain.headFile !== undefined ? { headFile: chain.headFile } : {}),
      })
    : await SegmentEventStore.open<StoredConversationEvent>(to, { codec: conversationEventCodec });
  try {
    const last = store.length > 0 ? await store.get(store.length - 1) : undefined;
    const event = createEvent('ConversationStateUpdateEvent', {
      key: IMPORTED_FROM_KEY,
      value,
      parent_id: last && 'id' in last ? last.id : null,
    });
    await store.append(event as Event as StoredConversationEvent, { durable: true });
  } finally {
    await store.close();
  }
}

/**
 * Puts the exported signatures of a Logbook conversation in place for the events that came back
 * byte for byte as they were chained: the longest run from the first event, cut at the last
 * signature within it (a signature vouches for every event before it), and only when a version-2
 * chain is bound to the id it is imported as. Returns how many events stay signed; the events
 * after them are chained as imported, as in an unsigned import.
 */
function keepExportedSignatures(from: string, to: string, id: string, hashes: RecordHashes): number {
  let text: string;
  try {
    text = readFileSync(join(from, EXPORTED_SIGNATURES), 'utf8');
  } catch {
    return 0;
  }
  text = text.slice(0, text.lastIndexOf('\n') + 1);
  const chain = parseChainFile(text);
  if (chain.malformed || chain.hashes.length === 0) return 0;
  if (chain.version === 2 && chain.conversation !== chainIdToken(id)) return 0;
  let same = 0;
  const end = Math.min(chain.hashes.length, hashes.count);
  while (same < end && hashes.at(same).toString('base64url') === chain.hashes[same]) same++;
  const signed = chain.signatures.filter((sig) => sig.count <= same).at(-1)?.count ?? 0;
  // A fork's proof covers its first copies as a whole: all of them stay signed, or none.
  if (signed === 0 || (chain.fork && chain.fork.copies > signed)) return 0;
  writeFileSync(join(to, SIGNATURES_FILE), chainPrefix(text, signed));
  return signed;
}

/** The lines of a signatures.log that concern its first `count` events (the rest are dropped). */
function chainPrefix(text: string, count: number): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [tag, a, b] = line.split(' ');
    if (tag === 'h' && Number(a) >= count) continue;
    if (tag === 's' && Number(a) > count) continue;
    if (tag === 'l' || tag === 'i') {
      if (Number(a) >= count) continue;
      out.push(`${tag} ${a} ${Math.min(Number(b), count - 1)}`);
      continue;
    }
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}

/**
 * The conversation id a Logbook export's signatures are bound to (version 2), or null: importing it
 * under that id keeps its signatures.
 */
export function exportedChainId(from: string): string | null {
  try {
    return parseChainFile(readFileSync(join(from, EXPORTED_SIGNATURES), 'utf8')).conversation;
  } catch {
    return null;
  }
}

/** The id in an SDK folder's base_state.json, else the folder's name. */
function sdkConversationId(dir: string): string {
  try {
    const id = (JSON.parse(readFileSync(join(dir, 'base_state.json'), 'utf8')) as { id?: unknown }).id;
    if (typeof id === 'string' && id !== '') return id;
  } catch {
    // no (readable) state: fall back to the name
  }
  return basename(dir);
}
