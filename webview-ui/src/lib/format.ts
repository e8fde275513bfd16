// Numbers and labels as a person reads them.

export { formatTokens } from '../../../src/protocol/token-count';

export { formatCost, plural } from '../../../src/core/format/counts';

export interface StatusLook {
  label: string;
  icon: string;
  tone: 'neutral' | 'busy' | 'warn' | 'error' | 'ok';
}

const STATUS: Record<string, StatusLook> = {
  idle: { label: 'Idle', icon: 'circle-large-outline', tone: 'neutral' },
  running: { label: 'Running', icon: 'loading', tone: 'busy' },
  paused: { label: 'Paused', icon: 'debug-pause', tone: 'warn' },
  waiting_for_confirmation: { label: 'Waiting for approval', icon: 'shield', tone: 'warn' },
  finished: { label: 'Finished', icon: 'pass', tone: 'ok' },
  error: { label: 'Error', icon: 'error', tone: 'error' },
  stuck: { label: 'Stuck', icon: 'warning', tone: 'error' },
};

export function statusLook(status: string): StatusLook {
  return (
    STATUS[status] ?? {
      label: status.replace(/_/g, ' ') || 'Unknown',
      icon: 'circle-large-outline',
      tone: 'neutral',
    }
  );
}

/** One formatter for every time shown: toLocaleTimeString builds a new one per call, a few ms each. */
let timeFormat: Intl.DateTimeFormat | undefined;

/** Local time of an ISO timestamp (OpenHands writes zone-less local times), or '' if unreadable. */
export function formatTime(ts: unknown): string {
  if (typeof ts !== 'string') return '';
  const d = new Date(ts);
  timeFormat ??= new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
  return Number.isNaN(d.getTime()) ? '' : timeFormat.format(d);
}
