// What an OpenHands export keeps of the log beside the SDK's files (ORIGINAL_RECORDS), so an import
// gives every event back as it was signed. Most records differ from their export only by the
// `agent_name`/`branch` stamp the SDK forbids: for those the file holds the stamp, not the record.
// One line without an index names the stamp most records carry; a record with another stamp gets
// an `{"index", "stamp"}` line, a record exported as stored in a stamped log `"stamp": null`, and a
// record the export changed otherwise its whole stored form (`{"index", "record"}`). A log the
// export leaves as it is needs no file at all.
import type { AgentStamp } from '../agents/agent-events';

type Kept =
  | { index: number; record: string }
  | { index: number; stamp: AgentStamp | null }
  | { index: number; patch: RecordPatch };

/** A record rebuilt from its export: its fields in order, the ones the export changed given here. */
export interface RecordPatch {
  keys: string[];
  set: Record<string, unknown>;
}

/** The record a patch makes of the exported event. */
export function applyPatch(exported: object, patch: RecordPatch): object {
  const from = exported as Record<string, unknown>;
  return Object.fromEntries(patch.keys.map((k) => [k, k in patch.set ? patch.set[k] : from[k]]));
}

/** The stamp an exported event lacks, put back where the log writes it (after every other field). */
export function restamp<E extends object>(event: E, stamp: AgentStamp): E {
  return { ...event, agent_name: stamp.agent_name, branch: stamp.branch };
}

export class OriginalRecordsWriter {
  private readonly kept: Kept[] = [];
  private readonly stampCounts = new Map<string, { stamp: AgentStamp; n: number }>();

  /**
   * One record of the log and what the export wrote of it. `encodeRecord` is the log's encoding
   * (the one `record` was made with), to tell a stamp-only difference.
   */
  add(
    index: number,
    record: string,
    written: readonly { event: object; encoded: string }[],
    encodeRecord: (e: object) => string,
  ): void {
    if (written.length === 1) {
      if (written[0]!.encoded === record) {
        this.kept.push({ index, stamp: null });
        return;
      }
      const stamp = stampIn(record);
      if (stamp && encodeRecord(restamp(written[0]!.event, stamp)) === record) {
        const key = `${stamp.agent_name}\n${stamp.branch}`;
        const c = this.stampCounts.get(key) ?? { stamp, n: 0 };
        c.n++;
        this.stampCounts.set(key, c);
        this.kept.push({ index, stamp });
        return;
      }
      // Only some fields changed (a system prompt's tools, an observation's form): those fields.
      const patch = patchOf(record, written[0]!.event);
      if (
        patch &&
        JSON.stringify(patch).length < record.length &&
        encodeRecord(applyPatch(written[0]!.event, patch)) === record
      ) {
        this.kept.push({ index, patch });
        return;
      }
    }
    this.kept.push({ index, record });
  }

  /** A record the export must give back as exported (it held a secret the export redacted). */
  asExported(index: number): void {
    this.kept.push({ index, stamp: null });
  }

  /** The file's text; null when an import needs nothing beside the exported events. */
  text(): string | null {
    const common = [...this.stampCounts.values()].sort((a, b) => b.n - a.n)[0]?.stamp ?? null;
    const lines: string[] = [];
    if (common) lines.push(`${JSON.stringify({ stamp: common })}\n`);
    for (const k of this.kept) {
      if ('record' in k) lines.push(`${JSON.stringify({ index: k.index, record: k.record })}\n`);
      else if ('patch' in k) lines.push(`${JSON.stringify({ index: k.index, ...k.patch })}\n`);
      else if ('stamp' in k) {
        if (k.stamp === null) {
          // Exported as stored: said only when others take the common stamp back.
          if (common) lines.push(`${JSON.stringify({ index: k.index, stamp: null })}\n`);
        } else if (!common || !sameStamp(k.stamp, common))
          lines.push(`${JSON.stringify({ index: k.index, stamp: k.stamp })}\n`);
      }
    }
    return lines.length ? lines.join('') : null;
  }
}

function patchOf(record: string, exported: object): RecordPatch | null {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(record) as Record<string, unknown>;
  } catch {
    return null;
  }
  const e = exported as Record<string, unknown>;
  const set = Object.fromEntries(
    Object.keys(r).flatMap((k) =>
      k in e && JSON.stringify(e[k]) === JSON.stringify(r[k]) ? [] : [[k, r[k]]],
    ),
  );
  return { keys: Object.keys(r), set };
}

function sameStamp(a: AgentStamp, b: AgentStamp): boolean {
  return a.agent_name === b.agent_name && a.branch === b.branch;
}

function stampIn(record: string): AgentStamp | null {
  try {
    const e = JSON.parse(record) as { agent_name?: unknown; branch?: unknown };
    return typeof e.agent_name === 'string' && typeof e.branch === 'string'
      ? { agent_name: e.agent_name, branch: e.branch }
      : null;
  } catch {
    return null;
  }
}
