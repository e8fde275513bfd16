// Every file of a folder as "mode sha256" (links as "link -> target"), to compare trees byte for byte.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Folders named here are left out wherever they are (e.g. `.git`, `.logbook`). */
export function treeHashes(dir: string, skip: readonly string[] = ['.git', '.logbook']): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      if (skip.includes(name)) continue;
      const p = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(r, `link -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) walk(p, r);
      else
        out.set(
          r,
          `${(st.mode & 0o777).toString(8)} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`,
        );
    }
  };
  walk(dir, '');
  return out;
}

/** One hash of everything under `dir`, `.git` included: the user's repository, byte for byte. */
export function folderHash(dir: string): string {
  const h = createHash('sha256');
  for (const [k, v] of treeHashes(dir, [])) h.update(`${k}\0${v}\n`);
  return h.digest('hex');
}
