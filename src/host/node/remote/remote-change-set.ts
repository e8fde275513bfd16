// The server's change as diff, review and apply take it: the files its git endpoints report
// (agent-server-git.ts), completed from its git patch (remote-patch.ts) with what those endpoints
// leave out: each file's executable bit, a symlink's target (a symlink is never downloaded: the
// download follows it), a rename as one change, and a deleted file's text where the patch has it.
import { applyPatch, parsePatch, reversePatch } from 'diff';
import { posix } from 'node:path';
import { type AgentServerTarget, changePatch, downloadFile } from './agent-server-api';
import { COMMIT_ID, type ServerChange, serverChanges } from './agent-server-git';
import { hunkSide, type PatchFile, readGitPatch, SYMLINK_MODE } from './remote-patch';

/**
 * The change against `base`; `known` is false when the server gave no patch: then every mode is
 * left as it is here, renames stay a deletion and an addition, and a symlink is read as a file.
 */
export async function serverChangeSet(
  target: AgentServerTarget,
  workingDir: string,
  base: string = 'HEAD',
): Promise<{ changes: ServerChange[]; known: boolean }> {
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
  const listed = await serverChanges(target, workingDir, ref, skip);
  if (!files) return { changes: listed, known: false };
  const changes = completeFromPatch(listed, files);
  // A file the patch named renamed whole whose old name the server did not list: its bytes after all.
  for (const c of changes)
    if (c.status !== 'DELETED' && c.status !== 'RENAMED' && c.symlink === undefined && c.modified === null)
      c.modified = await downloadFile(target, posix.join(workingDir, c.path));
  return { changes, known: true };
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
