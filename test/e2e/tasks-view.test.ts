// The Tasks view and the Conversations view at the sidebar's narrow default (300 px): each task's
// row (name, status, files changed) and its conversation's row (title, branch) in view, in Light,
// Dark and High Contrast. The tasks are run as a user runs them (`logbook run --worktree` against
// the scripted model), so each has a conversation log and a status its finished run gives it.
// Screenshots go under test-results/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryAt, TaskStore } from '../../src/host/node/worktrees/task-store';
import { startScriptedLlm, type Scenario } from '../support/llm-server';
import { printed, runCli } from '../unit/cli/cli-runner';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';
import type { Locator } from 'playwright-core';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];
const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const TASKS = [
  ['fix-login-test', 'Fix the failing login test'],
  ['rename-config-loader', 'Rename the config loader and update its callers'],
  ['add-retry', 'Add a retry to the HTTP client'],
] as const;

/** A task's run: it edits app.txt, writes a note named after the task, and finishes. */
function taskScenario(name: string, task: string): Scenario {
  const edit = (id: string, args: Record<string, string>) => ({
    id,
    name: 'file_editor',
    arguments: { ...args, security_risk: 'LOW', summary: `edit for ${name}` },
  });
  return {
    name: `tasks-view-${name}`,
    turns: [
      {
        match: { lastRole: 'user' },
        reply: {
          toolCalls: [
            edit('call_edit', {
              command: 'str_replace',
              path: 'app.txt',
              old_str: 'line 2\n',
              new_str: `line 2 by ${name}\n`,
            }),
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: {
          toolCalls: [edit('call_note', { command: 'create', path: `${name}.md`, file_text: `${task}\n` })],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  };
}

/** What the checks below read of an element in the page (the tests compile without the DOM's types). */
interface Rect {
  left: number;
  right: number;
  width: number;
}
interface Box {
  parentElement: Box | null;
  getBoundingClientRect(): Rect;
  cloneNode(deep: boolean): Box;
  remove(): void;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  style: Record<string, string>;
  ownerDocument: {
    body: { append(node: Box): void };
    defaultView: {
      getComputedStyle(node: Box): {
        overflowX: string;
        textOverflow: string;
        font: string;
        letterSpacing: string;
      };
    };
  };
}

/**
 * The text `el` holds is laid out whole inside every box that clips it (the row, the view, the
 * sidebar): an ellipsis or a clipped edge cuts it. Text laid out past a clip is what is cut, and so
 * is text that reaches into the room an ellipsis takes where the line goes on past its box (the
 * "…" is drawn over the text's last characters, even when a description is what overflows).
 */
async function assertWhole(el: Locator, what: string): Promise<void> {
  const cut = await el.evaluate((element) => {
    const node = element as unknown as Box;
    const view = node.ownerDocument.defaultView;
    // The text's own layout ends at an ellipsis, so it (and a "…") is measured in a copy laid out
    // on its own. (No named helper: the page would not know the name-keeping wrapper it compiles to.)
    const { font, letterSpacing } = view.getComputedStyle(node);
    const [width = 0, ellipsis = 0] = [node.textContent, '…'].map((text) => {
      const probe = node.cloneNode(false);
      Object.assign(probe.style, {
        position: 'fixed',
        visibility: 'hidden',
        whiteSpace: 'pre',
        font,
        letterSpacing,
      });
      probe.textContent = text;
      node.ownerDocument.body.append(probe);
      const measured = probe.getBoundingClientRect().width;
      probe.remove();
      return measured;
    });
    if (width === 0) return 'not shown';
    const right = node.getBoundingClientRect().left + width;
    for (let box: Box | null = node; box; box = box.parentElement) {
      const style = view.getComputedStyle(box);
      if (style.overflowX === 'visible') continue;
      const clip = box.getBoundingClientRect().right;
      const shortened = style.textOverflow === 'ellipsis' && box.scrollWidth > box.clientWidth;
      if (right > clip + 0.5 - (shortened ? ellipsis : 0))
        return `cut at ${Math.round(clip)} px (the text ends at ${Math.round(right)} px${shortened ? ', and an ellipsis is drawn' : ''})`;
    }
    return '';
  });
  assert.equal(cut, '', `${what} is ${cut}`);
}

/** `el`'s text starts inside the row's visible part (its first few characters can be read). */
async function assertStartsInView(el: Locator, what: string): Promise<void> {
  const shown = await el.evaluate((element) => {
    const node = element as unknown as Box;
    const start = node.getBoundingClientRect().left;
    for (let box: Box | null = node.parentElement; box; box = box.parentElement)
      if (
        node.ownerDocument.defaultView.getComputedStyle(box).overflowX !== 'visible' &&
        start + 40 > box.getBoundingClientRect().right
      )
        return false;
    return true;
  });
  assert.ok(shown, `${what} cannot be seen`);
}

describe('e2e: the Tasks and Conversations views at 300 px', function () {
  // Three CLI runs besides the workbench.
  this.timeout(300_000);
  let wb: Workbench;
  let data: string;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    const outside = join(__dirname, '..', '..', 'test-results', 'outside');
    mkdirSync(outside, { recursive: true });
    data = mkdtempSync(join(outside, 'tasks-view-'));
    wb = await openWorkbench({
      name: 'tasks-view',
      env: { LOGBOOK_WORKTREES_DIR: data },
      settings: { 'workbench.colorTheme': 'Default Light Modern' },
    });
    const ws = wb.workspaceDir;
    writeFileSync(join(ws, 'app.txt'), 'line 1\nline 2\n');
    for (const args of [
      ['init', '--quiet'],
      ['add', '--all'],
      ['commit', '--quiet', '-m', 'first'],
    ])
      execFileSync('git', [...ID, ...args], { cwd: ws });
    for (const [name, task] of TASKS) {
      const llm = await startScriptedLlm({ scenario: taskScenario(name, task) });
      try {
        const run = await runCli(['run', `--worktree=${name}`, '--confirm', 'never', task], {
          cwd: ws,
          env: {
            LOGBOOK_BASE_URL: llm.baseUrl,
            LOGBOOK_MODEL: 'scripted-model',
            LOGBOOK_WORKTREES_DIR: data,
          },
          timeoutMs: 120_000,
        });
        assert.equal(run.code, 0, printed(run));
      } finally {
        await llm.close();
      }
    }
    const store = new TaskStore(data, repositoryAt(ws));
    store.put({ ...store.get('add-retry'), status: 'applied' });
    await wb.openLogbookView();
    await wb.showConversations();
    await setSidebarWidth(wb, 300);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot('FAILED');
  });

  after(async () => {
    await wb?.close();
    rmSync(data, { recursive: true, force: true });
  });

  it('lists each task with its status and files changed, and its conversation with its name, in view, in Light, Dark and High Contrast', async () => {
    const header = wb.page
      .locator('.pane-header')
      .filter({ has: wb.page.locator('h3.title', { hasText: /^Tasks$/i }) });
    await header.waitFor({ timeout: 30_000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const pane = wb.page.locator('.pane').filter({ has: header });
    const rows = pane.locator('.monaco-list-row');
    await rows.first().waitFor({ timeout: 30_000 });
    assert.equal(await rows.count(), 3);
    const row = rows.filter({ hasText: 'fix-login-test' });
    assert.match((await row.innerText()).replace(/\s+/g, ' '), /fix-login-test ?finished · 2 file\(s\)/);
    await assertWhole(row.locator('.label-name'), "the task's name");
    await assertWhole(row.locator('.label-description'), "the task's status");
    // The task's conversation, beside the window's own: at 300 px its label (the task's name) is
    // whole, and its status starts after it.
    const conversations = wb.page
      .locator('.pane')
      .filter({ has: wb.page.locator('.pane-header h3.title', { hasText: /^Conversations$/i }) })
      .locator('.monaco-list-row');
    await conversations.first().waitFor({ timeout: 30_000 });
    assert.equal(await conversations.count(), 3);
    // The longest name is whole (a time and a status before it cut it).
    const longest = conversations.filter({ hasText: 'rename-config-loader' });
    await assertWhole(longest.locator('.label-name'), "the longest task name's label");
    await assertStartsInView(longest.locator('.label-description'), "the longest-named task's status");
    const conversation = conversations.filter({ hasText: 'fix-login-test' });
    assert.equal(await conversation.locator('.label-name').innerText(), 'fix-login-test');
    assert.match(
      await conversation.locator('.label-description').innerText(),
      /^finished · \d\d:\d\d · Fix the failing login test$/,
    );
    await assertWhole(conversation.locator('.label-name'), "the conversation's label");
    await assertStartsInView(conversation.locator('.label-description'), "the task's status");
    // The applied task says so where it can be seen, not after a cut.
    const applied = conversations.filter({ hasText: 'add-retry' });
    assert.equal(await applied.locator('.label-name').innerText(), 'add-retry');
    assert.match(await applied.locator('.label-description').innerText(), /^applied · /);
    await assertStartsInView(applied.locator('.label-description'), "the applied task's status");
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`tasks-view-${theme.toLowerCase().replace(/\s+/g, '-')}`);
    }
  });
});
