// ScratchPort in a directory of our choosing (e.g. the conversation folder, or a temp dir in tests).
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ScratchPort } from '../../../core/tools/ports';

export class TempScratchPort implements ScratchPort {
  readonly dir: string;
  private saved = 0;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  async save(name: string, text: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    // The name comes from a tool; keep it to one safe path segment and never overwrite.
    const safe = name.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'output.txt';
    for (;;) {
      this.saved += 1;
      const path = join(this.dir, `${String(this.saved).padStart(4, '0')}-${safe}`);
      try {
        await writeFile(path, text, { encoding: 'utf8', flag: 'wx' });
        return path;
      } catch (err) {
        // Another port (an earlier run) wrote this number already: take the next one.
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
  }
}
