// How a conversation reads in the Conversations view, where a 300 px sidebar shows about 35
// characters: what tells two rows apart (when it last changed, its status) comes first, the title
// after it, so two tasks with the same title are told apart without a hover.
// No `vscode` import: the wording is checked by unit tests.

export interface RowFacts {
  title: string | undefined;
  /** ISO time of its last event. */
  updated: string | undefined;
  status: string;
  interrupted?: string | undefined;
}

const STATUS_WORDS: Record<string, string> = {
  running: 'running',
  waiting_for_confirmation: 'waiting for approval',
  paused: 'paused',
  finished: 'finished',
  error: 'error',
  stuck: 'stuck',
  idle: 'idle',
};

/** "14:05": today; "Nov 25 14:05": earlier this year; "2025-11-25": another year. */
export function shortWhen(iso: string | undefined, now: Date): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  if (d.toDateString() === now.toDateString()) return time;
  if (d.getFullYear() === now.getFullYear())
    return `${d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} ${time}`;
  return d.toISOString().slice(0, 10);
}

/** The row's label (time, status, then the title) and its description (the title's rest is in the tooltip). */
export function conversationRow(c: RowFacts, now: Date): { label: string; status: string } {
  const status = `${STATUS_WORDS[c.status] ?? c.status.replace(/_/g, ' ')}${c.interrupted ? ', interrupted' : ''}`;
  const when = shortWhen(c.updated, now);
  const title = c.title?.trim() || 'New conversation';
  return { label: `${when ? `${when} · ` : ''}${status} · ${title}`, status };
}
