// The other storage candidate the checkpoint bench measures: a content-addressed store written
// in Node (sha256 blobs, one manifest per folder so unchanged folders are shared, a stat cache in
// memory). It knows nothing of .gitignore, nested repositories or modes beyond the executable bit,
// which only makes it faster than a complete one would be.
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

interface Cached {
  mtimeMs: number;
  size: number;
  ino: number;
  sha: string;
}

export class CasPrototype {
  private readonly cache = new Map<string, Cached>();
  private count = 0;

  constructor(
    private readonly workspace: string,
    private readonly dir: string,
    private readonly skip: readonly string[] = ['.git', '.logbook'],
  ) {
    mkdirSync(join(dir, 'objects'), { recursive: true });
    mkdirSync(join(dir, 'refs'), { recursive: true });
  }

  /** Records the workspace; returns the root manifest's hash. */
  record(): string {
    const root = this.folder(this.workspace, '');
    writeFileSync(join(this.dir, 'refs', String(++this.count)), root);
    return root;
  }

  private folder(abs: string, rel: string): string {
    const lines: string[] = [];
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (this.skip.includes(e.name)) continue;
      const p = join(abs, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) lines.push(`d ${this.folder(p, r)} ${e.name}`);
      else if (e.isSymbolicLink()) lines.push(`l ${this.put(Buffer.from(readlinkSync(p)))} ${e.name}`);
      else if (e.isFile()) {
        const st = lstatSync(p);
        const hit = this.cache.get(r);
        let sha: string;
        if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino) sha = hit.sha;
        else {
          sha = this.put(readFileSync(p));
          this.cache.set(r, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, sha });
        }
        lines.push(`${st.mode & 0o111 ? 'x' : 'f'} ${sha} ${e.name}`);
      }
    }
    return this.put(Buffer.from(lines.join('\n')));
  }

  private put(bytes: Buffer): string {
    const sha = createHash('sha256').update(bytes).digest('hex');
    const sub = join(this.dir, 'objects', sha.slice(0, 2));
    const file = join(sub, sha.slice(2));
    if (!existsSync(file)) {
      mkdirSync(sub, { recursive: true });
      writeFileSync(file, bytes);
    }
    return sha;
  }
}
