// A pending file edit as a unified diff (the file as it is now against what the edit would leave),
// so `run`'s question, `show` and `show --json` let a person see the change before saying yes.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ActionEvent } from '../../../core/events';
import { resolveToolPath } from '../../../core/security/resolve-path';
import { type EditArgs, proposedText } from '../../../core/tools/proposed-edit';

/** Past this many characters the diff is cut (with a line that says so): a file of any size may be edited. */
export const DIFF_CHARS = 64_000;

/**
 * The diff a pending file_editor edit would make, or null when the action is not an edit, or the
 * edit would fail as the files are now (the tool's own error then tells the agent).
 */
export function pendingEditDiff(action: ActionEvent, workspace: string | null): string | null {
  if (action.tool_name !== 'file_editor' || !workspace) return null;
  const args = (action.action ?? {}) as EditArgs;
  if (typeof args.path !== 'string') return null;
  const resolved = resolveToolPath(args.path, workspace);
  if (!resolved.ok) return null;
  const current = readText(resolved.path);
  const next = proposedText(args, current);
  if (next === undefined) return null;
  const rel = relative(workspace, resolved.path);
  const name = rel === '' || rel.startsWith('..') ? resolved.path : rel;
  const patch = createTwoFilesPatch(
    current === undefined ? '/dev/null' : `a/${name}`,
    `b/${name}`,
    current?.replace(/\r\n/g, '\n') ?? '',
    next,
    '',
    '',
    { context: 3 },
  )
    // The package's separator line is not part of a unified diff.
    .replace(/^=+\n/, '')
    .replace(/\n$/, '');
  return patch.length > DIFF_CHARS
    ? `${patch.slice(0, DIFF_CHARS)}\n... (the diff is cut at ${DIFF_CHARS} characters)`
    : patch;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
