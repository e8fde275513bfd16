// Whether a restore lost work: the files of a workspace before the agent's first action, compared
// with the files after a restore. A file is lost when it is gone or its bytes or mode differ; files
// that are new afterwards are no loss. Used by tests and the confirmation bench.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Each file under `dir` (relative path, '/'-separated) → its mode and sha256, a link → its target. */
export type FileSnapshot = ReadonlyMap<string, string>;

/** Folders never compared: the user's repository and Logbook's own logs. */
const SKIPPED = new Set(['.git', '.logbook']);

export function snapshotFiles(dir: string): FileSnapshot {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      if (SKIPPED.has(name)) continue;
      const p = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(r, `link ${readlinkSync(p)}`);
      else if (st.isDirectory()) walk(p, r);
      else if (st.isFile()) {
        const hash = createHash('sha256').update(readFileSync(p)).digest('hex');
        out.set(r, `${(st.mode & 0o777).toString(8)} ${hash}`);
      }
    }
  };
  walk(dir, '');
  return out;
}

/** The files of `before` that `after` no longer has (`gone`) or has otherwise (`changed`), sorted. */
export function lostFiles(before: FileSnapshot, after: FileSnapshot): { gone: string[]; changed: string[] } {
  const gone: string[] = [];
  const changed: string[] = [];
  for (const [path, state] of before) {
    const now = after.get(path);
    if (now === undefined) gone.push(path);
    else if (now !== state) changed.push(path);
  }
  return { gone: gone.sort(), changed: changed.sort() };
}
