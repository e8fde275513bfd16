/**
 * The list of a workspace's conversations (for the history picker), kept in one JSON file so the
 * list shows without opening every log. It is a cache of the logs: missing or damaged, it is
 * rebuilt from the conversation folders (the caller derives one entry per folder) and rewritten.
 * Writes go to a temp file that is fsynced then renamed, so a crash leaves the old or the new file.
 * Two windows writing at once: the last rename wins, and the next open rebuilds or updates it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { removeStaleTempFiles, tempsOf } from '../log/durable-file';
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ConversationState } from './conversation-state';
import { EXECUTION_STATUSES } from './transitions';

export const IndexEntrySchema = lazySchema(() =>
  z.object({
    id: z.string().min(1),
    title: z.string().nullable(),
    status: z.enum(EXECUTION_STATUSES),
    created: z.string().nullable(),
    updated: z.string().nullable(),
    eventCount: z.number().int().nonnegative(),
    /** USD */
    cost: z.number().nonnegative(),
  }),
);
export type IndexEntry = z.output<typeof IndexEntrySchema>;

export const INDEX_VERSION = 1;
const IndexFileSchema = lazySchema(() =>
  z.object({ version: z.literal(INDEX_VERSION), entries: z.array(IndexEntrySchema) }),
);

/** Entries newest first (by `updated`, then id), one per conversation id. */
export interface ConversationIndex {
  entries: IndexEntry[];
}

export function entryFromState(id: string, state: ConversationState): IndexEntry {
  return {
    id,
    title: state.title,
    status: state.status,
    created: state.createdAt,
    updated: state.updatedAt,
    eventCount: state.eventCount,
    cost: state.metrics.total.cost,
  };
}

/** An index from entries in any order; for a repeated id the most recently updated entry wins. */
export function rebuildIndex(entries: Iterable<IndexEntry>): ConversationIndex {
  const byId = new Map<string, IndexEntry>();
  for (const e of entries) {
    const seen = byId.get(e.id);
    if (!seen || compareUpdated(e, seen) < 0) byId.set(e.id, e);
  }
  return { entries: [...byId.values()].sort(compareEntries) };
}

export function upsertEntry(index: ConversationIndex, entry: IndexEntry): ConversationIndex {
  return { entries: [...index.entries.filter((e) => e.id !== entry.id), entry].sort(compareEntries) };
}

export function removeEntry(index: ConversationIndex, id: string): ConversationIndex {
  return { entries: index.entries.filter((e) => e.id !== id) };
}

export function serializeIndex(index: ConversationIndex): string {
  return JSON.stringify({ version: INDEX_VERSION, entries: index.entries }, null, 1) + '\n';
}

export type IndexParse = { ok: true; index: ConversationIndex } | { ok: false; detail: string };

export function parseIndex(text: string): IndexParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, detail: `not JSON: ${(err as Error).message}` };
  }
  const parsed = IndexFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      detail: `not an index: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
    };
  }
  return { ok: true, index: rebuildIndex(parsed.data.entries) };
}

/** Newest first; entries never updated last; ties by id so the order is total. */
function compareEntries(a: IndexEntry, b: IndexEntry): number {
  return compareUpdated(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function compareUpdated(a: IndexEntry, b: IndexEntry): number {
  if (a.updated === b.updated) return 0;
  if (a.updated === null) return 1;
  if (b.updated === null) return -1;
  return a.updated > b.updated ? -1 : 1;
}

export type IndexLoad =
  | { index: ConversationIndex; source: 'file' }
  | { index: ConversationIndex; source: 'rebuilt'; reason: 'missing' | 'corrupt'; detail: string };

/** The index file of one workspace. */
export class ConversationIndexFile {
  constructor(readonly path: string) {}

  /** The stored index, or why there is none usable. */
  async read(): Promise<IndexParse & { missing?: boolean }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        return { ok: false, missing: true, detail: 'no index file' };
      throw err;
    }
    return parseIndex(text);
  }

  /**
   * The stored index; when it is missing or damaged, the index of `scan()` (one entry per
   * conversation folder), which is saved before returning. The result says which happened.
   */
  async load(scan: () => Promise<Iterable<IndexEntry>> | Iterable<IndexEntry>): Promise<IndexLoad> {
    // Every window of the workspace saves this file, maybe right now: only old temp files go.
    removeStaleTempFiles(dirname(this.path), tempsOf(basename(this.path)));
    const stored = await this.read();
    if (stored.ok) return { index: stored.index, source: 'file' };
    const index = rebuildIndex(await scan());
    await this.save(index);
    return {
      index,
      source: 'rebuilt',
      reason: stored.missing ? 'missing' : 'corrupt',
      detail: stored.detail,
    };
  }

  async save(index: ConversationIndex): Promise<void> {
    const dir = dirname(this.path);
    await mkdir(dir, { recursive: true });
    const tmp = `${this.path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      const fh = await open(tmp, 'w');
      try {
        await fh.writeFile(serializeIndex(index), 'utf8');
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, this.path);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    await syncDir(dir);
  }
}

/** Makes the rename durable; some platforms cannot open a directory, which is fine to skip. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // best effort
  }
}
