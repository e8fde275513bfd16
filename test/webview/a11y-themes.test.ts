// axe-core finds no serious or critical violation in the dark, light and high-contrast themes, with
// every kind of row on screen; screenshots of each theme go to test-results/webview/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewEvent } from '../../src/protocol/messages';
import { CONVERSATION_ID, eid, everyKind, makeHeader, terminalAction } from './harness/events';
import { type Harness, Panel, ROOT, SHOTS, startHarness } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const THEMES = ['dark', 'light', 'high-contrast'];

interface AxeResult {
  violations: {
    id: string;
    impact: string | null;
    help: string;
    nodes: { target: string[]; failureSummary?: string }[];
  }[];
}

async function axe(p: Panel): Promise<AxeResult['violations']> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (no script tag needed).
  await p.page.evaluate(AXE);
  const r = (await p.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

function report(v: AxeResult['violations']): string {
  return v
    .map(
      (x) =>
        `${x.id} (${x.impact}): ${x.help}\n  ${x.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`)
          .join('\n  ')}`,
    )
    .join('\n');
}

for (const width of [420, 300]) {
  // At 300 px: the narrowest sidebar people use; the same checks, and screenshots named -300.
  const tag = width === 300 ? '-300' : '';
  describe(`webview: accessibility and themes, ${width} px wide`, function () {
    this.timeout(90_000);
    let h: Harness;
    before(async () => (h = await startHarness({ width, height: 820 })));
    after(async () => h?.close());

    for (const theme of THEMES) {
      it(`${theme}: no serious or critical axe violation; screenshots saved`, async () => {
        const p = await Panel.open(h, { theme });
        await p.page.screenshot({ path: join(SHOTS, `${theme}${tag}-empty.png`) });
        const empty = await axe(p);
        assert.equal(empty.length, 0, report(empty));

        const { events, ids } = everyKind();
        const pending = eid(900);
        const all: ViewEvent[] = [
          ...events,
          {
            seq: events.length,
            event: terminalAction(pending, 'npm run build && npm test', {
              summary: 'Build and test',
              risk: 'MEDIUM',
            }) as ViewEvent['event'],
          },
        ];
        await p.showConversation(
          all,
          makeHeader({ status: 'waiting_for_confirmation', pendingActionIds: [pending] }),
        );
        await p.host({
          type: 'stream',
          conversationId: CONVERSATION_ID,
          delta: { type: 'text', text: 'While you decide: the **build** step compiles `src/`…' },
        });
        await p.settle();
        await p.page.waitForTimeout(150);
        await p.page.screenshot({ path: join(SHOTS, `${theme}${tag}.png`) });
        const bottom = await axe(p);
        assert.equal(bottom.length, 0, report(bottom));

        // The top of the conversation, with the reasoning and the file diff open, scrolled to as a
        // reader does: the wheel stops the feed following the newest event (setting scrollTop would
        // not, and the feed would go back to the end).
        const feed = p.page.locator('.feed');
        await feed.hover();
        await p.page.mouse.wheel(0, -100_000);
        await p.settle();
        await p.page.waitForTimeout(100);
        assert.equal(await feed.evaluate((el) => Math.round(el.scrollTop)), 0, 'the feed shows its top');
        await p.row('MessageEvent').nth(1).getByRole('button', { name: 'Thinking' }).click();
        await p.settle();
        await p.page.screenshot({ path: join(SHOTS, `${theme}${tag}-top.png`) });
        const top = await axe(p);
        assert.equal(top.length, 0, report(top));

        // The middle: diff and rejected action.
        const edit = p.page.locator(`article[data-kind="ActionEvent"]`).filter({ hasText: 'file_editor' });
        await edit.scrollIntoViewIfNeeded();
        await p.settle();
        await p.page.screenshot({ path: join(SHOTS, `${theme}${tag}-diff.png`) });
        const middle = await axe(p);
        assert.equal(middle.length, 0, report(middle));
        void ids;
        assert.deepEqual(p.errors, []);
        await p.page.close();
      });
    }
  });
}
