/**
 * Which events of a log the view shows, or may still show, kept up to date as events are
 * appended: the bookkeeping half of ViewBuilder (call pairing, what condensations forgot, what
 * can be let go) without the prompt it builds. ViewBuilder keeps each entry's whole event to build
 * messages from; a reader that only needs checkpoints (an import writing snapshots) keeps just the
 * ids, so its memory follows the view's length, not its bytes.
 */
import { type Condensation, type Event, isKind, isLlmConvertible, type LlmConvertibleEvent } from '../events';
import { CallPairing, type CallRole } from './call-pairing';
import { idsInRange } from './forgotten-range';
import { droppedActions, hasSummary, isKept } from './view';

/** What an entry holds of its event: at least its id and kind. */
export interface LedgerEvent {
  readonly id: string;
  readonly kind: string;
}

export interface LedgerEntry<E extends LedgerEvent> {
  e: E;
  role: CallRole;
  /** Where the event is in its log, when the caller said (see `append`). */
  at: number | undefined;
}

/** What `restore` needs, besides the events it names, to equal the ledger (or builder) it came from. */
export interface ViewCheckpoint {
  /** Ids of the events that are shown or may still be, in log order. */
  entries: string[];
  /** Their positions in the log (null where `append` was not told), so a restore can read them in runs. */
  at: (number | null)[];
  /** The Condensation whose summary is shown, how many of `entries` precede it, and its position. */
  summary: { id: string; before: number; at: number | null } | null;
  /** A CondensationRequest came after the last Condensation. */
  request: boolean;
  /** Forgotten ids that still matter: of retained events, or of events not in the log yet. */
  forgotten: string[];
}

export interface SummarySource {
  condensation: Condensation;
  /** How many log entries preceded it. */
  logLength: number;
  at: number | undefined;
}

export class ViewLedger<E extends LedgerEvent> {
  /** Every LLM-convertible event appended and not let go of, with its role. */
  readonly log: LedgerEntry<E>[] = [];
  private readonly pairing = new CallPairing();
  private readonly forgotten = new Set<string>();
  private readonly dropped = new Set<string>();
  /** Latest Condensation with a summary, and how many log entries preceded it. */
  summarySource: SummarySource | undefined;
  unhandledRequest = false;
  /** Something changed what is kept in a way only a pass over `log` resolves (see `settle`). */
  private stale = false;
  private changes = 0;

  /** `keep`: what an entry holds of its event. */
  constructor(private readonly keep: (e: LlmConvertibleEvent) => E) {}

  /**
   * Grows whenever an entry already in `log` may change whether it is shown or checkpointed, or
   * `log` itself is compacted; between two changes, appends only add entries at its end. A reader
   * that follows the checkpoint as events come (running-checkpoint.ts) starts over when it grows.
   */
  get generation(): number {
    return this.changes;
  }

  /**
   * Notes the next event of the log; `at`, its index there, only serves `checkpoint`. Returns its
   * entry when it is shown right away, at the end of a view that is up to date; undefined when it
   * is not shown, or when the view awaits a `settle` (which then accounts for it).
   */
  append(e: Event, at?: number): LedgerEntry<E> | undefined {
    if (isKind(e, 'Condensation')) {
      // First let go of all that can never be shown, however often the view was read before: an id
      // it names of an event let go of is then missing from `log` whether or not a read settled the
      // view in between, so a ledger kept up to date and one rebuilt from the log note it alike.
      this.stale = true;
      this.settle();
      // Its own id is not noted (View.fromEvents does): a Condensation is never shown, and ids
      // are unique, so it would only make `forgotten` and every checkpoint grow with the log.
      for (const id of e.forgotten_event_ids) this.forgotten.add(id);
      // A range names a run of the events noted so far; those let go of are hidden already.
      if (e.forgotten_range) {
        const ids = this.log.map((entry) => entry.e.id);
        for (const id of idsInRange(e.forgotten_range, ids)) this.forgotten.add(id);
      }
      if (hasSummary(e)) this.summarySource = { condensation: e, logLength: this.log.length, at };
      this.unhandledRequest = false;
      this.stale = true;
      this.changes++;
      return undefined;
    }
    if (isKind(e, 'CondensationRequest')) {
      this.unhandledRequest = true;
      return undefined;
    }
    if (!isLlmConvertible(e)) return undefined;
    const entry: LedgerEntry<E> = { e: this.keep(e), role: this.pairing.add(e), at };
    this.log.push(entry);
    const role = entry.role;
    // The action it answers is no longer pending: checkpointed only while it was, if not shown.
    if (role.type === 'result' && (this.forgotten.has(role.actionId) || this.dropped.has(role.actionId)))
      this.changes++;
    if (this.stale) return undefined; // the coming settle sees it

    if (this.forgotten.has(e.id)) {
      // Forgotten before it arrived: drop it and its pair; settle again only if the pair is shown.
      const pair = role.type === 'action' ? e.id : role.type === 'result' ? role.actionId : undefined;
      if (pair !== undefined && !this.dropped.has(pair)) {
        this.dropped.add(pair);
        this.changes++;
        if (role.type === 'result') this.stale = true;
      }
      return undefined;
    }
    return this.isShown(entry) ? entry : undefined;
  }

  /**
   * After a condensation (or a forgotten result whose action is shown): works out again what is
   * dropped and lets go of what can never be shown. True when it did, so the shown events must be
   * recomputed from `log`.
   */
  settle(): boolean {
    if (!this.stale) return false;
    this.stale = false;
    this.changes++;
    this.dropped.clear();
    for (const id of droppedActions(this.log, this.forgotten)) this.dropped.add(id);
    this.compact();
    return true;
  }

  /** The entry is in the view (once settled). */
  isShown({ e, role }: LedgerEntry<E>): boolean {
    return isKept(e, role, this.forgotten, this.dropped);
  }

  /** Whether the view shows an event of this kind. */
  showsKind(kind: string): boolean {
    this.settle();
    return this.log.some((entry) => entry.e.kind === kind && this.isShown(entry));
  }

  /** The ActionEvent with this id was appended (answered or not). */
  knows(actionId: string): boolean {
    return this.pairing.knows(actionId);
  }

  /**
   * What a later `restore` needs to rebuild this ledger from a handful of events: the kept ones and
   * the actions still waiting for a result. Its size follows the view, not the log.
   */
  checkpoint(): ViewCheckpoint {
    this.settle();
    const source = this.summarySource;
    const entries: string[] = [];
    const at: (number | null)[] = [];
    let before = 0;
    this.log.forEach((entry, i) => {
      if (!this.mayShowLater(entry)) return;
      entries.push(entry.e.id);
      at.push(entry.at ?? null);
      if (source && i < source.logLength) before++;
    });
    return this.checkpointOf(entries, at, before);
  }

  /**
   * The checkpoint of a settled ledger whose checkpointed entries (those `mayShowLater` keeps, in
   * order) are `entries` at `at`, `before` of them ahead of the summary: for a reader that keeps
   * them up to date itself instead of walking `log` each time.
   */
  checkpointOf(entries: string[], at: (number | null)[], before: number): ViewCheckpoint {
    const source = this.summarySource;
    return {
      entries,
      at,
      summary: source ? { id: source.condensation.id, before, at: source.at ?? null } : null,
      request: this.unhandledRequest,
      forgotten: this.forgottenThatMatter(entries),
    };
  }

  /**
   * A ledger equal to the one `checkpoint` was taken from, given the events it names (by id).
   * Undefined when one is missing or is not what the checkpoint says it is. It awaits a `settle`.
   */
  static restore<E extends LedgerEvent>(
    cp: ViewCheckpoint,
    eventById: (id: string) => Event | undefined,
    keep: (e: LlmConvertibleEvent) => E,
  ): ViewLedger<E> | undefined {
    const l = new ViewLedger(keep);
    for (const id of cp.forgotten) l.forgotten.add(id);
    for (const [i, id] of cp.entries.entries()) {
      const e = eventById(id);
      if (!e || e.id !== id || !isLlmConvertible(e)) return undefined;
      l.log.push({ e: keep(e), role: l.pairing.add(e), at: cp.at[i] ?? undefined });
    }
    if (cp.summary) {
      const c = eventById(cp.summary.id);
      const before = cp.summary.before;
      if (!c || !isKind(c, 'Condensation') || !hasSummary(c)) return undefined;
      if (!Number.isInteger(before) || before < 0 || before > l.log.length) return undefined;
      l.summarySource = { condensation: c, logLength: before, at: cp.summary.at ?? undefined };
    }
    l.unhandledRequest = cp.request;
    l.stale = true;
    return l;
  }

  private forgottenThatMatter(entries: readonly string[]): string[] {
    if (this.forgotten.size === 0) return [];
    const logIds = new Set(this.log.map(({ e }) => e.id));
    const retained = new Set(entries);
    return [...this.forgotten].filter((id) => retained.has(id) || !logIds.has(id));
  }

  /** Shown now, or may be later: an action still waiting for its result. What `checkpoint` names. */
  mayShowLater(entry: LedgerEntry<E>): boolean {
    return this.isShown(entry) || (entry.role.type === 'action' && this.pairing.isPending(entry.e.id));
  }

  /**
   * Lets go of the events that can never be shown again. Whether an event is shown only changes
   * through its own id or its pair's, and a retained event's pair is retained too, so the view is
   * the same without them; their ids leave `forgotten` with them (ids never repeat in a log).
   */
  private compact(): void {
    const source = this.summarySource;
    const retained: LedgerEntry<E>[] = [];
    let before = 0;
    this.log.forEach((entry, i) => {
      if (this.mayShowLater(entry)) {
        retained.push(entry);
        if (source && i < source.logLength) before++;
      } else {
        this.forgotten.delete(entry.e.id);
      }
    });
    if (retained.length === this.log.length) return;
    this.log.length = 0;
    for (const entry of retained) this.log.push(entry); // no spread: a long view exceeds the argument limit
    if (source) this.summarySource = { ...source, logLength: before };
  }
}
