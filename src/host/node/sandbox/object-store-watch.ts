// The loose objects of a linked worktree's shared store (`<common>/objects/<xx>/`), which a worktree
// task's commands may write (linked-worktree.ts). Git trusts an object's name: one that exists is
// not written again, so an object planted under a name its content does not match would stand in
// for the user's own content later. After each command, every loose object that appeared is checked
// against its name (inflated, hashed as git does) and removed when it does not match; objects that
// went away are named (they cannot be put back). The command's output says what was done.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

const FAN_OUT = /^[0-9a-f]{2}$/;
const REST = /^[0-9a-f]{38}$|^[0-9a-f]{62}$/;

export interface ObjectChange {
  /** The object's name (hex). */
  name: string;
  action: 'removed' | 'gone';
}

/** Whether the file holds the object its name says: zlib of `<type> <size>\0<content>`, hashed. */
export function objectMatchesName(file: string, name: string): boolean {
  try {
    const raw = inflateSync(readFileSync(file));
    const nul = raw.indexOf(0);
    const header = /^(blob|tree|commit|tag) (\d+)$/.exec(raw.subarray(0, nul).toString('latin1'));
    if (nul < 0 || !header || Number(header[2]) !== raw.length - nul - 1) return false;
    const algorithm = name.length === 64 ? 'sha256' : 'sha1';
    return createHash(algorithm).update(raw).digest('hex') === name;
  } catch {
    return false;
  }
}

export class ObjectStoreWatch {
  private before = new Set<string>();

  constructor(readonly folder: string) {}

  /** Takes the loose objects the next `check` compares with. */
  snapshot(): void {
    this.before = this.list();
  }

  /** Removes new objects that do not match their names, names the ones that went away. */
  check(): ObjectChange[] {
    const now = this.list();
    const changes: ObjectChange[] = [];
    for (const name of this.before) if (!now.has(name)) changes.push({ name, action: 'gone' });
    for (const name of now) {
      if (this.before.has(name)) continue;
      const file = join(this.folder, name.slice(0, 2), name.slice(2));
      if (objectMatchesName(file, name)) continue;
      rmSync(file, { force: true });
      now.delete(name);
      changes.push({ name, action: 'removed' });
    }
    this.before = now;
    return changes;
  }

  private list(): Set<string> {
    const out = new Set<string>();
    let dirs: string[] = [];
    try {
      dirs = readdirSync(this.folder).filter((d) => FAN_OUT.test(d));
    } catch {
      return out;
    }
    for (const d of dirs) {
      let names: string[] = [];
      try {
        names = readdirSync(join(this.folder, d));
      } catch {
        continue;
      }
      for (const n of names) if (REST.test(n)) out.add(d + n);
    }
    return out;
  }
}

/** The note the command's output ends with. */
export function objectChangesText(objects: string, changes: readonly ObjectChange[]): string {
  if (!changes.length) return '';
  const removed = changes.filter((c) => c.action === 'removed').map((c) => c.name);
  const gone = changes.filter((c) => c.action === 'gone').map((c) => c.name);
  const lines = [`[The command changed the repository's shared objects (${objects}):`];
  if (removed.length)
    lines.push(
      `- Logbook removed ${removed.length} object${removed.length > 1 ? 's' : ''} whose content did not match the name: ${removed.join(', ')}`,
    );
  if (gone.length)
    lines.push(
      `- ${gone.length} object${gone.length > 1 ? 's' : ''} of the repository went away and could not be put back: ${gone.join(', ')}. Ask the user to check the repository (git fsck).`,
    );
  return `${lines.join('\n')}]`;
}
