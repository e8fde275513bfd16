// The scrub bar along the feed: a slider over the conversation's events (seq 0 to the newest). At
// rest it is live (it follows the conversation); moving it shows the conversation as it was right
// after that event. Keys as a slider's: arrows one event, Page Up / Page Down a larger step, Home
// and End the first and the newest event; Escape (or "Back to live") returns to live.
import type { JSX } from 'preact';
import { pointLabel } from '../../lib/event-label';
import { firstSeqHeld, held, lastSeqHeld, pointName, version } from '../../state/store';
import { leaveTimeline, seekTo, timelineSeq } from '../../state/timeline';
import { Icon } from '../Icon';
import { count, t } from '../../lib/text';

/** Page Up / Page Down: a twentieth of the conversation, at least 10 events. */
export function bigStep(last: number): number {
  return Math.max(10, Math.ceil((last + 1) / 20));
}

/** Where a key moves the slider from `value` (null: not a slider key). */
export function keyTarget(key: string, value: number, last: number): number | null {
  const clamp = (n: number) => Math.min(last, Math.max(0, n));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(value - 1);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(value + 1);
    case 'PageDown':
      return clamp(value - bigStep(last));
    case 'PageUp':
      return clamp(value + bigStep(last));
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

function valueText(seq: number, last: number, live: boolean): string {
  const e = held[seq - firstSeqHeld()]?.event;
  const at = count(seq + 1);
  const of = count(last + 1);
  if (e) return t(live ? 'timelineValueLiveWhat' : 'timelineValueWhat', at, of, pointLabel(e, pointName));
  return t(live ? 'timelineValueLive' : 'timelineValue', at, of);
}

export function TimelineBar() {
  void version.value; // the newest event moves the end
  const last = lastSeqHeld();
  const at = timelineSeq.value;
  if (last < 0) return null;
  const live = at === null;
  const value = live ? last : Math.min(at, last);
  const onKey = (e: JSX.TargetedKeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      if (!live) {
        e.preventDefault();
        leaveTimeline();
      }
      return;
    }
    const next = keyTarget(e.key, value, last);
    if (next === null) return;
    // The native slider would move too (by its own Page step): the timeline decides.
    e.preventDefault();
    seekTo(next);
  };
  return (
    <div class={`timeline-bar${live ? '' : ' timeline-on'}`}>
      <Icon name="history" class="timeline-icon" />
      <input
        type="range"
        class="timeline-slider"
        min={0}
        max={last}
        step={1}
        value={value}
        aria-label={t('timelineSlider')}
        aria-valuetext={valueText(value, last, live)}
        onInput={(e) => seekTo(Number(e.currentTarget.value))}
        onKeyDown={onKey}
      />
      {live ? (
        <span class="timeline-pos">{t('live')}</span>
      ) : (
        <>
          <span class="timeline-pos" aria-hidden="true">
            {value + 1}/{last + 1}
          </span>
          <button type="button" class="timeline-live" onClick={leaveTimeline}>
            <Icon name="debug-continue" />
            <span>{t('live')}</span>
          </button>
        </>
      )}
    </div>
  );
}
