// Numbers and labels as a person reads them.

export { formatTokens } from '../../../src/protocol/token-count';

export { formatCost, plural } from '../../../src/core/format/counts';
import { t } from './text';

export interface StatusLook {
  label: string;
  icon: string;
  tone: 'neutral' | 'busy' | 'warn' | 'error' | 'ok';
}

const STATUS: Record<string, StatusLook> = {
  idle: { label: t('statusIdle'), icon: 'circle-large-outline', tone: 'neutral' },
  running: { label: t('statusRunning'), icon: 'loading', tone: 'busy' },
  paused: { label: t('statusPaused'), icon: 'debug-pause', tone: 'warn' },
  waiting_for_confirmation: { label: t('statusWaiting'), icon: 'shield', tone: 'warn' },
  finished: { label: t('statusFinished'), icon: 'pass', tone: 'ok' },
  error: { label: t('statusError'), icon: 'error', tone: 'error' },
  stuck: { label: t('statusStuck'), icon: 'warning', tone: 'error' },
  // A delegated agent's end: stopped by the user, or ended early with a result for its parent.
  stopped: { label: t('statusStopped'), icon: 'debug-stop', tone: 'neutral' },
  escalated: { label: t('statusEscalated'), icon: 'arrow-up', tone: 'warn' },
};

export function statusLook(status: string): StatusLook {
  return (
    STATUS[status] ?? {
      label: status.replace(/_/g, ' ') || t('statusUnknown'),
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
