/**
 * A snapshot's resume data kept up to date as a ViewLedger grows, for a writer that takes a
 * snapshot every thousand events of a long log (an import). Taken from scratch, each snapshot
 * walks the whole view: every entry's id joined for the crc, every position set in a bitmap. Here
 * the entries checkpointed so far, the crc of their ids, the bitmap of their positions and whether a
 * system prompt is shown are carried from one snapshot to the next, and only the entries appended
 * since are looked at, so a snapshot costs what the log grew by, plus the bitmap's deflate.
 *
 * Entries already noted keep their place in the checkpoint until the ledger's generation changes
 * (a condensation, a forgotten event, a compaction: view-ledger.ts); then it is worked out again
 * from the whole ledger, once. The result is the same object `resumeDataOf(ledger.checkpoint(),
 * ledger.showsKind('SystemPromptEvent'))` gives (a unit test compares them snapshot by snapshot).
 */
import type { LedgerEvent, ViewLedger } from '../context';
import { crc32 } from '../log/record-format';
import { resumeDataOf } from './conversation-memory';
import { packPositions } from './view-positions';

type ResumeData = ReturnType<typeof resumeDataOf>;

const NEWLINE = '\n';

export class RunningCheckpoint<E extends LedgerEvent> {
  private generation = -1;
  /** Entries of `ledger.log` looked at so far. */
  private seen = 0;
  private entries: string[] = [];
  private at: (number | null)[] = [];
  private before = 0;
  private crc = 0;
  /** Bit k: position first + k; valid only while every position is known and increasing. */
  private bitmap = Buffer.alloc(0);
  private first = -1;
  private last = -1;
  private positional = true;
  private systemPrompt = false;

  constructor(private readonly ledger: ViewLedger<E>) {}

  /** What a snapshot taken now stores besides the state. */
  resumeData(): ResumeData {
    const ledger = this.ledger;
    ledger.settle();
    if (ledger.generation !== this.generation) this.restart(ledger.generation);
    const log = ledger.log;
    const source = ledger.summarySource;
    for (let i = this.seen; i < log.length; i++) {
      const entry = log[i]!;
      if (!this.systemPrompt && entry.e.kind === 'SystemPromptEvent' && ledger.isShown(entry))
        this.systemPrompt = true;
      if (!ledger.mayShowLater(entry)) continue;
      if (source && i < source.logLength) this.before++;
      this.note(entry.e.id, entry.at ?? null);
    }
    this.seen = log.length;
    if (!this.positional || this.entries.length === 0) {
      // Ids are kept as they are: the same as a checkpoint from scratch, copied so later notes leave it be.
      const cp = ledger.checkpointOf([...this.entries], [...this.at], this.before);
      return resumeDataOf(cp, this.systemPrompt);
    }
    const { summary, request, forgotten } = ledger.checkpointOf(this.entries, this.at, this.before);
    const bitmap = this.bitmap.subarray(0, ((this.last - this.first) >> 3) + 1);
    const kept = packPositions(this.first, this.entries.length, bitmap, this.crc);
    return { view: { kept, summary, request, forgotten }, systemPrompt: this.systemPrompt };
  }

  private restart(generation: number): void {
    this.generation = generation;
    this.seen = 0;
    this.entries = [];
    this.at = [];
    this.before = 0;
    this.crc = 0;
    this.bitmap = Buffer.alloc(0);
    this.first = -1;
    this.last = -1;
    this.positional = true;
    this.systemPrompt = false;
  }

  private note(id: string, at: number | null): void {
    this.crc = this.entries.length === 0 ? crc32(id) : crc32(id, crc32(NEWLINE, this.crc));
    this.entries.push(id);
    this.at.push(at);
    if (!this.positional) return;
    if (at === null || (this.last >= 0 && at <= this.last)) {
      this.positional = false;
      return;
    }
    if (this.first < 0) this.first = at;
    this.last = at;
    const byte = (at - this.first) >> 3;
    if (byte >= this.bitmap.length) {
      const grown = Buffer.alloc(Math.max(64, byte + 1, this.bitmap.length * 2));
      this.bitmap.copy(grown);
      this.bitmap = grown;
    }
    this.bitmap[byte]! |= 1 << ((at - this.first) & 7);
  }
}
