// The server's change as diff, review and apply take it: the files its git endpoints report
// (agent-server-git.ts), completed from its git patch (remote-patch.ts) with what those endpoints
// leave out: each file's executable bit, a symlink's target (a symlink is never downloaded: the
// download follows it), a rename as one change, and a deleted file's text where the patch has it.
import { applyPatch, parsePatch, reversePatch } from 'diff';
import { posix } from 'node:path';
import { type AgentServerTarget, changePatch, downloadFile, RemoteError } from './agent-server-api';
import {
  COMMIT_ID,
  type ListedChange,
  listChanges,
  type ServerChange,
  serverChanges,
} from './agent-server-git';
import { hunkSide, type PatchFile, readGitPatch, SYMLINK_MODE } from './remote-patch';
import { listingFromPatch } from './remote-patch-listing';

/**
 * The change against `base`; `known` is false when the server gave no patch: then every mode is
 * left as it is here, renames stay a deletion and an addition, and a symlink is read as a file.
 */
export async function serverChangeSet(
  target: AgentServerTarget,
  workingDir: string,
  base: string = 'HEAD',
): Promise<{ changes: ServerChange[]; known: boolean; listedFromPatch?: string }> {
  const ref = COMMIT_ID.test(base) ? base : 'HEAD';
  let files: PatchFile[] | undefined;
  try {
    files = readGitPatch(await changePatch(target, workingDir, ref));
  } catch {
    files = undefined;
  }
  // Not downloaded: a symlink (the download follows it), and a file renamed whole (its bytes are
  // the old name's, and it may be a symlink: the patch gives no mode for it).
  const skip = new Set(
    (files ?? [])
      .filter((f) => !f.deleted && (f.newMode === SYMLINK_MODE || renamedWhole(f)))
      .map((f) => f.path),
  );
  // The server's list fails whole on one path that changed kind (a file became a symlink): the
  // patch, which it answered, lists the change then.
  let listing: ListedChange[];
  let listedFromPatch: string | undefined;
  try {
    listing = await listChanges(target, workingDir, ref);
  } catch (err) {
    if (!files || !(err instanceof RemoteError) || err.status === undefined) throw err;
    listing = listingFromPatch(files);
    listedFromPatch = err.message;
  }
  const listed = await serverChanges(target, workingDir, ref, skip, listing);
  if (!files) return { changes: listed, known: false };
  const changes = completeFromPatch(listed, files);
  // A file the patch named renamed whole whose old name the server did not list: its bytes after all.
  for (const c of changes)
    if (c.status !== 'DELETED' && c.status !== 'RENAMED' && c.symlink === undefined && c.modified === null)
      c.modified = await downloadFile(target, posix.join(workingDir, c.path));
  return { changes, known: true, ...(listedFromPatch === undefined ? {} : { listedFromPatch }) };
}

/** A rename with no change of content: git writes no hunk for it. */
const renamedWhole = (f: PatchFile): boolean => f.moved === 'rename' && f.hunks.length === 0 && !f.binary;

const executableOf = (mode: string | undefined): boolean | undefined =>
  mode === '100755' ? true : mode === '100644' ? false : undefined;

/** A renamed file's text at the base: its text now with the patch's hunks taken back. */
function renamedBase(f: PatchFile, now: Buffer | null): string | null {
  if (f.binary || now === null || now.includes(0)) return null; // (null: renamed whole, not downloaded)
  const text = now.toString('utf8');
  if (f.hunks.length === 0) return text; // renamed whole, unchanged
  const [parsed] = parsePatch(`--- a\n+++ b\n${f.hunks.join('\n')}\n`);
  const back = parsed ? applyPatch(text, reversePatch(parsed)) : false;
  return back === false ? null : back;
}

/**
 * A path that changed kind: a file that became a symlink, a symlink that became a file (or a
 * file and its executable bit, which is no change of kind). What it was comes from the patch's
 * deletion (a binary file's text is not known).
 */
function typeChange(c: ServerChange, before: PatchFile, after: PatchFile): ServerChange {
  const original = before.binary ? null : hunkSide(before.hunks, '-');
  const wasSymlink = before.oldMode === SYMLINK_MODE;
  if (after.newMode === SYMLINK_MODE) {
    const symlink = hunkSide(after.hunks, '+');
    if (wasSymlink) return { ...c, original, modified: Buffer.from(symlink), symlink, wasSymlink };
    return { ...c, original, modified: Buffer.from(symlink), symlink, typeChanged: true };
  }
  const executable = executableOf(after.newMode);
  const kind = wasSymlink ? { wasSymlink, typeChanged: true } : {};
  return { ...c, original, ...kind, ...(executable === undefined ? {} : { executable }) };
}

/** The listed changes with what the patch says of each (only the paths the server listed). */
export function completeFromPatch(
  listed: readonly ServerChange[],
  files: readonly PatchFile[],
): ServerChange[] {
  const gone = new Set(listed.filter((c) => c.status === 'DELETED').map((c) => c.path));
  const added = new Set(listed.filter((c) => c.status === 'ADDED').map((c) => c.path));
  // A rename of a file (not of a symlink), both of its halves listed.
  const renames = new Map(
    files
      .filter(
        (f) =>
          f.moved === 'rename' &&
          f.from !== undefined &&
          gone.has(f.from) &&
          added.has(f.path) &&
          f.oldMode !== SYMLINK_MODE &&
          f.newMode !== SYMLINK_MODE,
      )
      .map((f) => [f.path, f]),
  );
  const renamedFrom = new Set([...renames.values()].map((f) => f.from!));
  const out: ServerChange[] = [];
  for (const c of listed) {
    if (c.status === 'DELETED') {
      if (renamedFrom.has(c.path)) continue;
      const f = files.find((p) => p.deleted && p.path === c.path);
      if (!f) {
        out.push(c);
        continue;
      }
      out.push({
        ...c,
        ...(f.oldMode === SYMLINK_MODE ? { wasSymlink: true } : {}),
        ...(f.binary || f.hunks.length === 0 ? {} : { original: hunkSide(f.hunks, '-') }),
      });
      continue;
    }
    const rename = renames.get(c.path);
    if (rename) {
      const executable = executableOf(rename.newMode);
      out.push({
        status: 'RENAMED',
        path: c.path,
        from: rename.from!,
        original: renamedBase(rename, c.modified),
        modified: c.modified,
        ...(executable === undefined ? {} : { executable }),
      });
      continue;
    }
    const f = files.find((p) => !p.deleted && p.path === c.path);
    if (!f) {
      out.push(c);
      continue;
    }
    // Written by git as a deletion and an addition of one path: the path changed kind.
    const before = f.added ? files.find((p) => p.deleted && p.path === c.path) : undefined;
    if (before && c.status === 'UPDATED') {
      out.push(typeChange(c, before, f));
      continue;
    }
    if (f.newMode === SYMLINK_MODE) {
      // A renamed symlink is a new one here (its old name is listed deleted); renamed whole, the
      // patch has no line of it, and its target is not known.
      const symlink = hunkSide(f.hunks, '+');
      const wasSymlink = f.oldMode === SYMLINK_MODE && !f.added && f.moved === undefined;
      out.push({
        status: wasSymlink ? 'UPDATED' : 'ADDED',
        path: c.path,
        original: wasSymlink ? hunkSide(f.hunks, '-') : null,
        modified: Buffer.from(symlink, 'utf8'),
        symlink,
        ...(wasSymlink ? { wasSymlink } : {}),
      });
      continue;
    }
    const executable = executableOf(f.newMode);
    out.push(executable === undefined ? c : { ...c, executable });
  }
  return out;
}
