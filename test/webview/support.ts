// Shared setup of the browser tests: one harness server and one headless Chromium per test file,
// a fresh page per test, and helpers to talk to the panel as the extension would.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/code-server/browser.mjs';
import type { HostMessage, ViewEvent, WebviewMessage } from '../../src/protocol/messages';
import { CONVERSATION_ID, makeHeader } from './harness/events';
import { type HarnessServer, startHarnessServer } from './harness/server';

export const ROOT = join(__dirname, '..', '..');
export const SHOTS = join(ROOT, 'test-results', 'webview');

export interface Harness {
  server: HarnessServer;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function startHarness(viewport = { width: 420, height: 800 }): Promise<Harness> {
  if (!existsSync(join(ROOT, 'dist', 'webview.js')))
    throw new Error('dist/webview.js is missing: run `npm run build` first');
  mkdirSync(SHOTS, { recursive: true });
  const server = await startHarnessServer();
  const browser = await launchBrowser({ viewport });
  return {
    server,
    context: browser.context,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

export class Panel {
  readonly errors: string[] = [];
  readonly console: string[] = [];
  readonly dialogs: string[] = [];

  constructor(readonly page: Page) {
    page.on('pageerror', (e) => this.errors.push(String(e)));
    page.on('console', (m) => this.console.push(`${m.type()}: ${m.text()}`));
    page.on('dialog', (d) => {
      this.dialogs.push(d.message());
      void d.dismiss();
    });
  }

  static async open(
    h: Harness,
    opts: { theme?: string; surface?: 'sidebar' | 'editor'; demoTasks?: readonly string[] } = {},
  ): Promise<Panel> {
    const page = await h.context.newPage();
    const panel = new Panel(page);
    await page.goto(h.server.pageUrl(opts));
    await panel.waitForReady();
    return panel;
  }

  /** Waits for the app's first message (`ready`). Predicates are functions: string ones need eval. */
  async waitForReady(): Promise<void> {
    await this.page.waitForFunction(
      () => ((globalThis as unknown as Partial<Harnessed>).__harness?.posted.length ?? 0) > 0,
    );
  }

  async state(): Promise<SavedState | null> {
    return (await this.page.evaluate(() =>
      (globalThis as unknown as Harnessed).__harness.state(),
    )) as SavedState | null;
  }

  /** Waits until the saved state satisfies `check` (the app saves it after a short debounce). */
  async waitForState(
    check: (state: SavedState | null) => boolean,
    timeoutMs = 5_000,
  ): Promise<SavedState | null> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const state = await this.state();
      if (check(state)) return state;
      if (Date.now() > until)
        throw new Error(`saved state never matched: ${JSON.stringify(state)?.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Delivers a message as the extension would (through window 'message' events). */
  async host(msg: HostMessage | unknown): Promise<void> {
    await this.page.evaluate(
      (m) => (globalThis as unknown as Harnessed).__harness.dispatch(m),
      msg as object,
    );
  }

  async showConversation(events: ViewEvent[], header = makeHeader()): Promise<void> {
    await this.host({ type: 'conversation', header });
    for (let i = 0; i < events.length; i += 1000)
      await this.host({ type: 'events', conversationId: header.id, events: events.slice(i, i + 1000) });
    await this.settle();
  }

  async posted(): Promise<WebviewMessage[]> {
    return this.page.evaluate(() => (globalThis as unknown as Harnessed).__harness.posted.slice());
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => (globalThis as unknown as Harnessed).__harness.clearPosted());
  }

  async cspViolations(): Promise<unknown[]> {
    return this.page.evaluate(() => (globalThis as unknown as Harnessed).__harness.csp.slice());
  }

  /** Waits until rendering (and the frame after it) has happened. */
  async settle(): Promise<void> {
    await this.page.evaluate(
      () =>
        new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))),
    );
  }

  row(kind: string) {
    return this.page.locator(`article.row[data-kind="${kind}"]`);
  }
}

export interface SavedState {
  conversationId: string | null;
  lastSeq: number;
  events: ViewEvent[];
  draft: string;
}

/** The harness globals, typed for page.evaluate callbacks (the test tsconfig has no DOM types). */
export interface Harnessed {
  __harness: {
    posted: WebviewMessage[];
    csp: unknown[];
    dispatch(msg: unknown): void;
    state(): unknown;
    clearPosted(): void;
  };
  __xss?: unknown;
}

declare function requestAnimationFrame(cb: () => void): number;

export { CONVERSATION_ID };
