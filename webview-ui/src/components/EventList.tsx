// The conversation as a virtualized feed: only the rows near the viewport exist in the DOM (so 10k
// events paint as fast as 10), row heights are measured as they render, and the list follows new
// events while the user is at the bottom. The live stream is the last row when present.
// Positioning uses two CSSOM writes (total height, offset of the first rendered row): CSSOM is not
// an inline style attribute in markup, so the CSP needs no 'unsafe-inline'.
import { useCallback, useLayoutEffect, useRef } from 'preact/hooks';
import { estimateHeight } from '../state/classify';
import {
  brokenEvent,
  brokenRow,
  firstSeqHeld,
  keepInView,
  lastSeqHeld,
  rows,
  shownConversation,
  version,
} from '../state/store';
import { send } from '../vscode-api';
import { live } from '../state/stream';
import { timelineSeq } from '../state/timeline';
import { rowAtSeq } from '../state/timeline-rows';
import { useVirtualizer } from '../lib/use-virtualizer';
import { EventRow } from './EventRow';
import { Icon } from './Icon';
import { StreamView } from './StreamView';
import { count, t } from '../lib/text';
import { useChildReveal } from './use-child-reveal';

const STREAM_KEY = 'live-stream';
const EARLIER_KEY = 'earlier-events';

/** The first line of a long conversation held from its newest events on. */
function EarlierButton({ first }: { first: number }) {
  const id = shownConversation();
  return (
    <div class="earlier">
      <button
        type="button"
        class="link-button"
        onClick={() => id !== null && send({ type: 'loadEarlier', conversationId: id, beforeSeq: first })}
      >
        <Icon name="fold-up" />
        {t('showEarlierEvents', count(first))}
      </button>
    </div>
  );
}

export function EventList() {
  void version.value; // re-render when rows change
  const stream = live.value;
  const first = firstSeqHeld();
  const lead = first > 0 ? 1 : 0;
  const count = lead + rows.length + (stream ? 1 : 0);
  const rowAt = (i: number) => (i >= lead ? rows[i - lead] : undefined);
  const scroller = useRef<HTMLDivElement>(null);
  const sizer = useRef<HTMLDivElement>(null);
  const window_ = useRef<HTMLDivElement>(null);

  const v = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (i < lead ? 36 : i - lead < rows.length ? estimateHeight(rows[i - lead]!.view) : 80),
    getItemKey: (i) => (i < lead ? EARLIER_KEY : i - lead < rows.length ? rows[i - lead]!.key : STREAM_KEY),
    // On the timeline a move can land anywhere: fewer rows off screen to build at each landing.
    overscan: timelineSeq.value === null ? 4 : 1,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 32,
  });
  const items = v.getVirtualItems();
  const total = v.getTotalSize();
  const offset = items[0]?.start ?? 0;

  useLayoutEffect(() => {
    sizer.current?.style.setProperty('height', `${total}px`);
    window_.current?.style.setProperty('transform', `translateY(${offset}px)`);
  }, [total, offset]);

  const measure = useCallback((el: HTMLElement | null) => v.measureElement(el), [v]);
  const atEnd = count === 0 || v.isAtEnd(48);

  // Follow the latest event until the reader scrolls away on purpose (wheel, keys, dragging the
  // scrollbar); reaching the end again, or "Jump to latest", resumes following. Layout changes
  // (the approval bar appearing or going, a taller composer) never stop it.
  const following = useRef(true);
  /** The row the timeline shows (its index in the list), or -1 while live. */
  const timelineTarget = useRef(-1);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let userScrolling = false;
    const markUser = () => (userScrolling = true);
    const onScroll = () => {
      if (userScrolling) following.current = v.isAtEnd(48);
      userScrolling = false;
    };
    el.addEventListener('wheel', markUser, { passive: true });
    el.addEventListener('touchmove', markUser, { passive: true });
    el.addEventListener('keydown', markUser);
    el.addEventListener('pointerdown', markUser);
    el.addEventListener('scroll', onScroll, { passive: true });
    const observer =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver(() => {
            if (following.current) v.scrollToEnd();
            // The timeline's panel came or grew after the move: its event stays in view.
            else if (timelineTarget.current >= 0)
              v.scrollToIndex(timelineTarget.current, { align: 'center' });
          });
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      el.removeEventListener('wheel', markUser);
      el.removeEventListener('touchmove', markUser);
      el.removeEventListener('keydown', markUser);
      el.removeEventListener('pointerdown', markUser);
      el.removeEventListener('scroll', onScroll);
    };
  }, [v]);
  useLayoutEffect(() => {
    if (following.current && count > 0) v.scrollToEnd();
  }, [count, total, v]);

  // Earlier events were added above: the row that was first stays at the top of the view.
  const anchorKey = keepInView.value;
  useLayoutEffect(() => {
    if (anchorKey === null) return;
    keepInView.value = null;
    const index = rows.findIndex((r) => r.key === anchorKey);
    if (index < 0) return;
    following.current = false;
    v.scrollToIndex(lead + index, { align: 'start' });
  }, [anchorKey, lead, v]);

  // A conversation found broken: bring its first bad event into view (asking for earlier events
  // until it is held), once per finding.
  const broken = brokenEvent.value;
  const revealed = useRef<string | null>(null);
  const askedBefore = useRef<number | null>(null);
  const held = version.value;
  useLayoutEffect(() => {
    if (!broken) {
      revealed.current = null;
      return;
    }
    const key = `${broken.seq} ${broken.id ?? ''} ${broken.reason}`;
    if (revealed.current === key) return;
    const firstHeld = firstSeqHeld();
    const id = shownConversation();
    if (broken.seq < firstHeld) {
      if (id !== null && askedBefore.current !== firstHeld) {
        askedBefore.current = firstHeld;
        send({ type: 'loadEarlier', conversationId: id, beforeSeq: firstHeld });
      }
      return;
    }
    const { index } = brokenRow(broken);
    if (index < 0) return;
    revealed.current = key;
    following.current = false;
    v.scrollToIndex(lead + index, { align: 'center' });
  }, [broken, held, lead, v]);

  // A delegated agent asked for from the Conversations view: its card comes into view, focused.
  useChildReveal(v, lead, following);

  // The timeline: its event's row comes into view, later rows are dimmed; back to live follows again.
  const at = timelineSeq.value;
  const atRow = at === null ? -1 : rowAtSeq(rows, at);
  const shownAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    const before = shownAt.current;
    shownAt.current = at;
    timelineTarget.current = at !== null && atRow >= 0 ? lead + atRow : -1;
    if (at === null) {
      if (before === null) return;
      following.current = true;
      v.scrollToEnd();
      return;
    }
    following.current = false;
    if (atRow >= 0) v.scrollToIndex(lead + atRow, { align: 'center' });
  }, [at, atRow, lead, v]);

  return (
    <div class="feed-wrap">
      <div
        class="feed"
        ref={scroller}
        role="feed"
        aria-label={t('conversationFeed')}
        aria-busy={stream ? !stream.ended : false}
        tabIndex={0}
        data-last-seq={lastSeqHeld()}
      >
        <div class="feed-sizer" ref={sizer}>
          <div class="feed-window" ref={window_}>
            {items.map((item) => {
              const row = rowAt(item.index);
              return (
                <div
                  class={`vrow${row && at !== null ? (row.seq > at ? ' vrow-later' : item.index - lead === atRow ? ' vrow-at' : '') : ''}`}
                  key={item.key}
                  data-index={item.index}
                  ref={measure}
                >
                  {item.index < lead ? (
                    <EarlierButton first={first} />
                  ) : row ? (
                    <EventRow row={row} rev={row.rev} position={item.index - lead + 1} total={rows.length} />
                  ) : (
                    stream && (
                      <article
                        class="row row-stream"
                        aria-label={t('agentAnswering')}
                        aria-posinset={count}
                        aria-setsize={count}
                      >
                        <StreamView stream={stream} />
                      </article>
                    )
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {!atEnd && (
        <button
          type="button"
          class="jump-latest"
          onClick={() => {
            following.current = true;
            v.scrollToEnd();
          }}
          aria-label={t('jumpToLatest')}
        >
          <Icon name="arrow-down" />
        </button>
      )}
    </div>
  );
}
