// The disk space Logbook uses: each conversation's folder, and the checkpoint stores (one per
// workspace, shared by its conversations, so their space is per store, not per conversation). And
// the clean-up of old checkpoints: a conversation's checkpoints are released (as deleting the
// conversation does) when its newest one is older than a number of days, or its conversation is
// gone. The conversations themselves are never touched: only going back to those points is lost.
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatSize } from '../../../core/diagnostics/report';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
import { CHECKPOINT_REFS_DIR, releaseFromStore } from '../checkpoints/git-checkpoint-store';

/** Bytes of the files under `dir` (0 when it does not exist); links are not followed. */
export function folderBytes(dir: string): number {
  let total = 0;
  const walk = (p: string): void => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) walk(join(p, n));
    } else {
      total += st.size;
    }
  };
  walk(dir);
  return total;
}

/** The conversation folders under `root` (not its index, nor a temp file). */
export function conversationFolders(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((n) => n !== 'index.json' && !n.endsWith('.tmp') && isDir(join(root, n)));
}

export interface ConversationUsage {
  id: string;
  bytes: number;
}

/** The conversation folders under `root`, largest first. */
export function conversationUsage(root: string, ids: readonly string[]): ConversationUsage[] {
  return ids.map((id) => ({ id, bytes: folderBytes(join(root, id)) })).sort((a, b) => b.bytes - a.bytes);
}

export interface HeldCheckpoints {
  /** The store (one workspace's). */
  storeDir: string;
  conversationId: string;
  /** When its newest checkpoint was taken. */
  newest: Date;
}

export interface StoreUsage {
  storeDir: string;
  bytes: number;
  held: HeldCheckpoints[];
}

/** The stores under `root` (a checkpoints folder), with the conversations each holds checkpoints for. */
export function checkpointUsage(root: string): StoreUsage[] {
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .map((n) => join(root, n))
    .filter(isDir)
    .map((storeDir) => ({ storeDir, bytes: folderBytes(storeDir), held: heldIn(storeDir) }));
}

function heldIn(storeDir: string): HeldCheckpoints[] {
  const refs = join(storeDir, CHECKPOINT_REFS_DIR);
  let ids: string[] = [];
  try {
    ids = readdirSync(refs).filter((n) => !n.endsWith('.tmp'));
  } catch {
    return [];
  }
  // A conversation's ref file is rewritten at each of its checkpoints: its time is the newest one's.
  return ids.map((conversationId) => ({
    storeDir,
    conversationId,
    newest: statSync(join(refs, conversationId)).mtime,
  }));
}

export interface OldCheckpoints extends HeldCheckpoints {
  /** Why it goes: its conversation was deleted, or its newest checkpoint is this many days old. */
  why: { deleted: true } | { deleted: false; days: number };
}

/** Why a conversation's checkpoints go, in words. */
export function whyText(o: OldCheckpoints, l10n: L10n = ENGLISH): string {
  return o.why.deleted
    ? l10n.t('its conversation was deleted')
    : l10n.t('its newest checkpoint is {0} days old', o.why.days);
}

export interface CleanupRule {
  olderThanDays: number;
  now?: Date;
  /** Whether a conversation still exists (unknown when absent: only age counts). */
  exists?: (conversationId: string) => boolean;
}

/** The checkpoints a clean-up would release, and why each. */
export function oldCheckpoints(stores: readonly StoreUsage[], rule: CleanupRule): OldCheckpoints[] {
  const now = (rule.now ?? new Date()).getTime();
  const limit = now - rule.olderThanDays * 24 * 60 * 60 * 1000;
  const out: OldCheckpoints[] = [];
  for (const store of stores) {
    for (const h of store.held) {
      if (rule.exists && !rule.exists(h.conversationId)) out.push({ ...h, why: { deleted: true } });
      else if (h.newest.getTime() < limit) {
        const days = Math.floor((now - h.newest.getTime()) / (24 * 60 * 60 * 1000));
        out.push({ ...h, why: { deleted: false, days } });
      }
    }
  }
  return out;
}

/** Exactly what a clean-up deletes, one line per conversation, for the confirmation. */
export function describeCleanup(
  old: readonly OldCheckpoints[],
  name?: (id: string) => string,
  l10n: L10n = ENGLISH,
): string[] {
  return old.map((o) =>
    l10n.t(
      'the checkpoints of {0} ({1}; newest {2})',
      name?.(o.conversationId) ?? o.conversationId,
      whyText(o, l10n),
      o.newest.toISOString().slice(0, 10),
    ),
  );
}

/** Releases them; what no other conversation's checkpoints use is deleted. Returns the bytes freed. */
export async function cleanUpCheckpoints(
  old: readonly OldCheckpoints[],
): Promise<{ released: number; freed: number }> {
  const stores = [...new Set(old.map((o) => o.storeDir))];
  const before = stores.reduce((n, s) => n + folderBytes(s), 0);
  for (const o of old) await releaseFromStore(o.storeDir, o.conversationId);
  const after = stores.reduce((n, s) => n + folderBytes(s), 0);
  return { released: old.length, freed: Math.max(0, before - after) };
}

export function storageTotals(
  conversations: readonly ConversationUsage[],
  stores: readonly StoreUsage[],
): string {
  const c = conversations.reduce((n, u) => n + u.bytes, 0);
  const s = stores.reduce((n, u) => n + u.bytes, 0);
  return `${formatSize(c)} in ${conversations.length} conversation(s), ${formatSize(s)} of checkpoints`;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
