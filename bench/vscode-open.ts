// O2 of the open benchmark: an imported conversation opened in the real VS Code (code-server and
// headless Chromium, as the host and e2e tests run it), timed from choosing it in "Logbook: Open
// Conversation" until the chat webview shows its newest event. Each run starts a fresh code-server
// and Chromium, with only the conversation under test in the extension's storage.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { chromiumPath, launchBrowser } from '../scripts/code-server/browser.mjs';
import { isInstalled } from '../scripts/code-server/install.mjs';
import { repoRoot, startCodeServer } from '../scripts/code-server/instance.mjs';
import { eventFileName } from '../src/core/log';
import { importWithCli, lastRowSeq } from './imported-conversation';

const EXTENSION_ID = 'logbook.logbook-agent';
const RUNS = 5;
/** Opens without snapshots replay 100k events each: fewer runs. */
const BARE_RUNS = 3;

export interface VsCodeOpens {
  /** Every run of the imported conversation, of the same without snapshots, of the small fixture. */
  imported: OpenRun[];
  bare: OpenRun[];
  small: OpenRun[];
  smallCount: number;
}

export function vscodeAvailable(): boolean {
  try {
    chromiumPath();
    return isInstalled();
  } catch {
    return false;
  }
}

interface Variant {
  name: 'imported' | 'bare' | 'small';
  store: string;
  lastRowSeq: number;
}

export async function measureVsCodeOpens(opts: {
  work: string;
  cli: string;
  store: string;
  /** The same conversation without its snapshots; none: not measured. */
  bare?: string;
  lastRowSeq: number;
  log: (s: string) => void;
  runs?: number;
}): Promise<VsCodeOpens> {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the extension did not build');
  const small = importFixture(opts.work, opts.cli);

  const variants: Variant[] = [
    { name: 'imported', store: opts.store, lastRowSeq: opts.lastRowSeq },
    ...(opts.bare ? [{ name: 'bare' as const, store: opts.bare, lastRowSeq: opts.lastRowSeq }] : []),
    { name: 'small', store: small.store, lastRowSeq: small.lastRowSeq },
  ];
  const out: VsCodeOpens = { imported: [], bare: [], small: [], smallCount: small.count };
  // Interleaved, so that the machine's load hits every kind of run alike.
  for (let r = 0; r < (opts.runs ?? RUNS); r++) {
    for (const v of variants) {
      if (v.name === 'bare' && r >= BARE_RUNS) continue;
      const run = await timedOpen(opts.work, v);
      opts.log(
        `O2 run ${r + 1}: ${v.name} ${JSON.stringify(run, (_, x: unknown) => (typeof x === 'number' ? Math.round(x) : x))}`,
      );
      out[v.name].push(run);
    }
  }
  return out;
}

/** The real OpenHands fixture (test/fixtures/openhands), imported with the CLI. */
function importFixture(work: string, cli: string): { store: string; count: number; lastRowSeq: number } {
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'openhands');
  const oh = path.join(work, 'fixture-openhands');
  fs.mkdirSync(path.join(oh, 'events'), { recursive: true });
  fs.copyFileSync(path.join(fixtures, 'base_state.json'), path.join(oh, 'base_state.json'));
  const lines = fs
    .readFileSync(path.join(fixtures, 'real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const events = lines.map((l) => JSON.parse(l) as { id: string; kind: string });
  events.forEach((e, i) => fs.writeFileSync(path.join(oh, 'events', eventFileName(i, e.id)), lines[i]!));
  const store = path.join(work, 'fixture-imported');
  importWithCli(cli, oh, store);
  return { store, count: events.length, lastRowSeq: lastRowSeq(events.map((e) => e.kind)) };
}

/**
 * One run: a fresh code-server (its own run folder) and Chromium; the conversation copied into the
 * workspace storage before the extension activates, so it finds it when it builds its index; the
 * Logbook sidebar opened; then the timed open.
 */
async function timedOpen(work: string, v: Variant): Promise<OpenRun> {
  const runDir = fs.mkdtempSync(path.join(work, 'cs-'));
  const server = await startCodeServer({ runDir, env: { LOGBOOK_TEST_MODE: '1' } });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(
      server.url([
        ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
        ['skipWelcome', 'true'],
      ]),
    );
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    const storage = await workspaceStorage(runDir);
    const root = path.join(storage, EXTENSION_ID, 'conversations');
    if (fs.existsSync(root)) throw new Error('the extension activated before the conversation was in place');
    fs.mkdirSync(root, { recursive: true });
    fs.cpSync(v.store, path.join(root, randomUUID()), { recursive: true });

    const tab = page.getByRole('tab', { name: /^Logbook/ });
    await tab.waitFor({ timeout: 60_000 });
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    await chatFrame(page).getByText('Give the agent a task').waitFor({ timeout: 60_000 });

    await runCommand(page, 'Logbook: Open Conversation');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await rows.first().waitFor({ state: 'visible' });
    if ((await rows.count()) !== 1) throw new Error('expected the one conversation in the list');
    const newest = chatFrame(page).locator(`article[data-seq="${v.lastRowSeq}"]`);
    const chat = await chatDocument(page);
    await chat.evaluate(WATCH_MESSAGES);
    const t0 = performance.now();
    await page.keyboard.press('Enter');
    await newest.waitFor({ state: 'visible', timeout: 120_000 });
    const ms = performance.now() - t0;
    const marks = (await chat.evaluate('window.logbookBench')) as ChatMarks;
    return { ms, ...marks };
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** When the chat webview received what (ms after the user chose the conversation, its own clock). */
export interface ChatMarks {
  /** the 'conversation' message: the host opened the log and sent its header */
  header: number | null;
  /** the first and the last 'events' message of the window */
  firstEvents: number | null;
  lastEvents: number | null;
}

export interface OpenRun extends ChatMarks {
  /** from choosing the conversation until the newest event's row is visible */
  ms: number;
}

/**
 * The chat webview's inner document (the one showing the empty state; the last such frame, as a
 * webview can keep the document it replaced for a moment).
 */
async function chatDocument(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  for (const f of page.frames()) {
    if (await f.evaluate(`document.querySelector('.empty') !== null`).catch(() => false)) found = f;
  }
  if (!found) throw new Error('the chat webview was not found');
  return found;
}

/**
 * Runs in the chat webview (plain JS: this project type-checks without the DOM): notes when the
 * host's messages arrive, before the webview handles them, into `window.logbookBench`.
 */
const WATCH_MESSAGES = `(() => {
  const t0 = performance.now();
  const marks = { header: null, firstEvents: null, lastEvents: null };
  window.logbookBench = marks;
  window.addEventListener('message', (e) => {
    const at = performance.now() - t0;
    const type = e.data && e.data.type;
    if (type === 'conversation' && marks.header === null) marks.header = at;
    if (type === 'events') {
      if (marks.firstEvents === null) marks.firstEvents = at;
      marks.lastEvents = at;
    }
  }, true);
})()`;

/** The workspace storage folder the workbench made for this run (its name hashes the folder's inode). */
async function workspaceStorage(runDir: string): Promise<string> {
  const dir = path.join(runDir, 'udd', 'User', 'workspaceStorage');
  const end = Date.now() + 60_000;
  for (;;) {
    const found = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    if (found.length === 1) return path.join(dir, found[0]!);
    if (found.length > 1 || Date.now() > end)
      throw new Error(`expected one folder in ${dir}: ${found.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function chatFrame(page: Page) {
  return page
    .frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`)
    .frameLocator('iframe#active-frame');
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: title }) })
    .first();
  await row.waitFor({ state: 'visible' });
  await row.click();
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'Logbook: Open Conversation' })
    .waitFor();
}
