/**
 * The files of a folder read in order on a worker thread, a few batches ahead of the one who takes
 * them. Reading an OpenHands conversation's event files (a system call or three and a UTF-8 decode
 * each, a third of an import's work) then overlaps with decoding and storing them on the main
 * thread. The worker only reads: every text is decoded and checked where it was before, and a file
 * it could not read is read again by the taker, so errors say the same as without it.
 *
 * At most AHEAD batches wait, read and not yet taken: memory stays a few megabytes however long
 * the folder is.
 */
import { Worker } from 'node:worker_threads';

const BATCH = 256;
const AHEAD = 8;

// The worker's source, evaluated as it is: a bundled file has no module of its own to start a
// Worker from. `taken`: [batches taken, the count that wakes the worker]. Once AHEAD batches ahead
// it sleeps until half of them are taken, so the taker wakes it once per AHEAD / 2 batches, not
// for each one (a wake-up costs the taker a context switch on a busy machine).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { dir, names, from, batch, ahead, taken } = workerData;
const counter = new Int32Array(taken);
for (let b = 0, start = from; start < names.length; b++, start += batch) {
  if (b - Atomics.load(counter, 0) >= ahead) {
    Atomics.store(counter, 1, b - ahead / 2);
    for (let t = Atomics.load(counter, 0); b - t > ahead / 2; t = Atomics.load(counter, 0)) Atomics.wait(counter, 0, t);
  }
  const texts = [];
  for (let i = start; i < Math.min(names.length, start + batch); i++) {
    const name = names[i];
    let text = null;
    if (name !== null) {
      try {
        text = fs.readFileSync(path.join(dir, name), 'utf8');
      } catch {}
    }
    texts.push(text);
  }
  parentPort.postMessage(texts);
}
`;

export class FileReadAhead {
  private readonly worker: Worker;
  private readonly taken = new Int32Array(new SharedArrayBuffer(8)).fill(-1, 1);
  private readonly ready: (string | null)[][] = [];
  private current: (string | null)[] = [];
  /** Index of the file `current[0]` stands for. */
  private base: number;
  private wake: (() => void) | null = null;
  private stopped = false;

  /** Starts reading `names` (null: no file) of `dir` from index `from`. */
  constructor(
    dir: string,
    private readonly names: readonly (string | null)[],
    from: number,
  ) {
    this.base = from;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { dir, names, from, batch: BATCH, ahead: AHEAD, taken: this.taken.buffer },
    });
    this.worker.unref();
    this.worker.on('message', (texts: (string | null)[]) => {
      this.ready.push(texts);
      this.wakeTaker();
    });
    this.worker.on('error', () => this.stop());
    this.worker.on('exit', () => this.stop());
  }

  /**
   * The text of file `index`, once read; null when the worker could not read it, undefined when it
   * will not have it (asked out of order, or stopped): the caller then reads the file itself.
   */
  take(index: number): string | null | undefined | Promise<string | null | undefined> {
    if (index < this.base) return undefined;
    const i = index - this.base;
    if (i < this.current.length) return this.current[i]!;
    return this.nextBatch().then((more) => (more ? this.take(index) : undefined));
  }

  /** Stops the worker; later takes return undefined. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    void this.worker.terminate();
    this.wakeTaker();
  }

  private async nextBatch(): Promise<boolean> {
    while (this.ready.length === 0) {
      if (this.stopped || this.base + this.current.length >= this.names.length) return false;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.base += this.current.length;
    this.current = this.ready.shift()!;
    if (Atomics.add(this.taken, 0, 1) + 1 === Atomics.load(this.taken, 1)) Atomics.notify(this.taken, 0);
    return true;
  }

  private wakeTaker(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
