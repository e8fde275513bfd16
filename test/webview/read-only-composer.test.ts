// A read-only conversation's composer offers nothing it cannot do: no Plan/Act toggle, no File or
// Selection toggle, no Send; it says why instead (its task was discarded, another window writes it).
// A writable conversation's composer keeps them all; a discarded task's branch badge reads as gone.
// At 300 px, in dark, light and high contrast, with screenshots under test-results/webview/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ConversationHeader } from '../../src/protocol/messages';
import { eid, makeHeader, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const TASK = { name: 'rename-config-loader', branch: 'logbook/rename-config-loader' };
const events = [{ seq: 0, event: userMessage(eid(1), 'Rename the config loader') }];

/** What the composer offers, by role and name, as a user (or a screen reader) finds it. */
async function offered(p: Panel) {
  const form = p.page.locator('form.composer');
  return {
    modes: await form.getByRole('group', { name: 'Agent mode' }).count(),
    file: await form.getByRole('button', { name: /active file/i }).count(),
    selection: await form.getByRole('button', { name: /selection/i }).count(),
    send: await form.getByRole('button', { name: /^Send/ }).count(),
    note: (await form.getByRole('note').count()) ? await form.getByRole('note').innerText() : '',
    boxDisabled: await form.getByRole('textbox', { name: 'Message to the agent' }).isDisabled(),
  };
}

describe('webview: a read-only conversation’s composer', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel | undefined;
  before(async () => (h = await startHarness({ width: 300, height: 700 })));
  afterEach(async () => {
    assert.deepEqual(p?.errors ?? [], []);
    await p?.page.close();
    p = undefined;
  });
  after(async () => h?.close());

  it('a writable conversation’s composer offers the mode, File, Selection and Send', async () => {
    p = await Panel.open(h);
    await p.showConversation(events, makeHeader({ status: 'finished', task: TASK }));
    assert.deepEqual(await offered(p), {
      modes: 1,
      file: 1,
      selection: 1,
      send: 1,
      note: '',
      boxDisabled: false,
    });
  });

  const cases: { what: string; header: Partial<ConversationHeader>; note: RegExp }[] = [
    {
      what: 'a discarded task’s',
      header: { readOnlyBecause: 'task-discarded', task: TASK },
      note: /^Task rename-config-loader was discarded: its conversation is kept to read\.$/,
    },
    {
      what: 'another window’s',
      header: { readOnlyBecause: 'another-window', heldBy: 'the window on “ws” (pid 42)' },
      note: /^Read-only here while another window writes it\.$/,
    },
    { what: 'a reason-less read-only', header: {}, note: /^This conversation is read-only$/ },
  ];
  for (const c of cases)
    it(`${c.what} composer offers no mode, File, Selection or Send, and says why`, async () => {
      for (const theme of ['dark', 'light', 'high-contrast']) {
        p = await Panel.open(h, { theme });
        await p.showConversation(events, makeHeader({ status: 'finished', readOnly: true, ...c.header }));
        const seen = await offered(p);
        assert.match(seen.note, c.note, theme);
        assert.deepEqual(
          { ...seen, note: '' },
          {
            modes: 0,
            file: 0,
            selection: 0,
            send: 0,
            note: '',
            boxDisabled: true,
          },
        );
        // A discarded task's branch badge is struck through, its tooltip says the branch is gone.
        const branch = p.page.locator('.badge.task-branch');
        if (c.header.readOnlyBecause === 'task-discarded') {
          assert.equal(await branch.locator('s').innerText(), TASK.branch);
          assert.match(
            (await branch.getAttribute('title')) ?? '',
            /was discarded: its branch \S+ and its worktree are removed/,
          );
        }
        const name = `read-only-composer-${c.header.readOnlyBecause ?? 'plain'}-${theme}-300.png`;
        await p.page.screenshot({ path: join(SHOTS, name) });
        if (theme !== 'high-contrast') {
          assert.deepEqual(p.errors, []);
          await p.page.close();
        }
      }
    });

  it('a conversation that becomes writable gets its toggles back, and the draft’s are kept', async () => {
    p = await Panel.open(h);
    await p.showConversation(events, makeHeader({ status: 'finished' }));
    const file = p.page.locator('form.composer').getByRole('button', { name: /active file/i });
    await file.click();
    assert.equal(await file.getAttribute('aria-pressed'), 'true');
    await p.host({
      type: 'header',
      header: makeHeader({ readOnly: true, readOnlyBecause: 'another-window' }),
    });
    await p.settle();
    assert.equal((await offered(p)).file, 0);
    await p.host({ type: 'header', header: makeHeader({ status: 'finished' }) });
    await p.settle();
    assert.equal(await file.getAttribute('aria-pressed'), 'true');
  });
});
