// The server's change as a git patch (`GET /api/file/archive?format=git-delta`), read for what
// its git endpoints leave out: each file's mode (executable, or a symlink: 120000), a rename
// (`rename from` / `rename to`, which `/api/git/changes` splits into a deletion and an addition),
// and the hunks of small texts (a symlink's target, a deleted file's lines). The contents of
// regular files still come from the git and file endpoints (agent-server-git.ts).

export interface PatchFile {
  /** The file's path now (a deleted file's: its path at the base), `/`-separated. */
  path: string;
  /** A rename's (or copy's) path at the base. */
  from?: string;
  /** `rename` or `copy`, when the patch names two paths. */
  moved?: 'rename' | 'copy';
  /** Git modes: 100644, 100755, 120000 (a symlink); absent when the patch does not say. */
  oldMode?: string;
  newMode?: string;
  added: boolean;
  deleted: boolean;
  /** A binary patch: its hunks are not text. */
  binary: boolean;
  /** The hunk lines (`@@`, ` `, `-`, `+`, `\`), as the patch has them. */
  hunks: string[];
}

export const SYMLINK_MODE = '120000';

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A name as git writes it: plain, or in C quotes with escapes and octal bytes (UTF-8). */
export function unquoteGitName(raw: string): string | undefined {
  if (!raw.startsWith('"')) return raw;
  if (raw.length < 2 || !raw.endsWith('"')) return undefined;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    const octal = /^[0-7]{3}/.exec(body.slice(i, i + 3));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else if (next in ESCAPES) bytes.push(ESCAPES[next]!);
    else return undefined;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `a/P` or `b/P` (quoted or not) as P; undefined for /dev/null or anything else. */
function sidePath(raw: string, side: 'a' | 'b'): string | undefined {
  const name = unquoteGitName(raw.replace(/\t$/, ''));
  return name?.startsWith(`${side}/`) ? name.slice(2) : undefined;
}

/**
 * The path of `a/P b/P` (a file changed in place, when the header has no other line naming it):
 * the split of a name with spaces is certain only when both halves agree.
 */
function samePath(rest: string): string | undefined {
  if (rest.startsWith('"') || !rest.startsWith('a/')) return undefined;
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return undefined;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return rest[half] === ' ' && b.startsWith('b/') && a.slice(2) === b.slice(2) ? a.slice(2) : undefined;
}

interface Draft extends Omit<PatchFile, 'path'> {
  path?: string;
  oldPath?: string;
  inHunks: boolean;
}

function finish(d: Draft | undefined, out: PatchFile[]): void {
  if (!d) return;
  const path = d.deleted ? (d.oldPath ?? d.path) : d.path;
  if (path === undefined) return; // a name that could not be read: its file keeps what is known of it
  const { inHunks: _h, oldPath, path: _p, ...rest } = d;
  out.push({ ...rest, path, ...(d.moved && oldPath !== undefined ? { from: oldPath } : {}) });
}

/** Every file the patch names, with what its headers say and its text hunks. */
export function readGitPatch(patch: string): PatchFile[] {
  const out: PatchFile[] = [];
  let d: Draft | undefined;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      finish(d, out);
      const same = samePath(line.slice('diff --git '.length));
      d = { added: false, deleted: false, binary: false, hunks: [], inHunks: false };
      if (same !== undefined) d.path = d.oldPath = same;
      continue;
    }
    if (!d) continue;
    if (d.inHunks) {
      if (/^[ +\-\\@]/.test(line)) d.hunks.push(line);
      continue;
    }
    if (line.startsWith('@@')) {
      d.inHunks = true;
      d.hunks.push(line);
      continue;
    }
    if (line.startsWith('GIT binary patch') || line.startsWith('Binary files ')) {
      d.binary = true;
      d.inHunks = true; // the rest is not headers; binary data lines are not kept (no leading sign)
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = /^(old mode|deleted file mode) (\d{6})$/.exec(line))) {
      d.oldMode = m[2];
      if (m[1] === 'deleted file mode') d.deleted = true;
    } else if ((m = /^(new mode|new file mode) (\d{6})$/.exec(line))) {
      d.newMode = m[2];
      if (m[1] === 'new file mode') d.added = true;
    } else if ((m = /^index [0-9a-f]+\.\.[0-9a-f]+ (\d{6})$/.exec(line))) {
      d.oldMode ??= m[1];
      d.newMode ??= m[1];
    } else if ((m = /^(rename|copy) (from|to) (.+)$/.exec(line))) {
      const name = unquoteGitName(m[3]!);
      d.moved = m[1] as 'rename' | 'copy';
      if (m[2] === 'from') d.oldPath = name;
      else d.path = name;
    } else if (line.startsWith('--- ')) {
      const p = sidePath(line.slice(4), 'a');
      if (p !== undefined) d.oldPath = p;
    } else if (line.startsWith('+++ ')) {
      const p = sidePath(line.slice(4), 'b');
      if (p !== undefined) d.path = p;
    }
  }
  finish(d, out);
  return out;
}

/**
 * One side of a file from its hunks (`-`: the base, `+`: now), when they hold all of it (a new or
 * deleted file, a symlink's target); a line git marks with `\ No newline at end of file` ends
 * without one.
 */
export function hunkSide(hunks: readonly string[], side: '-' | '+'): string {
  let text = '';
  let last: 'kept' | 'other' = 'other';
  for (const line of hunks) {
    if (line.startsWith('\\')) {
      if (last === 'kept' && text.endsWith('\n')) text = text.slice(0, -1);
      continue;
    }
    if (line.startsWith('@@')) continue;
    if (line[0] === side || line[0] === ' ') {
      text += `${line.slice(1)}\n`;
      last = 'kept';
    } else last = 'other';
  }
  return text;
}
