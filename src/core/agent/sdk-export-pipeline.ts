/**
 * What an OpenHands export makes of each event of a Logbook log, in log order: checkpoint events
 * left out (core/checkpoints/export.ts), then the SDK's form (core/events/openhands-sdk-export.ts).
 * Images and secrets are the exporter's business: this part is what an import can check again.
 *
 * An exported event that differs from its record in the log would lose its signature on the way
 * back, so the export keeps such records, exactly as the log stores them, in ORIGINAL_RECORDS
 * beside the OpenHands files (which OpenHands does not read). An import takes a kept record in
 * place of what the export made of it when the pipeline still makes exactly that of it: the event
 * comes back as it was signed.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { type Event, serializeEvent } from '../events';
import { SdkExporter } from '../events/openhands-sdk-export';
import { WorkspaceOnlyEvents } from '../checkpoints/export';
import { ForgottenRangeLister } from '../context';
import type { AgentStamp } from '../agents/agent-events';
import type { RecordPatch } from './original-records';

/**
 * One JSON line per kept record: `{"index": <position in the log>, "record": "<stored JSON>"}`, or
 * only its agent stamp (`{"index", "stamp"}`; a first line `{"stamp"}` names the common one); see
 * original-records.ts.
 */
export const ORIGINAL_RECORDS = 'logbook-original-records.jsonl';

export class SdkExportPipeline {
  private readonly workspaceOnly = new WorkspaceOnlyEvents();
  private readonly ranges = new ForgottenRangeLister();
  readonly sdk = new SdkExporter();

  /** The exported events for `e` (none when it is left out). */
  convert(e: Event): Event[] {
    const kept = this.workspaceOnly.keep(this.ranges.list(e));
    return kept ? this.sdk.convert(kept) : [];
  }
}

export interface OriginalRecord {
  index: number;
  /** The record as stored; absent: the exported event with `stamp` put back (null: none). */
  record?: string;
  stamp?: AgentStamp | null;
  /** Or the record's fields in order, with the ones the export changed. */
  patch?: RecordPatch;
}

export function originalRecordLine(index: number, record: string): string {
  return `${JSON.stringify({ index, record })}\n`;
}

/**
 * The kept records of an ORIGINAL_RECORDS file, read forward a chunk at a time as an import asks
 * for them by increasing index (the export writes them in that order), so a long one is never held
 * whole. A line that does not parse, or whose index is not above the line's before it, is skipped:
 * that record is imported as exported.
 */
export class OriginalRecords {
  private readonly chunk = Buffer.alloc(1 << 20);
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private partial = '';
  private head: OriginalRecord | undefined;
  private fd: number | null;
  /** The stamp of every record the file does not name (read from its first line). */
  private common: AgentStamp | null = null;

  private constructor(fd: number) {
    this.fd = fd;
  }

  /** The records in `file`; null when there is no such file. */
  static open(file: string): OriginalRecords | null {
    try {
      return new OriginalRecords(openSync(file, 'r'));
    } catch {
      return null;
    }
  }

  /**
   * What is kept of the record at `index`: its stored form, or the stamp to put back on its export
   * (the common one when the file does not name it). Each call must ask for a higher index.
   */
  at(index: number): { record: string } | { stamp: AgentStamp | null } | { patch: RecordPatch } | undefined {
    while (this.head === undefined || this.head.index < index) {
      const next = this.nextRecord();
      if (!next) break;
      if (this.head === undefined || next.index > this.head.index) this.head = next;
    }
    const head = this.head?.index === index ? this.head : undefined;
    if (head?.record !== undefined) return { record: head.record };
    if (head?.patch !== undefined) return { patch: head.patch };
    if (head?.stamp !== undefined) return { stamp: head.stamp };
    return this.common ? { stamp: this.common } : undefined;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private nextRecord(): OriginalRecord | undefined {
    for (let line = this.nextLine(); line !== undefined; line = this.nextLine()) {
      if (line.trim() === '') continue;
      try {
        const r = JSON.parse(line) as Partial<OriginalRecord>;
        if (r.index === undefined && isStamp(r.stamp)) {
          this.common = r.stamp;
          continue;
        }
        if (!Number.isSafeInteger(r.index)) continue;
        if (typeof r.record === 'string') return { index: r.index!, record: r.record };
        if (r.stamp === null || isStamp(r.stamp)) return { index: r.index!, stamp: r.stamp };
        const p = r as Partial<RecordPatch>;
        if (Array.isArray(p.keys) && p.keys.every((k) => typeof k === 'string') && isObject(p.set))
          return { index: r.index!, patch: { keys: p.keys, set: p.set } };
      } catch {
        // a damaged line: that record is imported as exported
      }
    }
    return undefined;
  }

  private nextLine(): string | undefined {
    while (this.lines.length === 0) {
      if (this.fd === null) return undefined;
      const n = readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      const text =
        n > 0
          ? this.partial + this.decoder.write(this.chunk.subarray(0, n))
          : this.partial + this.decoder.end();
      const lines = text.split('\n');
      this.partial = n > 0 ? lines.pop()! : '';
      this.lines = lines.reverse();
      if (n === 0) this.close();
    }
    return this.lines.pop();
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStamp(v: unknown): v is AgentStamp {
  const s = v as Partial<AgentStamp> | null | undefined;
  return typeof s?.agent_name === 'string' && typeof s.branch === 'string';
}

/** Whether `made` is exactly `exported`, event for event, byte for byte. */
export function sameEvents(made: readonly Event[], exported: readonly Event[]): boolean {
  return (
    made.length === exported.length &&
    made.every((e, i) => serializeEvent(e) === serializeEvent(exported[i]!))
  );
}
