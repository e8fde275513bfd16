// A row's tools (Continue from here, Restore files to here) and a card's badges share the card's
// head without covering each other, by mouse and by keyboard, and the head of an action awaiting
// approval stays one line at a 300 px sidebar (the shield alone there; its words for screen readers).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import type { ViewEvent } from '../../src/protocol/messages';
import { CONVERSATION_ID, eid, makeHeader, terminalAction, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

type Box = { x: number; y: number; width: number; height: number };

// The test tsconfig has no DOM types: what the page callbacks below use of the page's globals.
declare const document: { activeElement: unknown; elementFromPoint(x: number, y: number): unknown };
declare function getComputedStyle(el: unknown): { opacity: string };

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  assert.ok(b, 'the element is rendered');
  return b;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether the element at the center of `l` is `l` itself or inside it (nothing lies on top). */
async function onTop(l: Locator): Promise<boolean> {
  return l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

const PENDING = eid(10);

function pendingAction(): ViewEvent[] {
  return [
    { seq: 0, event: userMessage(eid(1), 'Run the parser tests') },
    {
      seq: 1,
      event: terminalAction(PENDING, 'npm test -- --grep parser', {
        summary: 'Run the parser tests',
        risk: 'MEDIUM',
      }),
    },
  ];
}

const pendingHeader = () => makeHeader({ status: 'waiting_for_confirmation', pendingActionIds: [PENDING] });

for (const width of [300, 560]) {
  describe(`webview: row tools and badges, ${width} px wide`, function () {
    this.timeout(60_000);
    let h: Harness;
    let p: Panel;
    before(async () => (h = await startHarness({ width, height: 700 })));
    after(async () => h?.close());
    beforeEach(async () => {
      p = await Panel.open(h);
      await p.showConversation(pendingAction(), pendingHeader());
    });
    afterEach(async () => {
      assert.deepEqual(p.errors, [], 'no uncaught page errors');
      await p.page.close();
    });

    const card = () => p.row('ActionEvent');

    it('hovering a card shows its tools beside the badges, not over them; nothing else moves', async () => {
      const risk = card().locator('.risk');
      const pending = card().locator('.pending-badge');
      const head = card().locator('.card-head');
      const before = { risk: await box(risk), pending: await box(pending), head: await box(head) };
      await card().hover();
      await p.settle();
      const fork = card().getByRole('button', { name: 'Continue from here' });
      const restore = card().getByRole('button', { name: 'Restore files to here' });
      for (const button of [fork, restore]) {
        const b = await box(button);
        assert.ok(b.width >= 20, 'the button is shown at full size');
        assert.equal(await button.evaluate((el) => getComputedStyle(el.parentElement!).opacity), '1');
        for (const [name, badge] of [
          ['risk', risk],
          ['pending', pending],
        ] as const)
          assert.ok(!overlaps(b, await box(badge)), `a tool button covers the ${name} badge`);
        assert.ok(await onTop(button), 'the button can be clicked where it is drawn');
      }
      assert.ok(await onTop(risk), 'the risk badge is not covered');
      assert.ok(await onTop(pending), 'the pending badge is not covered');
      assert.equal(await risk.innerText(), 'MEDIUM');
      assert.deepEqual(await box(risk), before.risk, 'the risk badge stays where it was');
      assert.deepEqual(await box(pending), before.pending, 'the pending badge stays where it was');
      assert.equal((await box(head)).height, before.head.height, 'the head keeps its height');
      await fork.click();
      assert.deepEqual((await p.posted()).at(-1), {
        type: 'forkFrom',
        conversationId: CONVERSATION_ID,
        eventId: PENDING,
      });
    });

    it('the tools are reached with Tab and shown while focused, clear of the badges', async () => {
      // The user message's last tool, then Tab: the card's first tool is next.
      const message = p.row('MessageEvent');
      await message.getByRole('button', { name: 'Restore files to here' }).focus();
      await p.page.mouse.move(0, 0);
      await p.page.keyboard.press('Tab');
      const fork = card().getByRole('button', { name: 'Continue from here' });
      assert.ok(await fork.evaluate((el) => el === document.activeElement), 'Tab reaches Continue from here');
      await p.settle();
      const b = await box(fork);
      assert.ok(b.width >= 20, 'the focused button is shown');
      assert.equal(await fork.evaluate((el) => getComputedStyle(el.parentElement!).opacity), '1');
      assert.ok(!overlaps(b, await box(card().locator('.risk'))), 'the focused button covers the risk badge');
      await p.page.keyboard.press('Tab');
      const restore = card().getByRole('button', { name: 'Restore files to here' });
      assert.ok(await restore.evaluate((el) => el === document.activeElement), 'then Restore files to here');
      await p.page.keyboard.press('Enter');
      assert.deepEqual((await p.posted()).at(-1), {
        type: 'restoreFiles',
        conversationId: CONVERSATION_ID,
        eventId: PENDING,
      });
    });

    it('the tools say what they do in words, in every theme (screenshots saved)', async () => {
      for (const theme of ['light', 'dark', 'high-contrast']) {
        const t = await Panel.open(h, { theme });
        await t.showConversation(pendingAction(), pendingHeader());
        const head = t.row('ActionEvent').locator('.card-head');
        await head.hover();
        await t.settle();
        const fork = head.getByRole('button', { name: 'Continue from here' });
        const restore = head.getByRole('button', { name: 'Restore files to here' });
        assert.equal((await fork.innerText()).trim(), 'Fork');
        assert.equal((await restore.innerText()).trim(), 'Restore');
        const cardBox = await box(t.row('ActionEvent').locator('.card'));
        for (const b of [fork, restore]) {
          const bb = await box(b);
          assert.ok(bb.x + bb.width <= cardBox.x + cardBox.width, 'the words fit inside the card');
          assert.ok(await onTop(b));
        }
        await t.page.screenshot({ path: join(SHOTS, `row-tools-${theme}-${width}.png`) });
        assert.deepEqual(t.errors, []);
        await t.page.close();
      }
    });

    it("a one-line event's text keeps clear of its tools", async () => {
      await p.host({
        type: 'events',
        conversationId: CONVERSATION_ID,
        events: [
          {
            seq: 2,
            event: {
              kind: 'ConversationStateUpdateEvent',
              id: eid(30),
              source: 'user',
              key: 'checkpoint',
              value: { reason: 'restore' },
            },
          },
        ],
      });
      const line = p.row('ConversationStateUpdateEvent');
      await line.waitFor();
      await line.hover();
      await p.settle();
      const text = await box(line.locator('.collapsible-toggle'));
      for (const name of ['Continue from here', 'Undo: put the files back as they were before this line']) {
        const button = line.getByRole('button', { name });
        assert.ok(!overlaps(await box(button), text), `${name} covers the line's text`);
        assert.ok(await onTop(button));
      }
    });

    it('the head of an action awaiting approval: badges on the name line, the summary whole, inside the card', async () => {
      const head = await box(card().locator('.card-head'));
      const name = await box(card().locator('.tool-name'));
      const pending = await box(card().locator('.pending-badge'));
      const risk = await box(card().locator('.risk'));
      const center = (b: Box) => b.y + b.height / 2;
      assert.ok(Math.abs(center(pending) - center(name)) < 3, 'the pending badge is on the tool name line');
      assert.ok(Math.abs(center(risk) - center(name)) < 3, 'the risk badge is on the tool name line');
      const summary = card().locator('.card-head .summary');
      if (width > 420) assert.ok(head.height <= 40, `the head is one line (${head.height} px)`);
      else {
        // A narrow card gives the summary a line of its own rather than an ellipsis after a few words.
        assert.ok((await box(summary)).y >= name.y + name.height - 1, 'the summary is under the name');
        type Sized = { scrollHeight: number; clientHeight: number; scrollWidth: number; clientWidth: number };
        const whole = (el: Sized) =>
          el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1;
        assert.equal(await summary.evaluate(whole), true, 'whole, not cut');
      }
      assert.ok(pending.height <= 20, 'the pending badge itself is one line');
      const cardBox = await box(card().locator('.card'));
      assert.ok(risk.x + risk.width <= cardBox.x + cardBox.width, 'the risk badge is inside the card');
      // Its meaning is there for everyone: the tooltip, and the words in the accessibility tree.
      const badge = card().locator('.pending-badge');
      assert.equal(await badge.getAttribute('title'), 'Awaiting approval');
      const label = badge.getByText('Awaiting approval', { exact: true });
      assert.equal(await label.count(), 1);
      const shown = (await box(label)).width > 2;
      assert.equal(shown, width > 400, 'the words show where there is room, the shield alone where not');
    });
  });
}
