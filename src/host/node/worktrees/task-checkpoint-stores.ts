// Where a task's checkpoints are: the CLI keeps a worktree's store under its checkpoints root
// (checkpoint-env.ts), the editor under its own storage folder, which only the window knows. The
// window therefore notes its root in the task's log folder (out of the agent's and the sandbox's
// reach, beside session.json), so that `logbook fork` at a terminal finds the checkpoints of a task
// that ran in the editor, as Continue from here finds those of a task run at a terminal.
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { storeDirFor } from '../checkpoints/git-checkpoint-store';

export const EDITOR_CHECKPOINTS_FILE = 'editor-checkpoints.json';

/** The editor's checkpoints root noted in the task's log folder; undefined when none is (or it is damaged). */
export function editorCheckpointsRoot(logDir: string): string | undefined {
  try {
    const root = (
      JSON.parse(readFileSync(join(logDir, EDITOR_CHECKPOINTS_FILE), 'utf8')) as { root?: unknown }
    ).root;
    return typeof root === 'string' && isAbsolute(root) ? root : undefined;
  } catch {
    return undefined;
  }
}

/** Notes (once) that the window keeps the checkpoints of the task whose log is `logDir` under `root`. */
export function noteEditorCheckpoints(logDir: string, root: string): void {
  if (editorCheckpointsRoot(logDir) === root) return;
  writeFileSync(join(logDir, EDITOR_CHECKPOINTS_FILE), `${JSON.stringify({ root })}\n`);
}

/** The editor's store of `worktree`, when the task's log folder notes where the editor keeps them. */
export function editorStoreDirOf(logDir: string, worktree: string): string | undefined {
  const root = editorCheckpointsRoot(logDir);
  return root ? storeDirFor(root, worktree) : undefined;
}
