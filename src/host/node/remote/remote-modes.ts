// The executable bit of the files the server's agent changed. The server's git endpoints name
// files without modes; its archive endpoint (`GET /api/file/archive?format=git-delta`) gives the
// working folder's change against a base as a git patch, whose headers carry each file's mode
// (`new file mode 100755`, `old mode 100644` / `new mode 100755`). Only those header lines are read;
// the files' contents still come from the git and file endpoints (agent-server-git.ts).
import { type AgentServerTarget, changePatch } from './agent-server-api';
import type { ServerChange } from './agent-server-git';

/** Each path's executable bit as the patch's headers give it (only the paths they name). */
export function modesFromPatch(patch: string): Map<string, boolean> {
  const modes = new Map<string, boolean>();
  let path: string | undefined;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      path = samePath(line.slice('diff --git '.length));
      continue;
    }
    if (path === undefined) continue;
    // A header ends where the hunks (or a binary patch) begin.
    if (line.startsWith('@@') || line.startsWith('GIT binary patch') || line.startsWith('--- ')) {
      path = undefined;
      continue;
    }
    const m = /^(?:new file mode|new mode) (100755|100644)$/.exec(line);
    if (m) modes.set(path, m[1] === '100755');
  }
  return modes;
}

/**
 * The path of `a/P b/P` (a file changed in place): git quotes a name with unusual characters, and
 * a rename names two paths, whose split is not certain; neither is read (its mode stays unknown).
 */
function samePath(rest: string): string | undefined {
  if (rest.startsWith('"') || !rest.startsWith('a/')) return undefined;
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return undefined;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return rest[half] === ' ' && b.startsWith('b/') && a.slice(2) === b.slice(2) ? a.slice(2) : undefined;
}

/**
 * The changes with their executable bit, asked of the server against the same base; the changes
 * as they were (modes unknown, left as they are here) when the server cannot give the patch.
 */
export async function withServerModes(
  target: AgentServerTarget,
  workingDir: string,
  base: string,
  changes: ServerChange[],
): Promise<{ changes: ServerChange[]; known: boolean }> {
  if (changes.length === 0) return { changes, known: true };
  let patch: string;
  try {
    patch = await changePatch(target, workingDir, base);
  } catch {
    return { changes, known: false };
  }
  const modes = modesFromPatch(patch);
  return {
    changes: changes.map((c) => (modes.has(c.path) ? { ...c, executable: modes.get(c.path)! } : c)),
    known: true,
  };
}
