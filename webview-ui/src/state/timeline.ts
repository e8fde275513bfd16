// The timeline's view state: where the scrub bar is (null: live, following the conversation), the
// host's answer for the newest position asked, and the replay card. The host computes every point;
// the view only asks for positions and shows what comes back for the newest request.
import { signal } from '@preact/signals';
import type { ReplayReport, TimelinePoint } from '../../../src/protocol/messages';
import { send } from '../vscode-api';
import { shownConversation } from './store';
import { t } from '../lib/text';

/** The event the timeline shows (its seq), or null while the chat is live. */
export const timelineSeq = signal<number | null>(null);
/** The host's answer for the newest position asked; stays while a newer one is on its way. */
export const timelinePoint = signal<TimelinePoint | null>(null);
export const timelineError = signal<string | null>(null);
/** True from a move until the answer for it arrives. */
export const timelineWaiting = signal(false);
/** The replay card: running (no report yet) or its report; null when none is shown. */
export const replayCard = signal<{ report: ReplayReport | null } | null>(null);

let requestId = 0;

/** Moves the timeline to the event at `seq` and asks the host for the conversation there. */
export function seekTo(seq: number): void {
  const id = shownConversation();
  if (id === null || !Number.isInteger(seq) || seq < 0) return;
  if (timelineSeq.value === seq && (timelinePoint.value?.seq === seq || timelineWaiting.value)) return;
  timelineSeq.value = seq;
  timelineWaiting.value = true;
  requestId++;
  send({ type: 'timelineSeek', conversationId: id, requestId, seq });
}

/** Back to live: the feed follows the conversation again. */
export function leaveTimeline(): void {
  requestId++; // an answer still on its way is for a position no longer shown
  timelineSeq.value = null;
  timelinePoint.value = null;
  timelineError.value = null;
  timelineWaiting.value = false;
}

/** The host's answer: only the newest request's is shown. */
export function receivePoint(
  conversationId: string,
  id: number,
  point: TimelinePoint | null,
  error: string | undefined,
): void {
  if (conversationId !== shownConversation() || id !== requestId || timelineSeq.value === null) return;
  timelineWaiting.value = false;
  if (point) {
    timelinePoint.value = point;
    timelineError.value = null;
  } else timelineError.value = error ?? t('timelineStateUnreadable');
}

export function receiveReplay(conversationId: string, report: ReplayReport | undefined): void {
  if (conversationId !== shownConversation()) return;
  replayCard.value = { report: report ?? null };
}

/** Another conversation is shown: nothing of the timeline or the replay carries over. */
export function resetTimeline(): void {
  leaveTimeline();
  replayCard.value = null;
}
