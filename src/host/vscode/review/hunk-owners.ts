// Which of the agent's actions a hunk of the review came from. The review diffs the file's baseline
// against its text now, so one hunk can be any of the file's edits; a hunk rejected in the editor
// must mark only the actions whose own change it touches, not every action on the file.
import { computeHunks, type Hunk } from './hunks';

/** The lines an edit added or removed (blank ones left out: they name no change of their own). */
export function changedLines(before: string, after: string): string[] {
  const lines = new Set<string>();
  for (const h of computeHunks(before, after)) {
    for (const line of meaningfulLines(h.oldText + h.newText)) lines.add(line);
  }
  return [...lines];
}

/**
 * The actions among `actionIds` whose change shares a line with `hunk`. When none does (a line the
 * user edited since, or a record from before lines were kept), all of them: the hunk is theirs.
 */
export function hunkOwners(
  hunk: Hunk,
  actionIds: readonly string[],
  actionLines: Readonly<Record<string, readonly string[]>> | undefined,
): string[] {
  const lines = meaningfulLines(hunk.oldText + hunk.newText);
  const owners = actionIds.filter((id) => {
    const own = actionLines?.[id];
    return own !== undefined && own.some((line) => lines.has(line));
  });
  return owners.length > 0 ? owners : [...actionIds];
}

function meaningfulLines(text: string): Set<string> {
  return new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== ''),
  );
}
