// The benchmark's baseline: the same 10,000 events delivered the same way (structured-cloned 1,000 at
// a time), rendered naively: one DOM row per event, plain text only (no markdown, no virtualization).
// It is a lower bound for a non-virtualized panel; a real one would also parse markdown per row.
import type { Page } from 'playwright-core';
import type { ViewEvent } from '../../../src/protocol/messages';

function naiveInPage(arg: { events: unknown[]; chunk: number }) {
  type El = {
    className: string;
    textContent: string | null;
    style: { cssText: string };
    append(...n: unknown[]): void;
    querySelectorAll(s: string): { length: number };
  };
  const g = globalThis as unknown as {
    document: { createElement(t: string): El; body: El; getElementById(id: string): El | null };
    performance: { now(): number };
    requestAnimationFrame(cb: () => void): number;
    MessageChannel: new () => {
      port1: { onmessage: ((e: { data: unknown }) => void) | null };
      port2: { postMessage(m: unknown): void };
    };
  };
  const root = g.document.getElementById('root');
  if (root) root.style.cssText = 'display:none';
  const list = g.document.createElement('div');
  list.className = 'naive';
  list.style.cssText = 'position:fixed;inset:0;overflow:auto;padding:0 12px;font:13px system-ui';
  g.document.body.append(list);
  const text = (e: Record<string, unknown>): string => {
    const content = (e.llm_message as { content?: { text?: string }[] } | undefined)?.content;
    if (content) return content.map((c) => c.text ?? '').join('');
    const obs = e.observation as { content?: { text?: string }[] } | undefined;
    if (obs?.content) return obs.content.map((c) => c.text ?? '').join('');
    const action = e.action as { command?: string } | undefined;
    return `${String(e.summary ?? e.kind)} ${action?.command ?? ''}`;
  };
  return new Promise<{ paintMs: number; rowsInDom: number }>((resolve) => {
    const channel = new g.MessageChannel();
    let received = 0;
    const t0 = g.performance.now();
    channel.port1.onmessage = ({ data }) => {
      const events = data as { seq: number; event: Record<string, unknown> }[];
      for (const { seq, event } of events) {
        const row = g.document.createElement('article');
        row.className = 'naive-row';
        const head = g.document.createElement('div');
        head.textContent = `${seq} · ${String(event.kind)}`;
        const body = g.document.createElement('pre');
        body.style.cssText = 'white-space:pre-wrap;margin:2px 0 8px';
        body.textContent = text(event);
        row.append(head, body);
        list.append(row);
      }
      received += events.length;
      if (received === arg.events.length) {
        // Same end point as the app's measurement: after the next frame's layout and paint.
        g.requestAnimationFrame(() => {
          const after = new g.MessageChannel();
          after.port1.onmessage = () =>
            resolve({
              paintMs: g.performance.now() - t0,
              rowsInDom: list.querySelectorAll('.naive-row').length,
            });
          after.port2.postMessage(0);
        });
      }
    };
    for (let i = 0; i < arg.events.length; i += arg.chunk)
      channel.port2.postMessage(arg.events.slice(i, i + arg.chunk));
  });
}

export async function measureNaivePaint(
  page: Page,
  events: ViewEvent[],
  chunk = 1_000,
): Promise<{ paintMs: number; rowsInDom: number }> {
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate(naiveInPage, { events, chunk });
}
