// Empty folders the sandbox makes on the host where a held folder does not exist yet (`.vscode`,
// `.logbook`, `.git/hooks`...), so that it can be mounted read-only and a command cannot create
// it. A mount needs a folder on the host to sit on; an empty one changes nothing for git or the
// editor. Each is removed when the last sandbox of this process that holds it is disposed, if it
// is still empty (the user may have put files in it meanwhile: then it stays).
//
// Counted per process: removing a folder that another sandbox still has a mount on would take
// that mount away (the kernel detaches mounts from a removed folder in every namespace).
import { lstatSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const users = new Map<string, number>();
let cleanupOnExit = false;

/**
 * Makes `path` (its parent must exist) as an empty folder if it is missing, or shares one this
 * process made. False: it could not be made (a file came in its place, say).
 */
export function acquirePlaceholder(path: string): boolean {
  const n = users.get(path);
  if (n !== undefined) {
    // Still counted, yet the user may have removed the empty folder since: a mount needs it there,
    // or this launch would hold nothing and a command could create it.
    if (!isFolder(path) && !makeFolder(path)) return false;
    users.set(path, n + 1);
    return true;
  }
  if (!makeFolder(path)) return false;
  users.set(path, 1);
  if (!cleanupOnExit) {
    cleanupOnExit = true;
    // A process that ends without disposing its sandboxes (an error, the editor closing) still
    // takes its empty placeholders away; its sandboxes die with it (--die-with-parent).
    process.once('exit', () => {
      for (const p of users.keys()) removeIfEmpty(p);
    });
  }
  return true;
}

function makeFolder(path: string): boolean {
  try {
    mkdirSync(path, { mode: 0o755 });
    return true;
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function removeIfEmpty(path: string): void {
  try {
    rmdirSync(path); // fails when not empty: the user's files stay
  } catch {
    // kept
  }
}

export function releasePlaceholder(path: string): void {
  const n = users.get(path);
  if (n === undefined) return;
  if (n > 1) {
    users.set(path, n - 1);
    return;
  }
  users.delete(path);
  removeIfEmpty(path);
}

/** Whether this process made `path` and still holds it. */
export function isPlaceholder(path: string): boolean {
  return users.has(path);
}

/**
 * Of `paths`, the folders gone from the host while the folder they were in is still there: a
 * placeholder some process removed (this one's or another's), which takes every mount on it away.
 */
export function goneFolders(paths: Iterable<string>): string[] {
  const parentThere = (p: string) => {
    try {
      return statSync(dirname(p)).isDirectory(); // the workspace may be reached through a symlink
    } catch {
      return false;
    }
  };
  // A symlink put in its place is gone too: the mount was on the folder.
  return [...new Set(paths)].filter((p) => parentThere(p) && !isFolder(p));
}
