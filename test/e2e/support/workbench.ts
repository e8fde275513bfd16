// A real VS Code workbench for end-to-end tests: an isolated code-server instance with the
// extension under development, opened in headless Chromium. Every step can be captured as a PNG
// under test-results/e2e/<run>/, a folder the run prints.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startCodeServer, repoRoot, removeRunDir } from '../../../scripts/code-server/instance.mjs';
import { launchBrowser } from '../../../scripts/code-server/browser.mjs';
import { startSampleSession } from '../../../scripts/code-server/sample-session.mjs';
import { startScriptedLlm, type Scenario, type ScriptedLlm } from '../../support/llm-server';

export const EXTENSION_ID = 'logbook.logbook-agent';
const runStamp = new Date().toISOString().replace(/[:.]/g, '-');
export const screenshotRoot = join(repoRoot, 'test-results', 'e2e', runStamp);

export interface WorkbenchOptions {
  /** A scripted model for the run; its URL goes into the user settings. */
  scenario?: Scenario;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  name: string;
  /** Opens what `npm start` opens (a fresh sample workspace and the demo model) in this run folder. */
  sampleRunDir?: string;
  /** Installs the test extension that offers a chat model to VS Code's Language Model API. */
  editorModels?: boolean;
  /**
   * The display language. The workbench's own words stay English (the test language pack has no
   * translations of VS Code's); the language is what extensions see and translate into.
   */
  locale?: 'zh-cn';
}

export interface Workbench {
  page: Page;
  llm: ScriptedLlm | undefined;
  workspaceDir: string;
  /** code-server's user data folder (its workspaceStorage holds the extension's storage folders). */
  userDataDir: string;
  shot(step: string): Promise<string>;
  runCommand(title: string): Promise<void>;
  /** Runs "Logbook: Start Agent Task" and answers its prompt with `task`. */
  startTask(task: string, beforeEnter?: () => Promise<unknown>): Promise<void>;
  /** Shows the Logbook sidebar (after a reload the workbench may open on another view). */
  openLogbookView(): Promise<void>;
  chatFrame(): FrameLocator;
  /** The rows of the Conversations view (not other lists such as terminal tabs) holding `text`. */
  conversationRows(text: string): Locator;
  /** Expands the Conversations view (it starts collapsed, so the chat gets the sidebar's height). */
  showConversations(): Promise<void>;
  /** Right-clicks `target` and chooses `item` from its context menu. */
  contextMenu(target: Locator, item: string): Promise<void>;
  /**
   * Ends the browser tab abruptly and opens the same URL in a new one, as a user coming back does.
   * The server keeps the closed tab's extension host for its reconnection grace, so the new tab gets
   * a second one. `forgetBrowserState`: the new tab starts with none of the browser's storage for
   * the page (what the closed tab's workbench and webviews saved there), as when the crash came
   * before the workbench wrote its state out.
   */
  reopenTab(opts?: { forgetBrowserState?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function openWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const llm = opts.scenario ? await startScriptedLlm({ scenario: opts.scenario }) : undefined;
  const settings = {
    ...(llm ? { 'logbook.model.baseURL': llm.baseUrl, 'logbook.model.name': 'scripted-model' } : {}),
    ...opts.settings,
  };
  let server: Awaited<ReturnType<typeof startCodeServer>> | undefined;
  let sample: Awaited<ReturnType<typeof startSampleSession>> | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  const teardown = async () => {
    await browser?.close();
    await (sample ? sample.stop() : server?.stop());
    if (server) removeRunDir(server.runDir);
    await llm?.close();
  };
  let page: Page;
  let url = '';
  try {
    const env = { LOGBOOK_TEST_MODE: '1', ...opts.env };
    if (opts.sampleRunDir) {
      sample = await startSampleSession({
        runDir: opts.sampleRunDir,
        demo: true,
        env,
        ...(opts.settings ? { settings: opts.settings } : {}),
      });
      server = sample.server;
    } else {
      server = await startCodeServer({
        settings,
        env,
        ...(opts.locale
          ? {
              locale: {
                language: opts.locale,
                translations: join(repoRoot, 'test', 'support', 'language-pack', 'main.i18n.json'),
              },
            }
          : {}),
        installExtensions: opts.editorModels
          ? [join(repoRoot, 'test', 'support', 'editor-model-extension')]
          : [],
      });
    }
    browser = await launchBrowser();
    page = await browser.context.newPage();
    // What npm start prints (Logbook installed, the workspace the server's folder), else the
    // extension under development named in the URL.
    url = sample
      ? sample.url
      : server.url([
          ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
          ['skipWelcome', 'true'],
          // The test chat model needs the `chatProvider` proposed API.
          ...(opts.editorModels ? [['enableProposedApi', ''] as [string, string]] : []),
        ]);
    await openIn(page, url);
  } catch (err) {
    // A run must leave no process behind, even when the workbench never came up.
    await teardown();
    throw err;
  }
  const shotsDir = join(screenshotRoot, opts.name);
  mkdirSync(shotsDir, { recursive: true });
  let step = 0;
  const workspaceDir = server.dirs.ws;
  const context = browser.context;

  const wb: Workbench = {
    page,
    llm,
    workspaceDir,
    userDataDir: server.dirs.udd,
    async shot(name) {
      step += 1;
      const file = join(shotsDir, `${String(step).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: file });
      // A failure on a CI machine leaves only its log: print what the chat said at that moment.
      if (name.startsWith('FAILED')) {
        const text = await wb
          .chatFrame()
          .locator('body')
          .innerText({ timeout: 5_000 })
          .catch((err: unknown) => `(the chat could not be read: ${String(err)})`);
        console.log(`    chat at the failure (last 4000 characters):\n${text.slice(-4000)}`);
      }
      return file;
    },
    async runCommand(title) {
      // Click the exact entry: Enter would run whichever row happens to be focused while the
      // list is still filtering.
      const row = page
        .locator('.quick-input-widget .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
        .first();
      // The palette closes when something else takes the focus as it opens or while it is typed
      // into (a view or editor still restoring, a diff opening): open it again rather than wait
      // on a hidden box or list.
      for (let attempt = 1; ; attempt++) {
        const timeout = attempt < 3 ? 10_000 : 30_000;
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        try {
          await input.waitFor({ state: 'visible', timeout });
          await input.fill(`>${title}`, { timeout });
          await row.waitFor({ state: 'visible', timeout });
          break;
        } catch (err) {
          if (attempt >= 3) throw err;
          await page.keyboard.press('Escape');
        }
      }
      await row.click();
    },
    async startTask(task, beforeEnter) {
      await wb.runCommand('Logbook: Start Agent Task');
      // The palette and the prompt share one widget: wait for the prompt itself, or the text
      // could land in the palette that is still closing.
      const prompt = page.locator('.quick-input-widget', { hasText: 'What should the agent do?' });
      await prompt.waitFor();
      const box = page.locator('.quick-input-widget .quick-input-box input');
      await box.fill(task);
      await beforeEnter?.();
      await box.press('Enter');
      // An accepted prompt closes at once. On a loaded machine an Enter pressed as the prompt
      // settles can be lost (seen: the prompt stayed open holding the task): press it again then.
      for (let attempt = 1; ; attempt++) {
        try {
          await prompt.waitFor({ state: 'hidden', timeout: attempt < 3 ? 5_000 : 30_000 });
          return;
        } catch (err) {
          if (attempt >= 3 || (await box.inputValue().catch(() => '')) !== task) throw err;
          await box.press('Enter');
        }
      }
    },
    async openLogbookView() {
      const tab = page.getByRole('tab', { name: /^Logbook/ });
      await tab.waitFor({ timeout: 60_000 });
      // The workbench restores the last open view on its own after a reload; clicking an already
      // selected container would close the sidebar, so give it a moment and click only if needed.
      const selected = async () => (await tab.getAttribute('aria-selected')) === 'true';
      const deadline = Date.now() + 5_000;
      while (!(await selected()) && Date.now() < deadline) await page.waitForTimeout(250);
      if (!(await selected())) await tab.click();
      await page.locator('.part.sidebar').waitFor({ state: 'visible', timeout: 30_000 });
    },
    chatFrame() {
      return page
        .frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`)
        .frameLocator('iframe#active-frame');
    },
    conversationRows(text) {
      return page
        .locator('.pane')
        .filter({ has: page.locator('.pane-header h3.title', { hasText: /^Conversations$/i }) })
        .locator('.monaco-list-row', { hasText: text });
    },
    async showConversations() {
      const header = page
        .locator('.pane-header')
        .filter({ has: page.locator('h3.title', { hasText: /^Conversations$/i }) });
      await header.waitFor({ timeout: 30_000 });
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      await page
        .locator('.pane-header[aria-expanded="true"]')
        .filter({ has: page.locator('h3.title', { hasText: /^Conversations$/i }) })
        .waitFor({ timeout: 10_000 });
    },
    async contextMenu(target, item) {
      await target.click({ button: 'right' });
      const entry = page.getByRole('menuitem', { name: item });
      await entry.waitFor();
      // A menu ignores a click that comes right after it opened (so the right-click's own release
      // cannot pick an item); click again while it is still open.
      for (let attempt = 0; attempt < 5 && (await entry.isVisible()); attempt++) {
        await entry.click().catch(() => undefined);
        await entry.waitFor({ state: 'hidden', timeout: 1_000 }).catch(() => undefined);
      }
      assert.ok(!(await entry.isVisible()), `the context menu did not take "${item}"`);
    },
    async reopenTab(opts) {
      // A tab that goes away without the workbench's goodbye (the server then keeps its extension
      // host for the reconnection grace): the renderer ends at once, as when a browser is closed
      // with the page's unload cut short. Playwright's own close lets the workbench say goodbye.
      const cdp = await context.newCDPSession(page);
      const crashed = page.waitForEvent('crash', { timeout: 30_000 });
      // The call itself never answers: its renderer is gone.
      void cdp.send('Page.crash').catch(() => undefined);
      await crashed;
      await page.close();
      page = await context.newPage();
      wb.page = page;
      if (opts?.forgetBrowserState) {
        const fresh = await context.newCDPSession(page);
        await fresh.send('Storage.clearDataForOrigin', {
          origin: new URL(url).origin,
          storageTypes: 'indexeddb,local_storage,cache_storage,service_workers',
        });
        await fresh.detach();
      }
      await openIn(page, url);
    },
    async close() {
      await teardown();
    },
  };
  return wb;
}

async function openIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  // The activity bar entry appears once the extension's contributions are registered.
  await page.waitForSelector('.activitybar [aria-label^="Logbook"]', { timeout: 60_000 });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Picks a colour theme by its name in "Preferences: Color Theme", then lets the workbench repaint. */
export async function setTheme(wb: Workbench, theme: string): Promise<void> {
  await wb.runCommand('Preferences: Color Theme');
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(theme);
  const row = wb.page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^${theme}$`) }) })
    .first();
  await row.waitFor({ state: 'visible' });
  await row.click();
  await wb.page.waitForTimeout(800);
}

/** Drags the sidebar's edge until the sidebar is `width` px wide. */
export async function setSidebarWidth(wb: Workbench, width: number): Promise<void> {
  const sidebar = await wb.page.locator('.part.sidebar').boundingBox();
  assert.ok(sidebar, 'the sidebar is shown');
  const edge = sidebar.x + sidebar.width;
  const y = sidebar.y + sidebar.height / 2;
  await wb.page.mouse.move(edge, y);
  await wb.page.mouse.down();
  await wb.page.mouse.move(edge + 20, y, { steps: 4 });
  await wb.page.mouse.move(sidebar.x + width, y, { steps: 8 });
  await wb.page.mouse.up();
}
