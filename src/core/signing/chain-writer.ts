// The chain of one writable signed log (FORMAT.md, "Signatures"): each record's hash as it is
// written, signatures over the head 5 ms after an append and at every flush and close, and
// signatures.log kept in step with the log (an unsigned tail cut after a crash, a fork's proof).
import fs from 'node:fs';
import path from 'node:path';
import { EventStoreError } from '../log/event-store';
import { readAcceptedLosses } from '../log/lost-events';
import {
  type ChainFile,
  type ChainMarker,
  SIGNATURES_FILE,
  SIGNATURES_HEADER_V2,
  b64,
  eventHash,
  markerLine,
  nextHead,
  parseChainFile,
  signedMessage,
  withoutZeroTail,
} from './chain';
import { ChainWalker, chainIdToken, markerLink } from './chain-head';
import { type ChainTail, readChainTail } from './chain-tail';
import { HeadRecorder, folderKey, readHeadRecord } from './head-record';
import type { SigningIdentity } from './identity';
import { rawRecords } from './raw-records';
import type { RecordHashes } from './record-hashes';

const SIGN_DELAY_MS = 5;
/**
 * How long signatures written after a durable append may wait for their own fdatasync. A sync of
 * signatures.log beside every durable append's made that append 1.22–1.53× slower (two syncs
 * contend for the journal); one sync for every signature of the window costs nothing measurable.
 */
const SIGNATURE_SYNC_DELAY_MS = 50;

export interface ChainWriterOptions {
  unchainedAre: 'late' | 'imported';
  recordHashes: RecordHashes | undefined;
  conversationId: string;
  headFile: string | undefined;
}

/** Keeps the chain of one writable log and writes signatures.log. */
export class ChainWriter {
  private head: Buffer = Buffer.alloc(32);
  /** version 2: markers written since the last hash, linked before the next one */
  private unlinked: ChainMarker[] = [];
  private version: 1 | 2 = 2;
  private count = 0;
  private signedCount = 0;
  private pending = '';
  private offset = 0;
  private timer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  /** The background sync running now, if any: flush and close wait for it. */
  private syncing: Promise<void> | null = null;
  /** A durable append was made since signatures.log was last synced. */
  private durableUnsynced = false;
  /** Events known to be on disk: a durable append resolved for the last of them. */
  private durableCount = 0;
  /** Signatures written since the head was last recorded outside the folder. */
  private unrecorded: { count: number; head: string }[] = [];
  /**
   * The head recorded outside the folder is not one of this chain's signatures (the log was cut
   * back or rewritten): it is left as it is, the evidence, and never overwritten from here.
   */
  private pinned = false;
  failure: Error | null = null;

  private constructor(
    private readonly fd: number,
    private identity: SigningIdentity,
    private readonly heads: { recorder: HeadRecorder; conversation: string; dir: string } | null,
  ) {}

  /**
   * Opens signatures.log and chains the records it lacks (`length` in all), marked `l` (late): they
   * were in the log before this signer saw them (an older conversation, or a crash before signing).
   */
  static open(dir: string, identity: SigningIdentity, length: number, opts: ChainWriterOptions): ChainWriter {
    const { headFile } = opts;
    const file = path.join(dir, SIGNATURES_FILE);
    // A long chain is read from its end when that holds all a writer needs (chain-tail.ts).
    const tail = readChainTail(file);
    if (tail && tail.parsed.hashes.length <= length && tailHoldsRecordedHead(tail, headFile, dir))
      return ChainWriter.start(dir, identity, length, opts, tail.parsed, tail.keep);
    let text = readText(file);
    let parsed = parseChainFile(text);
    if (!parsed.malformed) {
      // Hashes no signature covers were written by a writer that stopped before it signed them (a
      // crash within SIGN_DELAY_MS, a power cut before signatures.log was synced). This writer
      // cannot vouch for them: they are dropped and chained again, from the records, as late.
      const cut = unsignedTailAt(withoutZeroTail(text), parsed);
      if (cut !== null) {
        text = text.slice(0, cut);
        parsed = parseChainFile(text);
      }
    }
    if (parsed.hashes.length > length && readAcceptedLosses(dir).length > 0) {
      // The user accepted that the log lost events (lost.json): the chain over them cannot
      // continue. It is kept aside and a new one starts, treating what is left as late. The head
      // recorded outside goes too: the user chose this shorter log.
      fs.mkdirSync(path.join(dir, 'lost'), { recursive: true });
      fs.renameSync(file, path.join(dir, 'lost', `${SIGNATURES_FILE}.${Date.now()}`));
      if (headFile) fs.rmSync(headFile, { force: true });
      text = '';
      parsed = parseChainFile(text);
    }
    if (parsed.malformed) {
      throw new EventStoreError(
        'CORRUPT',
        `${file} line ${parsed.malformed.line} is not a valid signature line; nothing is appended (logbook verify says more)`,
      );
    }
    if (parsed.hashes.length > length) {
      throw new EventStoreError(
        'CORRUPT',
        `${file} signs ${parsed.hashes.length} events but the log holds ${length}; nothing is appended (logbook verify says more)`,
      );
    }
    // Cut a torn last line (or the zeros a power cut left), so the next line starts on its own.
    return ChainWriter.start(
      dir,
      identity,
      length,
      opts,
      parsed,
      withoutZeroTail(text).lastIndexOf('\n') + 1,
    );
  }

  /** A writer on the chain `parsed`, continuing signatures.log at byte `keep`. */
  private static start(
    dir: string,
    identity: SigningIdentity,
    length: number,
    opts: ChainWriterOptions,
    parsed: ChainFile,
    keep: number,
  ): ChainWriter {
    const { unchainedAre, conversationId, headFile } = opts;
    const file = path.join(dir, SIGNATURES_FILE);
    const late: Buffer[] = [];
    const known = opts.recordHashes?.count === length ? opts.recordHashes : undefined;
    if (length > parsed.hashes.length && !known) {
      let i = 0;
      for (const r of rawRecords(dir)) {
        if (i >= length) break;
        if (!r.ok)
          throw new EventStoreError(
            'UNSIGNABLE',
            `record ${i} is unreadable (${r.reason}); it cannot be signed`,
          );
        if (i >= parsed.hashes.length) late.push(eventHash(r.bytes));
        i++;
      }
      if (parsed.hashes.length + late.length < length) {
        throw new EventStoreError(
          'UNSIGNABLE',
          `only ${i} of ${length} records could be read; nothing is signed`,
        );
      }
    }
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
    const recorder = headFile ? new HeadRecorder(headFile) : null;
    const w = new ChainWriter(
      fd,
      identity,
      recorder && { recorder, conversation: conversationId, dir: folderKey(dir) },
    );
    try {
      fs.ftruncateSync(fd, keep);
      w.offset = keep;
      // A new chain is version 2, bound to the conversation; an older one goes on as it started.
      const chain =
        keep === 0 ? { ...parsed, version: 2 as const, conversation: chainIdToken(conversationId) } : parsed;
      if (keep === 0) w.pending = `${SIGNATURES_HEADER_V2} ${chain.conversation}\n`;
      w.version = chain.version;
      // Resume from the head the last signature states (an altered one only makes later signatures
      // fail to verify), so opening a long chain does not hash every link again.
      const walker = new ChainWalker(chain);
      const last = parsed.signatures.at(-1);
      const resumed = last ? Buffer.from(last.head, 'base64url') : null;
      if (last && resumed?.length === 32) walker.resume(last.count, resumed);
      w.head = walker.advanceTo(parsed.hashes.length);
      w.unlinked = walker.unlinked();
      w.count = parsed.hashes.length;
      w.signedCount = parsed.signatures.at(-1)?.count ?? 0;
      if (headFile) w.pinned = !extendsRecordedHead(headFile, folderKey(dir), parsed.signatures);
      if (length > w.count) {
        w.marker({ kind: unchainedAre === 'late' ? 'l' : 'i', from: w.count, to: length - 1 });
        if (known) for (let i = w.count; i < length; i++) w.add(known.at(i));
        else for (const h of late) w.add(h);
      }
      w.writeOut();
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    return w;
  }

  /** Writes a fork's proof, which comes before its first event's hash. */
  before(lines: string): void {
    this.pending += lines;
  }

  /** Writes an `l` or `i` range, just before the hash of event `from`; version 2 chains it too. */
  marker(m: ChainMarker): void {
    this.pending += markerLine(m) + '\n';
    if (this.version === 2) this.unlinked.push(m);
  }

  get chained(): number {
    return this.count;
  }

  add(hash: Buffer): void {
    for (const m of this.unlinked) this.head = nextHead(this.head, markerLink(m));
    this.unlinked = [];
    this.head = nextHead(this.head, hash);
    this.pending += `h ${this.count} ${b64(hash)}\n`;
    this.count++;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        try {
          this.commit();
        } catch {
          // kept in `failure`: the next append, flush or close reports it
        }
      }, SIGN_DELAY_MS);
      this.timer.unref();
    }
  }

  /**
   * Signs what is chained so far with the current key, then signs the events after it with
   * `identity` (a handoff: the agent that takes over signs its own events).
   */
  useIdentity(identity: SigningIdentity): void {
    this.commit();
    this.identity = identity;
  }

  /** Signs the head, if anything is unsigned, and writes what is pending. */
  commit(): void {
    if (this.failure) throw this.failure;
    if (this.count > this.signedCount) {
      const sig = this.identity.sign(signedMessage(this.count, this.head));
      this.pending += `s ${this.count} ${b64(this.head)} ${this.identity.did} ${b64(sig)}\n`;
      this.signedCount = this.count;
      if (this.heads && !this.pinned) this.unrecorded.push({ count: this.count, head: b64(this.head) });
    }
    this.writeOut();
    if (this.durableUnsynced) {
      this.durableUnsynced = false;
      this.syncSoon();
    }
  }

  private writeOut(): void {
    if (this.pending === '') return;
    const buf = Buffer.from(this.pending, 'utf8');
    try {
      let done = 0;
      while (done < buf.length)
        done += fs.writeSync(this.fd, buf, done, buf.length - done, this.offset + done);
      this.offset += buf.length;
      this.pending = '';
    } catch (err) {
      this.failure = new EventStoreError('IO_FAILED', `signatures could not be written: ${String(err)}`, {
        cause: err,
      });
      throw this.failure;
    }
  }

  sync(): Promise<void> {
    return new Promise((resolve, reject) => fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
  }

  /** A durable append was made: the signatures that follow it are synced soon after. */
  durableAppended(): void {
    this.durableUnsynced = true;
  }

  /** A durable append resolved: events 0..count-1 are on disk. */
  durableThrough(count: number): void {
    this.durableCount = Math.max(this.durableCount, count);
  }

  /**
   * Hands the newest signature synced so far, whose events are all on disk (`upTo` of them), to the
   * head recorder. Called after a sync of signatures.log, off the append path; the write is
   * coalesced and never awaited by an append.
   */
  private recordHead(syncedThrough: number, upTo: number): void {
    if (!this.heads || this.pinned) return;
    // By count, not position: a flush may have recorded (and dropped) entries while a sync ran.
    const limit = Math.min(syncedThrough, upTo);
    let pick = -1;
    for (let k = 0; k < this.unrecorded.length && this.unrecorded[k]!.count <= limit; k++) pick = k;
    if (pick < 0) return;
    const { count, head } = this.unrecorded[pick]!;
    this.unrecorded.splice(0, pick + 1);
    const { recorder, conversation, dir } = this.heads;
    recorder.record({ conversation, dir, count, head, did: this.identity.did });
  }

  /** After a flush: every signature is synced and every event on disk; waits for the head's write. */
  async recordHeadNow(): Promise<void> {
    this.recordHead(Infinity, Infinity);
    await this.heads?.recorder.settled();
  }

  /** Starts one sync, within SIGNATURE_SYNC_DELAY_MS, for every signature written until then. */
  private syncSoon(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      // The signatures written by now are the ones this sync makes durable.
      const synced = this.signedCount;
      const run: Promise<void> = this.sync()
        .then(() => this.recordHead(synced, this.durableCount))
        .catch((err: unknown) => {
          this.failure ??= new EventStoreError(
            'IO_FAILED',
            `signatures could not be synced: ${String(err)}`,
            {
              cause: err,
            },
          );
        })
        .finally(() => {
          if (this.syncing === run) this.syncing = null;
        });
      this.syncing = run;
    }, SIGNATURE_SYNC_DELAY_MS);
    this.syncTimer.unref();
  }

  /** Syncs what is written now (flush, close), and waits for a background sync still running. */
  async syncNow(): Promise<void> {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    this.durableUnsynced = false;
    await Promise.all([this.sync(), this.syncing]);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.timer = null;
    this.syncTimer = null;
    fs.closeSync(this.fd);
  }
}

/**
 * Where signatures.log's unsigned tail starts: the first `h` line (or `l`/`i` range) after what the
 * last signature covers (a fork's copies count as covered: its proof vouches for them), or null
 * when every hash is covered.
 */
function unsignedTailAt(text: string, parsed: ReturnType<typeof parseChainFile>): number | null {
  const covered = Math.max(parsed.signatures.at(-1)?.count ?? 0, parsed.fork?.copies ?? 0);
  if (parsed.hashes.length <= covered) return null;
  let at = 0;
  let hashes = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    if (end < 0) break;
    const kind = text.charCodeAt(at);
    // h lines count the chain; an l or i range starting at `covered` opens the tail too.
    if ((kind === 0x68 || kind === 0x6c || kind === 0x69) && hashes >= covered) return at;
    if (kind === 0x68) hashes++;
    at = end + 1;
  }
  return null;
}

/**
 * Whether this chain still holds the head recorded outside the folder (a signature line at its count
 * stating that head), or nothing was recorded for this folder. A record of another folder (the
 * conversation was copied or moved) is taken over.
 */
function extendsRecordedHead(
  headFile: string,
  dir: string,
  signatures: readonly { count: number; head: string }[],
): boolean {
  const rec = readHeadRecord(headFile);
  if (rec === null || rec === 'unreadable' || rec.dir !== dir) return true;
  return signatures.some((s) => s.count === rec.count && s.head === rec.head);
}

/**
 * Whether the signatures a tail read holds answer extendsRecordedHead as the whole file would: the
 * head recorded for this folder is not older than the first signature read.
 */
function tailHoldsRecordedHead(tail: ChainTail, headFile: string | undefined, dir: string): boolean {
  if (!headFile) return true;
  const rec = readHeadRecord(headFile);
  if (rec === null || rec === 'unreadable' || rec.dir !== folderKey(dir)) return true;
  const first = tail.parsed.signatures[0];
  return first !== undefined && rec.count >= first.count;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return '';
  }
}
