// The sidebar at its narrow default (300 px) gives the conversation the room: the chat view takes
// most of the height, and with an approval pending the action it asks about, the approval and the
// composer are all in view. Screenshots of Light, Dark and High Contrast go under test-results/.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { startScriptedLlm, type ScriptedLlm } from '../support/llm-server';
import { DEMO_TASK, demoReply } from '../../src/host/node/demo-model/demo-model';
import {
  EXTENSION_ID,
  openWorkbench,
  screenshotRoot,
  type Workbench,
  setSidebarWidth,
  setTheme,
} from './support/workbench';

const SIDEBAR_WIDTH = 300;
const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  assert.ok(b, 'the element is rendered');
  return b;
}

function assertInside(inner: Box, outer: Box, what: string): void {
  const slack = 1;
  assert.ok(
    inner.x >= outer.x - slack &&
      inner.y >= outer.y - slack &&
      inner.x + inner.width <= outer.x + outer.width + slack &&
      inner.y + inner.height <= outer.y + outer.height + slack,
    `${what} ${JSON.stringify(inner)} is not inside the chat view ${JSON.stringify(outer)}`,
  );
}

describe('e2e: the sidebar at 300 px with an approval pending', function () {
  let wb: Workbench;
  let demo: ScriptedLlm;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    demo = await startScriptedLlm({
      scenario: { name: 'demo', models: ['demo'], turns: [] },
      respond: demoReply,
    });
    wb = await openWorkbench({
      name: 'sidebar-layout',
      settings: {
        'logbook.model.baseURL': demo.baseUrl,
        'logbook.model.name': 'demo',
        // Ask for everything: in the default mode the sandbox and a checkpoint hold all the demo
        // does, so nothing would wait for the approval this test lays out.
        'logbook.confirmation.mode': 'always',
        'workbench.colorTheme': 'Default Light Modern',
      },
    });
    await wb.openLogbookView();
    await setSidebarWidth(wb, SIDEBAR_WIDTH);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
    await demo?.close();
  });

  const chatView = () =>
    wb.page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"][src*="purpose=webviewView"]`);

  it('the chat view takes most of the sidebar; the Conversations view starts collapsed', async () => {
    const sidebar = await box(wb.page.locator('.part.sidebar'));
    assert.ok(Math.abs(sidebar.width - SIDEBAR_WIDTH) <= 2, `the sidebar is ${sidebar.width} px wide`);
    const chat = await box(chatView());
    assert.ok(chat.height >= sidebar.height * 0.7, `the chat gets ${chat.height} of ${sidebar.height} px`);
    const conversationsHeader = wb.page
      .locator('.pane-header', { has: wb.page.locator('h3.title', { hasText: /^Conversations$/i }) })
      .first();
    assert.equal(await conversationsHeader.getAttribute('aria-expanded'), 'false');
  });

  it('the command it asks about, its risk and reason, the approval and the composer are all in view', async () => {
    await wb.startTask(DEMO_TASK);
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: 'Confirm' }).waitFor({ timeout: 30_000 });
    const view = await box(chatView());
    const approval = await box(chat.locator('.approval'));
    assertInside(approval, view, 'the approval');
    assertInside(await box(chat.locator('.approval-text').first()), view, 'the action text in the approval');
    assertInside(await box(chat.locator('.composer textarea')), view, 'the composer');
    assertInside(await box(chat.getByRole('button', { name: 'Confirm' })), view, 'Confirm');
    // The card of the pending command is visible above the approval, not covered by it.
    const card = await box(chat.locator('.card.action.pending').last());
    assert.ok(card.y >= view.y - 1, 'the pending card starts inside the view');
    assert.ok(
      card.y + Math.min(card.height, 40) <= approval.y + 1,
      `the pending card's head (${card.y}) is hidden by the approval (${approval.y})`,
    );
    assert.ok(
      approval.height <= view.height * 0.35,
      `the approval takes ${approval.height} of ${view.height} px`,
    );
    // The rule analyzer raised the model's LOW: the card says whose rating it is, with the rule's
    // reason and the model's own.
    await chat
      .getByText(/MEDIUM by Logbook.s rules: .*runs project scripts.*\(the model said LOW\)/)
      .first()
      .waitFor({ timeout: 5_000 });
    // The status line is not cut off.
    const status = chat.locator('.header .status');
    await status.getByText('Waiting for approval').waitFor();
    const clipped = await status.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    assert.equal(clipped, false, 'the status line is cut off');
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`approval-pending-${slug(theme)}`);
    }
    await setTheme(wb, THEMES[0]!);
  });

  it('the reject-reason form keeps the composer in view', async () => {
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: /^Reject/ }).click();
    await chat.getByPlaceholder('e.g. Run the unit tests only').waitFor();
    const view = await box(chatView());
    assertInside(await box(chat.getByPlaceholder('e.g. Run the unit tests only')), view, 'the reason field');
    assertInside(await box(chat.locator('.composer textarea')), view, 'the composer');
    await wb.shot('reject-reason');
    await chat.getByRole('button', { name: 'Cancel' }).click();
  });

  it('after the finished task the final message reads in the editor foreground, once', async () => {
    const chat = wb.chatFrame();
    // Asked for everything, each step waits (the plan's updates too): confirm until the end, and
    // look at the pending edit's head when it is the one waiting.
    let hovered = false;
    for (let i = 0; i < 12; i++) {
      if ((await chat.getByText(/now exports subtract/).count()) > 0) break;
      const confirm = chat.getByRole('button', { name: 'Confirm' });
      if (
        !(await confirm.waitFor({ timeout: 60_000 }).then(
          () => true,
          () => false,
        ))
      )
        break;
      const card = await chat.locator('.card.action.pending').last().elementHandle();
      if (!hovered && card && ((await card.textContent()) ?? '').includes('file_editor')) {
        await pendingEditHovered();
        hovered = true;
      }
      await confirm.click();
      // The card it confirmed stops waiting before the next Confirm is looked for.
      for (let t = 0; t < 100 && card; t++) {
        const still = await card
          .evaluate((el) => el.isConnected && el.classList.contains('pending'))
          .catch(() => false);
        if (!still) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.ok(hovered, 'the edit waited for approval');
    await chat
      .getByText(/now exports subtract/)
      .first()
      .waitFor({ timeout: 60_000 });
    // The diff editor of the confirmed edit takes the editor area; the sidebar is what we look at.
    assert.equal(await chat.getByText(/now exports subtract/).count(), 1, 'the finish message shows once');
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`finished-${slug(theme)}`);
    }
  });

  /**
   * The edit waiting for approval, hovered in every theme: its head is one line (the name, the
   * shield, then the risk badge) with the name whole, and its tools show (at the end of the
   * summary's line) without covering the badges.
   */
  async function pendingEditHovered(): Promise<void> {
    const chat = wb.chatFrame();
    const card = chat
      .locator('article.row-action')
      .filter({ has: chat.locator('.card.pending') })
      .last();
    const head = card.locator('.card-head');
    await head.locator('.pending-badge').waitFor({ timeout: 30_000 });
    // Asked for everything, the rules' LOW differs from the model's MEDIUM: the card says so in its
    // risk line, and the head keeps the pending badge alone.
    const hasRisk = (await head.locator('.risk').count()) > 0;
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await head.hover();
      const fork = head.getByRole('button', { name: 'Continue from here' });
      await fork.waitFor();
      const pending = await box(head.locator('.pending-badge'));
      const risk = hasRisk ? await box(head.locator('.risk')) : pending;
      const name = await box(head.locator('.tool-name'));
      const middle = (b: Box) => b.y + b.height / 2;
      assert.ok(Math.abs(middle(pending) - middle(name)) < 3, 'the pending badge is on the head line');
      assert.ok(Math.abs(middle(risk) - middle(name)) < 3, 'the risk badge is on the head line');
      const whole = await head.locator('.tool-name').evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      assert.ok(whole, "the tool's name is not cut while the tools show");
      for (const label of ['Continue from here', 'Restore files to here']) {
        const b = await box(head.getByRole('button', { name: label }));
        assert.ok(b.width >= 20, `${label} is shown`);
        for (const badge of [risk, pending])
          assert.ok(
            b.x + b.width <= badge.x ||
              badge.x + badge.width <= b.x ||
              b.y + b.height <= badge.y ||
              badge.y + badge.height <= b.y,
            `${label} ${JSON.stringify(b)} overlaps a badge ${JSON.stringify(badge)}`,
          );
      }
      await wb.shot(`pending-edit-hovered-${slug(theme)}`);
    }
    await setTheme(wb, THEMES[0]!);
  }
});

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z]+/g, '-');
}
