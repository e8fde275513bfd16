// Before a restore overwrites files: which of them someone other than the agent changed after the
// checkpoint (the user, their editor, another program). Known exactly from the recorded states
// (core/checkpoints/outside-edits.ts) where the log has them; guessed from modification times
// where it does not.
import { statSync } from 'node:fs';
import type { Event } from '../../../core/events';
import { outsideEditPairs } from '../../../core/checkpoints/outside-edits';
import type { CheckpointEntry } from '../../../core/checkpoints/timeline';
import type { RestorePlan } from './git-checkpoint-store';
import type { WorkspaceCheckpointStore } from './workspace-store';

export interface EditedOutside {
  /** Paths (of the plan's changes) changed outside the agent after the checkpoint. */
  paths: Set<string>;
  /**
   * 'log': from the recorded after-states, exact. 'time': partly or wholly guessed, a file counting
   * when it was modified more than a second after the conversation's last event (the log lacks
   * after-states: recorded before they existed, or an action was cut off).
   */
  source: 'log' | 'time';
}

export async function editedOutsideAgent(
  store: WorkspaceCheckpointStore,
  events: readonly Event[],
  target: CheckpointEntry,
  plan: RestorePlan,
): Promise<EditedOutside> {
  const { pairs, complete } = outsideEditPairs(events, target);
  // The preview must not fail over its marks: if git cannot compare, the guess below stands in.
  const compared = await store
    .changedBetween(pairs.map((p) => ({ from: p.from, to: p.to ?? plan.current })))
    .catch(() => ({ paths: new Set<string>(), missing: ['(comparison failed)'] }));
  const changed = new Set(plan.changes.map((c) => c.path));
  const paths = new Set([...compared.paths].filter((p) => changed.has(p)));
  if (complete && !compared.missing.length) return { paths, source: 'log' };
  // Older conversations (no checkpoint_after events) and gaps: the heuristic this replaced, added
  // to what the recorded states do tell. It misses edits made between the agent's steps and flags
  // files a program touched after the last step.
  const lastStep = Date.parse(events[events.length - 1]?.timestamp ?? '');
  for (const c of plan.changes) if (modifiedAfter(store.absolutePath(c.path), lastStep)) paths.add(c.path);
  return { paths, source: 'time' };
}

function modifiedAfter(file: string, lastStep: number): boolean {
  if (!Number.isFinite(lastStep)) return false;
  try {
    return statSync(file).mtimeMs > lastStep + 1000;
  } catch {
    return false; // not there now
  }
}
