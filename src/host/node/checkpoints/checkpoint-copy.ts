// A continued task's conversation starts with the points it copied from the task it came from;
// their checkpoints were recorded in the source worktree's store, not in the store of the new
// worktree. Copying them over (each with what it holds and the checkpoints before it, as one pack)
// keeps "Restore files to here" on those points working in the new task, also after the source
// task is discarded. Only the stores are read and written: neither worktree is touched.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterRefOf, refOf } from './checkpoint-repo';
import { runGit, type GitPaths } from './git-process';
import { splitLines } from './git-text';
import { ensureStoreRepository } from './store-init';

export interface CheckpointsToCopy {
  /** Every checkpoint the copied events name (checkpoints and after-states). */
  ids: readonly string[];
  /** The newest checkpoint among them: the new conversation's chain goes on from it. */
  newest?: string;
  /** The newest after-state among them. */
  after?: string;
}

function storePaths(storeDir: string, workTree = storeDir): GitPaths {
  return { gitDir: join(storeDir, 'git'), workTree, indexFile: join(storeDir, 'index') };
}

/** Which of `ids` the store holds as commits. */
async function held(paths: GitPaths, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const r = await runGit(paths, ['cat-file', '--batch-check'], {
    input: ids.map((id) => `${id}^{commit}\n`).join(''),
    bare: true,
  });
  const lines = splitLines(r.stdout);
  return ids.filter((_, i) => / commit /.test(lines[i] ?? ''));
}

/**
 * Copies `copy.ids` from the first of the `from` stores that holds each into the store at
 * `into.storeDir` (the new worktree's), and makes `conversationId` hold them there. Resolves to
 * the ids no store held (restoring to those points says so).
 */
export async function copyCheckpoints(
  from: readonly string[],
  into: { storeDir: string; workspace: string },
  conversationId: string,
  copy: CheckpointsToCopy,
): Promise<string[]> {
  let missing = [...new Set(copy.ids)].filter((id) => /^[0-9a-f]{40,64}$/.test(id));
  if (!missing.length) return [];
  const target = storePaths(into.storeDir, into.workspace);
  await ensureStoreRepository(target);
  const there = await held(target, missing);
  missing = missing.filter((id) => !there.includes(id));
  for (const dir of from) {
    if (!missing.length) break;
    if (resolve(dir) === resolve(into.storeDir) || !existsSync(join(dir, 'git', 'HEAD'))) continue;
    const source = storePaths(dir);
    const found = await held(source, missing);
    if (!found.length) continue;
    // One self-contained pack: the commits, their ancestors, trees and blobs.
    const pack = await runGit(source, ['pack-objects', '--revs', '--stdout', '-q'], {
      input: found.map((id) => `${id}\n`).join(''),
      bare: true,
    });
    await runGit(target, ['index-pack', '--stdin'], { input: pack.stdout, bare: true });
    missing = missing.filter((id) => !found.includes(id));
  }
  // The refs keep them (and what they hold) when another conversation's release prunes the store.
  for (const [ref, commit] of [
    [refOf(conversationId), copy.newest],
    [afterRefOf(conversationId), copy.after],
  ] as const) {
    if (!commit || missing.includes(commit)) continue;
    await runGit(target, ['update-ref', ref, commit], { bare: true });
  }
  return missing;
}
