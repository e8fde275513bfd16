// What `show` says about lost events: a loss found when the log was opened (segments gone that
// meta.json, the indexes or the snapshots say it had) comes first, with what to do about it, so
// a log that lost everything never reads as a new, idle conversation. Losses the user accepted
// earlier (`logbook repair --accept-lost-events`) stay listed.
import {
  type AcceptedLoss,
  describeLostEvents,
  type EventStore,
  type LostEvents,
  readAcceptedLosses,
} from '../../../core/log';
import { repairHint } from './repair-hint';
import type { StateReport } from './state-report';

export { repairHint };

/** `status` of a conversation with unaccepted lost events: it cannot be continued as it is. */
export const DATA_LOST = 'data_lost';

export interface LostEventsReport {
  count: number;
  /** false: at least `count` */
  exact: boolean;
  ranges: { from: number; to: number }[];
  missing_segments: string[];
  message: string;
  /** the status the events that are left derive */
  log_status: string;
}

export interface AcceptedLossReport {
  count: number;
  exact: boolean;
  ranges: { from: number; to: number }[];
  missing_segments: string[];
  accepted_at: string;
}

export interface LostFields {
  lost_events: LostEventsReport | null;
  accepted_losses: AcceptedLossReport[];
}

/** The report with what the store found lost at open and what lost.json says was accepted. */
export function withLostEvents(
  r: StateReport,
  store: Pick<EventStore, 'lostOnOpen'>,
  dir: string,
): StateReport & LostFields {
  const lost = store.lostOnOpen ?? null;
  return {
    ...r,
    status: lost ? DATA_LOST : r.status,
    lost_events: lost ? lostReport(lost, r.status) : null,
    accepted_losses: readAcceptedLosses(dir).map(acceptedReport),
  };
}

function lostReport(l: LostEvents, logStatus: string): LostEventsReport {
  return {
    count: l.count,
    exact: l.exact,
    ranges: l.ranges.map((x) => ({ from: x.from, to: x.to })),
    missing_segments: [...l.missingSegments],
    message: describeLostEvents(l),
    log_status: logStatus,
  };
}

function acceptedReport(a: AcceptedLoss): AcceptedLossReport {
  return {
    count: a.count,
    exact: a.exact,
    ranges: a.ranges,
    missing_segments: a.missingSegments,
    accepted_at: a.acceptedAt,
  };
}

/** The text lines with the loss in them: right after the status line, which it replaces. */
export function withLostLines(lines: string[], r: StateReport & LostFields): string[] {
  const extra: string[] = [];
  const l = r.lost_events;
  if (l) {
    extra.push(`  status     DATA LOST (the events that are left say ${l.log_status})`);
    extra.push(`  lost       ${l.message}`);
    extra.push(`             ${repairHint(r.dir)}`);
  }
  for (const a of r.accepted_losses) {
    const n = `${a.exact ? '' : 'at least '}${a.count} event(s)`;
    extra.push(`  lost       ${n} lost earlier, accepted ${a.accepted_at}`);
  }
  if (extra.length === 0) return lines;
  const at = lines.findIndex((line) => line.startsWith('  status '));
  if (at < 0) return [...lines, ...extra];
  return [...lines.slice(0, at), ...(l ? extra : [lines[at]!, ...extra]), ...lines.slice(at + 1)];
}
