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
import { copyEvents, detectBackend, OpenHandsDirStore, SegmentEventStore } from '../log';
import type { EventStore } from '../log/event-store';
import { SIGNATURES_FILE, type SigningIdentity, eventHash, openSignedStore } from '../signing';
import { parseChainFile } from '../signing/chain';
import { chainIdToken } from '../signing/chain-head';
import { rawRecords } from '../signing/raw-records';
import { conversationEventCodec, type StoredConversationEvent } from './event-codec';
import { followWithSnapshots } from './snapshot-follower';

/** The OpenHands base_state.json of an imported SDK conversation, kept next to its log. */
export const IMPORTED_BASE_STATE = 'openhands-base-state.json';

/** The signatures of a conversation exported by Logbook, beside the OpenHands files (which OpenHands ignores). */
export const EXPORTED_SIGNATURES = 'logbook-signatures.log';

/** The key of the event that records an import. */
export const IMPORTED_FROM_KEY = 'imported_from';

export type ImportFormat = 'openhands-sdk' | 'openhands-v0';

export interface ImportResult {
  format: ImportFormat;
  /** Events written. */
  count: number;
  /** The conversation id its snapshots were written for. */
  id: string;
  /** Whether the source's own signatures (a Logbook export) were kept and still hold its events. */
  signaturesKept: boolean;
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
    const target = await SegmentEventStore.open<StoredConversationEvent>(to, {
      codec: conversationEventCodec,
    });
    let count = 0;
    try {
      const snapshots = followWithSnapshots(target, id);
      if (v0) {
        for (const event of v0) await target.append(event as StoredConversationEvent);
        await target.flush();
        count = v0.length;
      } else {
        count = await copySdkEvents(from, target);
      }
      await snapshots.finish();
    } finally {
      await target.close();
    }
    if (!v0 && existsSync(join(from, 'base_state.json'))) {
      copyFileSync(join(from, 'base_state.json'), join(to, IMPORTED_BASE_STATE));
    }
    const signaturesKept = !v0 && opts.identity !== undefined && keepExportedSignatures(from, to, id);
    await recordImport(
      to,
      opts.identity,
      { conversationId: id, headFile: opts.headFile },
      {
        format,
        source: basename(from),
        events: count,
        signatures_kept: signaturesKept,
      },
    );
    return { format, count, id, signaturesKept };
  } catch (err) {
    // Half an import is worse than none: the user fixes the source and runs it again.
    if (created) rmSync(to, { recursive: true, force: true });
    throw err;
  }
}

async function copySdkEvents(
  from: string,
  target: SegmentEventStore<StoredConversationEvent>,
): Promise<number> {
  const source = await OpenHandsDirStore.open<StoredConversationEvent>(from, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  try {
    return await copyEvents(source, target);
  } finally {
    await source.close();
  }
}

/**
 * Appends the event that records the import. Signed, the events before it are chained as imported
 * (or as the exported signatures had them) and it is the first event signed by `identity`.
 */
async function recordImport(
  to: string,
  identity: SigningIdentity | undefined,
  chain: { conversationId: string; headFile: string | undefined },
  value: Record<string, unknown>,
): Promise<void> {
  const store: EventStore<StoredConversationEvent> = identity
    ? await openSignedStore<StoredConversationEvent>(to, {
        codec: conversationEventCodec,
        identity,
        unchainedAre: 'imported',
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
 * Puts the exported signatures of a Logbook conversation in place when every event they chain is
 * byte for byte the event imported at that index, and a version-2 chain is bound to the id it is
 * imported as; otherwise the import is treated as unsigned.
 */
function keepExportedSignatures(from: string, to: string, id: string): boolean {
  let text: string;
  try {
    text = readFileSync(join(from, EXPORTED_SIGNATURES), 'utf8');
  } catch {
    return false;
  }
  text = text.slice(0, text.lastIndexOf('\n') + 1);
  const chain = parseChainFile(text);
  if (chain.malformed || chain.hashes.length === 0) return false;
  if (chain.version === 2 && chain.conversation !== chainIdToken(id)) return false;
  let i = 0;
  for (const r of rawRecords(to)) {
    if (i >= chain.hashes.length) break;
    if (!r.ok || eventHash(r.bytes).toString('base64url') !== chain.hashes[i]) return false;
    i++;
  }
  if (i < chain.hashes.length) return false;
  writeFileSync(join(to, SIGNATURES_FILE), text);
  return true;
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
