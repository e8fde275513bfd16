// In-page timings shared by the 10k-event test and scripts/bench-webview.mjs. Messages are delivered
// with window.postMessage, one per chunk as the extension sends them, so structured cloning, parsing
// and each task boundary are inside the measurement, as in VS Code.
import type { Page } from 'playwright-core';
import type { ConversationHeader, ViewEvent } from '../../../src/protocol/messages';

export interface PaintResult {
  /** From the first postMessage to the animation frame after the rows are in the DOM. */
  paintMs: number;
  rowsInDom: number;
}

export interface ScrollResult {
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  /** Frames longer than 1.5 × 16.7 ms (one missed vsync or more). */
  jankFrames: number;
  rowsMax: number;
}

/** The page side: a function source run with page.evaluate (never as a page script: the CSP forbids eval). */
function paintInPage(arg: { header: unknown; events: unknown[]; chunk: number; selector: string }) {
  const g = globalThis as unknown as {
    postMessage(m: unknown, o: string): void;
    performance: { now(): number };
    requestAnimationFrame(cb: () => void): number;
    document: { querySelectorAll(s: string): { length: number } };
    MessageChannel: new () => {
      port1: { onmessage: (() => void) | null };
      port2: { postMessage(m: unknown): void };
    };
  };
  return new Promise<{ paintMs: number; rowsInDom: number }>((resolve) => {
    const t0 = g.performance.now();
    g.postMessage({ type: 'conversation', header: arg.header }, '*');
    for (let i = 0; i < arg.events.length; i += arg.chunk)
      g.postMessage(
        {
          type: 'events',
          conversationId: (arg.header as { id: string }).id,
          events: arg.events.slice(i, i + arg.chunk),
        },
        '*',
      );
    const last = (arg.events.at(-1) as { seq: number }).seq;
    // Done in the first frame where the feed holds the last event and rows are in the DOM; the time is
    // taken after that frame's layout and paint (a task queued from its animation-frame callback).
    const check = () => {
      const rows = g.document.querySelectorAll(arg.selector).length;
      if (rows > 0 && g.document.querySelectorAll(`.feed[data-last-seq="${last}"]`).length > 0) {
        const ch = new g.MessageChannel();
        ch.port1.onmessage = () => resolve({ paintMs: g.performance.now() - t0, rowsInDom: rows });
        ch.port2.postMessage(0);
      } else g.requestAnimationFrame(check);
    };
    g.requestAnimationFrame(check);
  });
}

/** tsx keeps function names with an `__name(fn)` helper that the page lacks; give it an identity one. */
async function withNameHelper(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name ??= (f) => f');
}

export async function measurePaint(
  page: Page,
  header: ConversationHeader,
  events: ViewEvent[],
  chunk = 1_000,
): Promise<PaintResult> {
  await withNameHelper(page);
  return page.evaluate(paintInPage, { header, events, chunk, selector: 'article.row' });
}

function scrollInPage(arg: { selector: string; step: number; frames: number; rowSelector: string }) {
  const g = globalThis as unknown as {
    performance: { now(): number };
    requestAnimationFrame(cb: (t: number) => void): number;
    document: {
      querySelector(s: string): { scrollTop: number; scrollHeight: number; clientHeight: number } | null;
      querySelectorAll(s: string): { length: number };
    };
  };
  return new Promise<{ deltas: number[]; rowsMax: number }>((resolve) => {
    const el = g.document.querySelector(arg.selector)!;
    const deltas: number[] = [];
    let rowsMax = 0;
    let prev = -1;
    let dir = -1;
    let n = 0;
    const frame = (t: number) => {
      if (prev >= 0) deltas.push(t - prev);
      prev = t;
      rowsMax = Math.max(rowsMax, g.document.querySelectorAll(arg.rowSelector).length);
      if (n++ >= arg.frames) return resolve({ deltas, rowsMax });
      // Bounce between the ends so every frame scrolls.
      if (el.scrollTop <= 0) dir = 1;
      else if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) dir = -1;
      el.scrollTop += dir * arg.step;
      g.requestAnimationFrame(frame);
    };
    g.requestAnimationFrame(frame);
  });
}

export async function measureScroll(
  page: Page,
  selector: string,
  rowSelector: string,
  step = 120,
  frames = 240,
): Promise<ScrollResult> {
  await withNameHelper(page);
  const { deltas, rowsMax } = await page.evaluate(scrollInPage, { selector, step, frames, rowSelector });
  const sorted = [...deltas].sort((a, b) => a - b);
  const mean = deltas.reduce((s, d) => s + d, 0) / Math.max(1, deltas.length);
  return {
    frames: deltas.length,
    meanMs: mean,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    maxMs: sorted.at(-1) ?? 0,
    jankFrames: deltas.filter((d) => d > 25).length,
    rowsMax,
  };
}

export interface TimelineResult {
  /** Per position: from moving the slider to the frame after the panel and the feed show it. */
  positionsMs: number[];
  medianMs: number;
  p95Ms: number;
}

/**
 * The page side of a timeline move: the slider is set as a drag sets it (an `input` event), the
 * host's answer is posted as soon as the view asks (what the extension sends, built from
 * `template`), and the time runs until the first frame in which the panel shows that event and
 * the feed marks its row, after that frame's layout and paint.
 */
function timelineInPage(arg: { seqs: number[]; template: Record<string, unknown> }) {
  type El = { value: string; dispatchEvent(e: unknown): boolean; getAttribute(n: string): string | null };
  const g = globalThis as unknown as {
    postMessage(m: unknown, o: string): void;
    performance: { now(): number };
    requestAnimationFrame(cb: () => void): number;
    Event: new (type: string, init: { bubbles: boolean }) => unknown;
    document: { querySelector(s: string): El | null };
    MessageChannel: new () => {
      port1: { onmessage: (() => void) | null };
      port2: { postMessage(m: unknown): void };
    };
    __harness: { posted: { type: string; requestId?: number; seq?: number; conversationId?: string }[] };
  };
  const one = (seq: number) =>
    new Promise<number>((resolve) => {
      const slider = g.document.querySelector('.timeline-slider')!;
      const t0 = g.performance.now();
      slider.value = String(seq);
      slider.dispatchEvent(new g.Event('input', { bubbles: true }));
      const ask = g.__harness.posted.at(-1)!;
      g.postMessage(
        {
          type: 'timelinePoint',
          conversationId: ask.conversationId,
          requestId: ask.requestId,
          point: { ...arg.template, seq },
        },
        '*',
      );
      const check = () => {
        const panel = g.document.querySelector('.timeline-panel');
        const shown =
          panel?.getAttribute('data-seq') === String(seq) && !!g.document.querySelector('.timeline-state');
        if (shown && g.document.querySelector('.vrow-at')) {
          const ch = new g.MessageChannel();
          ch.port1.onmessage = () => resolve(g.performance.now() - t0);
          ch.port2.postMessage(0);
        } else g.requestAnimationFrame(check);
      };
      g.requestAnimationFrame(check);
    });
  return (async () => {
    const out: number[] = [];
    for (const seq of arg.seqs) out.push(await one(seq));
    return out;
  })();
}

/** Moves the timeline to each of `seqs` in turn (the conversation shown already); times each move. */
export async function measureTimeline(
  page: Page,
  seqs: number[],
  template: Record<string, unknown>,
): Promise<TimelineResult> {
  await withNameHelper(page);
  const positionsMs = await page.evaluate(timelineInPage, { seqs, template });
  const sorted = [...positionsMs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return {
    positionsMs,
    medianMs: sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
  };
}

/** Positions spread over a conversation of `count` events, in a jumpy but fixed order. */
export function timelinePositions(count: number, n = 40): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Math.floor(((i * 7919) % n) * (count / n)) % count);
  return out;
}

/** A point as the host sends it: a plan and files, so the panel renders what a real one holds. */
export function timelineTemplate(lastSeq: number): Record<string, unknown> {
  return {
    eventId: '00000000-0000-4000-8000-000000000001',
    timestamp: '2026-06-16T05:39:00.000Z',
    lastSeq,
    status: 'running',
    mode: 'act',
    promptTokens: 71_474,
    completionTokens: 1_155,
    cost: 0.0421,
    plan: Array.from({ length: 5 }, (_, i) => ({
      title: `Step ${i + 1} of the plan`,
      status: i < 2 ? 'done' : 'todo',
    })),
    files: Array.from({ length: 20 }, (_, i) => ({
      path: `src/module-${i}/file-${i}.ts`,
      status: i % 3 ? 'M' : 'A',
    })),
    filesNotShown: 0,
    filesNote: '20 files changed since the first checkpoint',
  };
}

/**
 * The baseline of a timeline move, in the same page: the feed alone jumps to where the same events
 * are (its scroll position set in proportion), timed to the first frame after the rows there are
 * in the DOM. What any view pays to bring far rows in, without the timeline's own work.
 */
function feedJumpInPage(arg: { fractions: number[] }) {
  type Feed = { scrollTop: number; scrollHeight: number; clientHeight: number };
  const g = globalThis as unknown as {
    performance: { now(): number };
    requestAnimationFrame(cb: () => void): number;
    document: {
      querySelector(s: string): Feed | null;
      querySelectorAll(s: string): {
        length: number;
        [i: number]: { getAttribute(n: string): string | null };
      };
    };
    MessageChannel: new () => {
      port1: { onmessage: (() => void) | null };
      port2: { postMessage(m: unknown): void };
    };
  };
  const firstRow = () => g.document.querySelectorAll('article.row')[0]?.getAttribute('data-seq') ?? null;
  const one = (fraction: number) =>
    new Promise<number>((resolve) => {
      const feed = g.document.querySelector('.feed')!;
      const before = firstRow();
      const t0 = g.performance.now();
      feed.scrollTop = Math.round(fraction * (feed.scrollHeight - feed.clientHeight));
      const check = () => {
        if (firstRow() !== before) {
          const ch = new g.MessageChannel();
          ch.port1.onmessage = () => resolve(g.performance.now() - t0);
          ch.port2.postMessage(0);
        } else g.requestAnimationFrame(check);
      };
      g.requestAnimationFrame(check);
    });
  return (async () => {
    const out: number[] = [];
    for (const f of arg.fractions) out.push(await one(f));
    return out;
  })();
}

/** The feed jumping to the same places as `seqs` in a conversation of `count` events (see above). */
export async function measureFeedJump(page: Page, seqs: number[], count: number): Promise<TimelineResult> {
  await withNameHelper(page);
  const positionsMs = await page.evaluate(feedJumpInPage, {
    fractions: seqs.map((s) => s / Math.max(1, count - 1)),
  });
  const sorted = [...positionsMs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return {
    positionsMs,
    medianMs: sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
  };
}
