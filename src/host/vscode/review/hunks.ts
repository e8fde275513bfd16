// Hunks between a file's baseline (before the agent touched it) and its current text, as exact
// substrings with their offsets: rejecting a hunk puts `oldText` back byte for byte, line endings
// and a missing final newline included, and accepting one folds `newText` into the baseline.
import { diffLines, structuredPatch } from 'diff';

export interface Hunk {
  /** Offset of the changed range in the baseline, and the baseline text of that range. */
  oldStart: number;
  oldText: string;
  /** Offset of the changed range in the current text, and the current text of that range. */
  newStart: number;
  newText: string;
  /** 0-based line of the change in the current text, and how many of its lines were added. */
  newLine: number;
  addedLines: number;
  /** 0-based line of the change in the baseline, and how many lines were removed. */
  oldLine: number;
  removedLines: number;
}

export function computeHunks(baseline: string, current: string): Hunk[] {
  if (baseline === current) return [];
  const hunks: Hunk[] = [];
  let oldOffset = 0;
  let newOffset = 0;
  let oldLine = 0;
  let newLine = 0;
  let open: Hunk | undefined;
  for (const change of diffLines(baseline, current)) {
    const lines = change.count ?? 0;
    if (!change.added && !change.removed) {
      if (open) hunks.push(open);
      open = undefined;
      oldOffset += change.value.length;
      newOffset += change.value.length;
      oldLine += lines;
      newLine += lines;
      continue;
    }
    open ??= {
      oldStart: oldOffset,
      oldText: '',
      newStart: newOffset,
      newText: '',
      newLine,
      addedLines: 0,
      oldLine,
      removedLines: 0,
    };
    if (change.removed) {
      open.oldText += change.value;
      open.removedLines += lines;
      oldOffset += change.value.length;
      oldLine += lines;
    } else {
      open.newText += change.value;
      open.addedLines += lines;
      newOffset += change.value.length;
      newLine += lines;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/** The baseline with `hunk` accepted: its new text becomes part of what is no longer under review. */
export function acceptIntoBaseline(baseline: string, hunk: Hunk): string {
  return (
    baseline.slice(0, hunk.oldStart) + hunk.newText + baseline.slice(hunk.oldStart + hunk.oldText.length)
  );
}

/** The current text with `hunk` reverted to the baseline. */
export function revertInCurrent(current: string, hunk: Hunk): string {
  return current.slice(0, hunk.newStart) + hunk.oldText + current.slice(hunk.newStart + hunk.newText.length);
}

/** Identifies a hunk across recomputations (command arguments outlive the lens that carried them). */
export interface HunkKey {
  oldStart: number;
  oldText: string;
  newText: string;
}

export function findHunk(hunks: readonly Hunk[], key: HunkKey): Hunk | undefined {
  const same = (h: Hunk) => h.oldText === key.oldText && h.newText === key.newText;
  return hunks.find((h) => same(h) && h.oldStart === key.oldStart) ?? hunks.find(same);
}

/**
 * The hunk's header as a unified diff without context names it (`@@ -3,2 +3,4 @@`): 1-based lines,
 * and for an empty side the line it follows.
 */
export function hunkHeader(h: Hunk): string {
  const side = (line: number, count: number) => `${count === 0 ? line : line + 1},${count}`;
  return `@@ -${side(h.oldLine, h.removedLines)} +${side(h.newLine, h.addedLines)} @@`;
}

/** A short unified diff (no file headers), capped at `maxLines`. */
export function briefDiff(before: string, after: string, maxLines = 40): string {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context: 1 });
  const lines: string[] = [];
  for (const h of patch.hunks) {
    lines.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines);
  }
  if (lines.length <= maxLines) return lines.join('\n');
  return [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more diff lines)`].join('\n');
}
