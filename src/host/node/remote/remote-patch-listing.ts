// The list of changed files read from the server's git patch, in the shape `/api/git/changes`
// gives it: for when that endpoint fails. The server's list is made from `git diff --name-status`,
// and its parser knows no `T` (a file that became a symlink, or back): one such path makes the
// whole list fail. Its patch (remote-patch.ts) writes that path as a deletion and an addition of
// the same name, which is read here as one change of the path.
import type { ListedChange } from './agent-server-git';
import type { PatchFile } from './remote-patch';

/** A submodule's commit: nothing of it is a file of this working folder. */
const GITLINK_MODE = '160000';

/** The changed files as the server would list them: a rename as a deletion and an addition. */
export function listingFromPatch(files: readonly PatchFile[]): ListedChange[] {
  const deleted = new Set(files.filter((f) => f.deleted).map((f) => f.path));
  const added = new Set(files.filter((f) => f.added).map((f) => f.path));
  const out = new Map<string, ListedChange>();
  // By status and path: a renamed file's old name may be a new symlink's name too.
  const put = (status: string, path: string) => out.set(`${status} ${path}`, { status, path });
  for (const f of files) {
    if (f.oldMode === GITLINK_MODE || f.newMode === GITLINK_MODE) continue;
    if (f.moved === 'rename' && f.from !== undefined) {
      put('DELETED', f.from);
      put('ADDED', f.path);
    } else if (f.moved === 'copy') put('ADDED', f.path);
    else if (f.deleted) {
      if (!added.has(f.path)) put('DELETED', f.path);
    } else if (f.added) put(deleted.has(f.path) ? 'UPDATED' : 'ADDED', f.path);
    else put('UPDATED', f.path);
  }
  return [...out.values()].sort((a, b) => String(a.path).localeCompare(String(b.path)));
}
