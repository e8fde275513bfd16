// Checkpoints of a segment log's index files: every few thousand records (or megabytes) the
// sparse index and ids.idx are synced, then meta.json records how many records they cover, so the
// next open scans only what comes after. A clean close also records where the log ends.
import path from 'node:path';
import { writeFileDurable, writeFileDurableAsync } from './durable-file';
import { META, type Meta, metaText } from './segment-meta';
import type { SparseIndex } from './sparse-index';

/** What a checkpoint syncs: the sparse index and, once loaded, the id index. */
interface CheckpointedIndexes {
  sparse: Pick<SparseIndex, 'writePending' | 'sync'>;
  ids: { writePending(): void; sync(): Promise<void> };
}

export class IndexCheckpoints {
  private bytesSince = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly stride: number,
    private readonly indexes: CheckpointedIndexes,
    private readonly every: { records: number; bytes: number },
    /** Records [0, covered) whose index files are synced, as meta.json says. */
    public covered: number,
    /** meta.json on disk holds an `end` that matches the log (set by a clean open, cleared by appends) */
    public metaHasEnd: boolean,
  ) {}

  /** The checkpoint being written, if any. */
  get pending(): Promise<void> | null {
    return this.running;
  }

  /** Counts the bytes of a record appended. */
  wrote(bytes: number): void {
    this.bytesSince += bytes;
  }

  /** Writes meta.json at once, saying the indexes cover `covered` records. */
  writeMetaSync(covered: number): void {
    writeFileDurable(path.join(this.dir, META), metaText(this.stride, covered));
  }

  /** Starts a checkpoint at `mark` when enough records or bytes were synced since the last one. */
  maybe(mark: number): void {
    if (this.running) return;
    if (mark - this.covered < this.every.records && this.bytesSince < this.every.bytes) return;
    this.running = this.write(mark)
      .catch(() => {
        /* best effort: the next checkpoint retries, and open re-derives what is missing */
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Syncs the index files, then records in meta.json that records [0, mark) are covered by them. */
  async write(mark: number, end?: Meta['end']): Promise<void> {
    this.bytesSince = 0;
    this.indexes.sparse.writePending();
    this.indexes.ids.writePending();
    // Two files, synced together; meta.json only after both. No id index loaded means no append
    // since open, so ids.idx already covers the checkpoint.
    await Promise.all([this.indexes.sparse.sync(), this.indexes.ids.sync()]);
    this.metaHasEnd = false;
    await writeFileDurableAsync(path.join(this.dir, META), metaText(this.stride, mark, end), false);
    if (end) this.metaHasEnd = true;
    this.covered = Math.max(this.covered, mark);
  }
}
