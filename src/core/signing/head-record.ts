// A conversation's signed head (how many events, the chain head after them), kept outside its
// folder by the host that writes it (the CLI in its config folder, VS Code in its global storage),
// so that cutting the log and signatures.log back together no longer goes unnoticed: someone who can
// write the conversation folder cannot also rewind this file. Written atomically (temp + rename).
import fs from 'node:fs';
import path from 'node:path';
import { TMP_SUFFIX, removeStaleTempFilesOnce } from '../log/durable-file';

export interface HeadRecord {
  /** the conversation's id, as its host names it */
  conversation: string;
  /** the folder the head was recorded for: a copy elsewhere is not judged against it */
  dir: string;
  /** events the head covers; always a count a signature line states */
  count: number;
  /** the chain head after `count` events, base64url */
  head: string;
  /** who signed that head */
  did: string;
}

const FORMAT = 'logbook-head 1';

/** The record in `file`, null when there is none, 'unreadable' when it is not one. */
export function readHeadRecord(file: string): HeadRecord | null | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'unreadable';
  }
  try {
    const v = JSON.parse(text) as Partial<HeadRecord> & { format?: unknown };
    if (
      v.format !== FORMAT ||
      typeof v.conversation !== 'string' ||
      typeof v.dir !== 'string' ||
      !Number.isSafeInteger(v.count) ||
      typeof v.head !== 'string' ||
      typeof v.did !== 'string'
    )
      return 'unreadable';
    return { conversation: v.conversation, dir: v.dir, count: v.count!, head: v.head, did: v.did };
  } catch {
    return 'unreadable';
  }
}

/** Every conversation's writer (any window, the CLI) writes its head in this folder: only old temps go. */
function removeStaleHeadTemps(file: string): void {
  removeStaleTempFilesOnce(path.dirname(file), (name) => name.endsWith(TMP_SUFFIX));
}

/** Writes the record beside, syncs it and renames it into place, so a crash leaves the old or the new. */
export async function writeHeadRecord(file: string, rec: HeadRecord): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  removeStaleHeadTemps(file);
  const tmp = `${file}.${process.pid}.tmp`;
  const fh = await fs.promises.open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(JSON.stringify({ format: FORMAT, ...rec }) + '\n');
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await fs.promises.rename(tmp, file);
}

export function writeHeadRecordSync(file: string, rec: HeadRecord): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  removeStaleHeadTemps(file);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ format: FORMAT, ...rec }) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** The folder as the record names it: the real path when it exists, so a symlink is the same folder. */
export function folderKey(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * Keeps one head write in flight and, behind it, only the newest record: writes are coalesced, never
 * reordered, and nothing on the append path waits for them.
 */
export class HeadRecorder {
  private next: HeadRecord | null = null;
  private running: Promise<void> | null = null;
  failure: Error | null = null;

  constructor(readonly file: string) {}

  record(rec: HeadRecord): void {
    this.next = rec;
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.next) {
        const rec = this.next;
        this.next = null;
        try {
          await writeHeadRecord(this.file, rec);
        } catch (err) {
          this.failure = err as Error;
        }
      }
    } finally {
      this.running = null;
    }
  }

  /** Resolves once every record handed in so far is written (flush, close). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}
