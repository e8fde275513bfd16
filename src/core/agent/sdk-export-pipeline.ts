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
import { type Event, serializeEvent } from '../events';
import { SdkExporter } from '../events/openhands-sdk-export';
import { WorkspaceOnlyEvents } from '../checkpoints/export';

/** One JSON line per kept record: `{"index": <position in the log>, "record": "<stored JSON>"}`. */
export const ORIGINAL_RECORDS = 'logbook-original-records.jsonl';

export class SdkExportPipeline {
  private readonly workspaceOnly = new WorkspaceOnlyEvents();
  readonly sdk = new SdkExporter();

  /** The exported events for `e` (none when it is left out). */
  convert(e: Event): Event[] {
    const kept = this.workspaceOnly.keep(e);
    return kept ? this.sdk.convert(kept) : [];
  }
}

export interface OriginalRecord {
  index: number;
  record: string;
}

export function originalRecordLine(index: number, record: string): string {
  return `${JSON.stringify({ index, record })}\n`;
}

/** The kept records of an ORIGINAL_RECORDS text, by index; lines that do not parse are skipped. */
export function parseOriginalRecords(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as Partial<OriginalRecord>;
      if (Number.isSafeInteger(r.index) && typeof r.record === 'string') out.set(r.index!, r.record);
    } catch {
      // a damaged line: that record is imported as exported
    }
  }
  return out;
}

/** Whether `made` is exactly `exported`, event for event, byte for byte. */
export function sameEvents(made: readonly Event[], exported: readonly Event[]): boolean {
  return (
    made.length === exported.length &&
    made.every((e, i) => serializeEvent(e) === serializeEvent(exported[i]!))
  );
}
