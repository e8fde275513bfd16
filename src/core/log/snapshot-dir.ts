// Opaque state snapshots next to a log, so the state layer can open in O(tail).
//
//   snapshots/snap-<index, 12 digits>.json  =  "<crc32 hex8> <index> <eventId>\n<json>"
//
// Written atomically (temp, fsync, rename, fsync dir), or for a bulk import (temp, rename) with the
// files and the folder synced once, when its store closes: the import syncs one folder, not two
// files per snapshot, and has them all on disk before it reports success. A snapshot is only served if its crc holds
// and the event now at its index still has the id it was taken after: a snapshot of events that a
// torn-tail repair removed, or of another history, is skipped rather than trusted.
import fs from 'node:fs';
import path from 'node:path';
import { type Snapshot } from './event-store';
import { crc32 } from './record-format';
import { fsyncFiles, writeFileAtomic, writeFileDurable } from './durable-file';
import { snapshotsToKeep } from './snapshot-thinning';

const NAME = /^snap-(\d{12})\.json$/;

export class SnapshotDir {
  /** Files written but not yet synced (deferred syncs only). */
  private readonly unsynced = new Set<string>();

  /** `deferSync`: each write skips its syncs, and `syncWritten` makes them durable together. */
  constructor(
    readonly dir: string,
    private readonly deferSync = false,
  ) {}

  write(index: number, eventId: string, json: string): void {
    fs.mkdirSync(this.dir, { recursive: true });
    const head = `${crc32(json).toString(16).padStart(8, '0')} ${index} ${eventId}\n`;
    const file = path.join(this.dir, `snap-${String(index).padStart(12, '0')}.json`);
    if (!this.deferSync) return writeFileDurable(file, head + json);
    writeFileAtomic(file, head + json);
    this.unsynced.add(file);
  }

  /** Syncs the snapshots written since the last call (those thinned away meanwhile are skipped) and the folder. */
  async syncWritten(): Promise<void> {
    if (this.unsynced.size === 0) return;
    const files = [...this.unsynced];
    await fsyncFiles(this.dir, files);
    for (const f of files) this.unsynced.delete(f);
  }

  /** Newest snapshot with index <= limit that passes `stillValid(index, eventId)`. */
  latest(limit: number, stillValid: (index: number, eventId: string) => boolean): Snapshot | undefined {
    const found = this.list()
      .filter((x) => x.index <= limit)
      .sort((a, b) => b.index - a.index);
    for (const f of found) {
      const s = this.readOne(path.join(this.dir, f.name), f.index);
      if (s && stillValid(s.index, s.eventId)) return s;
    }
    return undefined;
  }

  /** Index of the newest snapshot file, valid or not (its name alone says the log reached it). */
  newestIndex(): number | null {
    let newest: number | null = null;
    for (const f of this.list()) if (newest === null || f.index > newest) newest = f.index;
    return newest;
  }

  /**
   * Deletes the snapshots `snapshotsToKeep` lets go of; returns how many. Only snapshot files are
   * touched, never the log. A file that cannot be deleted is left for the next time.
   */
  thin(): number {
    const files = this.list();
    const keep = snapshotsToKeep(files.map((f) => f.index));
    let removed = 0;
    for (const f of files) {
      if (keep.has(f.index)) continue;
      try {
        fs.unlinkSync(path.join(this.dir, f.name));
        removed++;
      } catch {
        // Still there: a later thinning tries again.
      }
    }
    return removed;
  }

  /** Moves the snapshots taken at `from` or later into `toDir` (they describe events now lost). */
  moveFrom(from: number, toDir: string): void {
    for (const f of this.list()) {
      if (f.index < from) continue;
      fs.mkdirSync(toDir, { recursive: true });
      fs.renameSync(path.join(this.dir, f.name), path.join(toDir, f.name));
    }
  }

  private list(): { name: string; index: number }[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .map((n) => ({ n, m: NAME.exec(n) }))
      .filter((x): x is { n: string; m: RegExpExecArray } => x.m !== null)
      .map((x) => ({ name: x.n, index: Number(x.m[1]) }));
  }

  private readOne(file: string, index: number): Snapshot | undefined {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const nl = text.indexOf('\n');
    if (nl < 0) return undefined;
    const [crcHex, idx, eventId] = text.slice(0, nl).split(' ');
    const json = text.slice(nl + 1);
    if (Number(idx) !== index || !eventId || crcHex !== crc32(json).toString(16).padStart(8, '0'))
      return undefined;
    return { index, eventId, json };
  }
}
