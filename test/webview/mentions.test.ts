// The composer's attachments: completion as "@" or "#" is typed (asked of the host, answered by
// request id), keyboard selection, removable chips, pasted images, files dropped from the explorer,
// and attachments shown under the sent message. Names from files and pastes must stay inert text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MentionItem, ViewEvent, WebviewMessage } from '../../src/protocol/messages';
import { CONVERSATION_ID, editAction, editObservation, eid, userMessage } from './harness/events';
import { type Harness, type Harnessed, Panel, ROOT, startHarness, SHOTS } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

const RUN = 'window.__xss=1';
const PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<svg onload=${RUN}>`,
  `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `<a href="javascript:${RUN}">click me</a>`,
  `<details open ontoggle=${RUN}>`,
  `<input autofocus onfocus=${RUN}>`,
  `"><img src=x onerror=${RUN}>`,
];

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const ITEMS: MentionItem[] = [
  { kind: 'file', label: 'src/app.ts', path: 'src/app.ts' },
  { kind: 'file', label: 'test/app.test.ts', path: 'test/app.test.ts' },
  { kind: 'folder', label: 'src/application/', path: 'src/application' },
  { kind: 'problems', label: 'Problems', detail: '3 in the workspace' },
];

describe('webview: mentions and attachments', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 700 })));
  after(async () => h?.close());
  beforeEach(async () => {
    p = await Panel.open(h);
    await p.showConversation([{ seq: 0, event: userMessage(eid(1), 'hello') as ViewEvent['event'] }]);
  });
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    assert.equal(await p.page.evaluate(() => (globalThis as unknown as Harnessed).__xss), undefined);
    assert.deepEqual(await p.cspViolations(), []);
    await p.page.close();
  });

  const box = () => p.page.getByRole('textbox', { name: 'Message to the agent' });
  const list = () => p.page.getByRole('listbox', { name: 'Attach to the message' });
  const sent = async () =>
    (await p.posted()).filter(
      (m): m is Extract<WebviewMessage, { type: 'sendMessage' }> => m.type === 'sendMessage',
    );
  /** Waits for the view's (debounced) query for `query` and answers it as the host would. */
  async function answer(query: string, items: MentionItem[] = ITEMS): Promise<number> {
    let requestId = -1;
    for (let i = 0; i < 100 && requestId < 0; i++) {
      const q = (await p.posted()).filter((m) => m.type === 'mentionQuery').at(-1);
      if (q?.type === 'mentionQuery' && q.query === query) requestId = q.requestId;
      else await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(requestId >= 0, `the view never asked for "${query}"`);
    await p.host({ type: 'mentionResults', requestId, items });
    await p.settle();
    return requestId;
  }

  it('typing "@" asks the host; arrows move the selection, Enter picks it as a chip; the message carries it', async () => {
    await box().click();
    await p.page.keyboard.type('fix @ap');
    await answer('ap');
    assert.equal(await list().getByRole('option').count(), 4);
    assert.equal(await list().getByRole('option', { selected: true }).innerText(), 'src/app.ts');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('ArrowDown');
    assert.match(await list().getByRole('option', { selected: true }).innerText(), /src\/application\//);
    const active = await box().getAttribute('aria-activedescendant');
    assert.equal(await p.page.locator(`#${active}`).getAttribute('aria-selected'), 'true');
    await p.page.keyboard.press('ArrowUp');
    await p.page.keyboard.press('Enter');
    assert.equal(await list().count(), 0, 'picking closes the list');
    assert.equal(await box().inputValue(), 'fix @test/app.test.ts ');
    const chips = p.page.getByRole('list', { name: 'Attachments' });
    assert.equal(await chips.getByRole('listitem').innerText(), 'test/app.test.ts');
    await p.page.keyboard.type('please');
    await p.page.keyboard.press('Enter');
    assert.deepEqual((await sent()).at(-1), {
      type: 'sendMessage',
      text: 'fix @test/app.test.ts please',
      attachActiveFile: false,
      attachSelection: false,
      attachments: [{ kind: 'file', path: 'test/app.test.ts' }],
    });
    assert.equal(await chips.count(), 0, 'sent: the chips are cleared');
  });

  it('an MCP resource is offered by name with its server, picked as a chip, and sent as server + URI', async () => {
    await box().click();
    await p.page.keyboard.type('read @readme');
    await answer('readme', [
      {
        kind: 'resource',
        label: 'Project readme',
        detail: 'MCP “docs” · The project readme',
        path: 'docs://project/readme.md',
        server: 'docs',
      },
    ]);
    const option = list().getByRole('option', { selected: true });
    assert.match(await option.innerText(), /Project readme/);
    assert.match(await option.innerText(), /MCP “docs”/);
    await p.page.keyboard.press('Enter');
    assert.equal(await box().inputValue(), 'read @Project-readme ');
    const chips = p.page.getByRole('list', { name: 'Attachments' });
    assert.equal(await chips.getByRole('listitem').innerText(), 'Project readme');
    assert.equal(await chips.locator('.codicon-plug').count(), 1);
    await p.page.keyboard.press('Enter');
    assert.deepEqual((await sent()).at(-1)?.attachments, [
      { kind: 'resource', server: 'docs', uri: 'docs://project/readme.md' },
    ]);
  });

  it('a "/" that starts the message asks for MCP prompts; the picked prompt is sent by server and name', async () => {
    await box().click();
    await p.page.keyboard.type('/sim');
    let query: WebviewMessage | undefined;
    for (let i = 0; i < 100 && !query; i++) {
      query = (await p.posted()).find((m) => m.type === 'mentionQuery' && m.query === 'sim');
      if (!query) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(query && { ...query, requestId: 0 }, {
      type: 'mentionQuery',
      requestId: 0,
      query: 'sim',
      prompts: true,
    });
    await answer('sim', [
      {
        kind: 'prompt',
        label: 'simple_prompt',
        detail: 'MCP “everything”',
        path: 'simple_prompt',
        server: 'everything',
      },
    ]);
    await p.page.keyboard.press('Enter');
    assert.equal(await box().inputValue(), '/simple_prompt ');
    assert.equal(
      await p.page.getByRole('list', { name: 'Attachments' }).locator('.codicon-comment-discussion').count(),
      1,
    );
    await p.page.keyboard.type('on this repo');
    await p.page.keyboard.press('Enter');
    const last = (await sent()).at(-1);
    assert.equal(last?.text, '/simple_prompt on this repo');
    assert.deepEqual(last?.attachments, [{ kind: 'prompt', server: 'everything', name: 'simple_prompt' }]);
  });

  it('"#" completes too; Tab picks, Escape closes without picking, a stale answer is ignored', async () => {
    await box().click();
    await p.page.keyboard.type('see #pro');
    const stale = await answer('pro', [{ kind: 'diff', label: 'Git diff' }]);
    await p.page.keyboard.type('b');
    // The answer to the older query arrives after the newer one was asked: not shown.
    await answer('prob', [{ kind: 'problems', label: 'Problems', detail: '3 in the workspace' }]);
    await p.host({ type: 'mentionResults', requestId: stale, items: [{ kind: 'diff', label: 'Git diff' }] });
    await p.settle();
    assert.equal(await list().getByRole('option').innerText(), 'Problems\n3 in the workspace');
    await p.page.keyboard.press('Tab');
    assert.equal(await box().inputValue(), 'see #problems ');
    await p.page.keyboard.type('and @x');
    await answer('x');
    await p.page.keyboard.press('Escape');
    assert.equal(await list().count(), 0);
    assert.equal(await box().inputValue(), 'see #problems and @x', 'Escape keeps the text');
    await p.page.keyboard.press('Enter');
    assert.deepEqual((await sent()).at(-1)?.attachments, [{ kind: 'problems' }]);
  });

  it('a chip is removed by keyboard; a message whose chips were all removed carries none', async () => {
    await box().click();
    await p.page.keyboard.type('@a');
    await answer('a');
    await p.page.keyboard.press('Enter');
    await p.page.keyboard.type('@t');
    await answer('t');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('Enter');
    const chips = p.page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    assert.equal(await chips.count(), 2);
    await p.page.getByRole('button', { name: 'Remove attachment src/app.ts' }).focus();
    await p.page.keyboard.press('Enter');
    assert.equal(await chips.count(), 1);
    await p.page.getByRole('button', { name: 'Remove attachment test/app.test.ts' }).focus();
    await p.page.keyboard.press('Space');
    assert.equal(await chips.count(), 0);
    await box().press('Enter');
    const last = (await sent()).at(-1);
    assert.equal(last?.text, '@src/app.ts @test/app.test.ts ');
    assert.ok(last && !('attachments' in last), 'no attachments left to send');
  });

  it('a pasted image becomes a chip with a preview and goes as base64; other pasted files are refused with a note', async () => {
    await box().click();
    await p.page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob('${PNG_1PX}'), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
      document.querySelector('.composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    })()`);
    const chip = p.page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await chip.waitFor();
    assert.equal(await chip.innerText(), 'shot.png');
    assert.equal(await chip.locator('img').getAttribute('src'), `data:image/png;base64,${PNG_1PX}`);
    assert.equal(await box().inputValue(), '', 'nothing was pasted as text');
    await p.page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['<svg onload="window.__xss=1"/>'], 'evil.svg', { type: 'image/svg+xml' }));
      document.querySelector('.composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    })()`);
    await p.page.getByText(/Not attached: evil\.svg is not a PNG, JPEG, WebP or GIF image/).waitFor();
    assert.equal(await chip.count(), 1);
    await box().fill('What is this?');
    await box().press('Enter');
    assert.deepEqual((await sent()).at(-1)?.attachments, [
      { kind: 'image', data: PNG_1PX, name: 'shot.png' },
    ]);
  });

  it('the draft comes back with its chips, toggles and pasted image after the panel reloads; a large image is named to paste again', async () => {
    await box().click();
    await p.page.keyboard.type('look at @ap');
    await answer('ap');
    await p.page.keyboard.press('Enter');
    await p.page.keyboard.type('and #pro');
    await answer('pro');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('Enter');
    await p.page.getByRole('button', { name: 'Attach the selection' }).click();
    await p.page.evaluate(`(() => {
      const png = Uint8Array.from(atob('${PNG_1PX}'), (c) => c.charCodeAt(0));
      const big = new Uint8Array(1_600_000);
      big.set(png);
      const dt = new DataTransfer();
      dt.items.add(new File([png], 'shot.png', { type: 'image/png' }));
      dt.items.add(new File([big], 'big.png', { type: 'image/png' }));
      document.querySelector('.composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    })()`);
    const chips = p.page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await chips.nth(3).waitFor();
    const state = await p.waitForState(
      (s) => (s as { composer?: { chips: unknown[] } } | null)?.composer?.chips.length === 3,
    );
    assert.ok(JSON.stringify(state).length < 100_000, 'the large image is not written into the saved state');

    await p.page.reload();
    await p.waitForReady();
    await p.settle();
    assert.equal(await box().inputValue(), 'look at @src/app.ts and #problems ');
    assert.deepEqual(await chips.allInnerTexts(), ['src/app.ts', 'Problems', 'shot.png']);
    assert.equal(await chips.nth(2).locator('img').getAttribute('src'), `data:image/png;base64,${PNG_1PX}`);
    assert.equal(
      await p.page.getByRole('button', { name: 'Attach the selection' }).getAttribute('aria-pressed'),
      'true',
    );
    await p.page
      .getByText(/Paste again: big\.png\. Pasted images over 1\.4 MB in all are not kept/)
      .waitFor();

    await box().press('Enter');
    assert.deepEqual((await sent()).at(-1), {
      type: 'sendMessage',
      text: 'look at @src/app.ts and #problems ',
      attachActiveFile: false,
      attachSelection: true,
      attachments: [
        { kind: 'file', path: 'src/app.ts' },
        { kind: 'problems' },
        { kind: 'image', data: PNG_1PX, name: 'shot.png' },
      ],
    });
    // Sent: an empty draft is what survives the next reload.
    await p.waitForState(
      (s) => (s as { composer?: { chips: unknown[] } } | null)?.composer?.chips.length === 0,
    );
    await p.page.reload();
    await p.waitForReady();
    await p.settle();
    assert.equal(await chips.count(), 0);
    assert.equal(
      await p.page.getByRole('button', { name: 'Attach the selection' }).getAttribute('aria-pressed'),
      'false',
    );
  });

  it('typing is saved within a moment, and at once when focus leaves the composer', async () => {
    await box().click();
    await p.page.keyboard.type('half a thought');
    await p.page.keyboard.press('Tab');
    assert.equal((await p.state())?.draft, 'half a thought');
    await box().click();
    await p.page.keyboard.type(', and more');
    // Without leaving the box: the view being torn down right now must find it saved already.
    await p.waitForState((s) => s?.draft === 'half a thought, and more', 1_000);
  });

  it('pasted HTML stays text, and hostile names in completions, chips and dropped files stay inert', async () => {
    await box().click();
    const html = PAYLOADS.slice(0, 6).join('');
    await p.page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.setData('text/html', ${JSON.stringify(html)});
      dt.setData('text/plain', 'plain words');
      document.querySelector('.composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    })()`);
    await p.page.keyboard.type(' @e');
    const evil = PAYLOADS.slice(0, 8).map((label, i): MentionItem => ({
      kind: 'file',
      label,
      path: `p${i}`,
      detail: label,
    }));
    await answer('e', evil);
    assert.equal(await list().getByRole('option').count(), 8);
    assert.equal(await list().getByRole('option').first().locator('.mention-label').innerText(), PAYLOADS[0]);
    await p.page.keyboard.press('ArrowDown');
    await p.page.keyboard.press('Enter');
    const chip = p.page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    assert.equal(await chip.innerText(), PAYLOADS[1]);
    // A drop from the explorer whose file name is markup.
    await p.page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.setData('text/uri-list', 'file:///ws/' + encodeURIComponent('<img src=x onerror="window.__xss=1">.ts'));
      document.querySelector('.composer').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    })()`);
    await p.settle();
    assert.equal(await chip.count(), 2);
    assert.equal(await chip.nth(1).innerText(), 'ws/<img src=x onerror="window.__xss=1">.ts');
    const dangerous = await p.page.evaluate(
      `document.querySelectorAll('.composer script, .composer iframe, .composer svg, .composer img:not(.chip-thumb), .composer [onerror], .composer [onload]').length`,
    );
    assert.equal(dangerous, 0);
    await p.page.waitForTimeout(200);
    await box().press('Enter');
    assert.deepEqual((await sent()).at(-1)?.attachments, [
      { kind: 'file', path: 'p1' },
      { kind: 'file', path: 'file:///ws/%3Cimg%20src%3Dx%20onerror%3D%22window.__xss%3D1%22%3E.ts' },
    ]);
  });

  it('the sent message shows its attachments collapsed and its stored image as a thumbnail from the host', async () => {
    const ref = `logbook-image:${'c'.repeat(64)}.png`;
    const event = {
      ...userMessage(eid(2), 'Why does this fail?'),
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'Why does this fail?' },
          {
            type: 'text',
            text: '--- Attached problems in src/app.ts (1 problem) ---\nsrc/app.ts:3:1-3:4 error: <b>x</b> is not defined',
          },
          { type: 'image', image_urls: [ref, 'javascript:window.__xss=1', 'https://example.com/x.png'] },
        ],
      },
    };
    await p.clearPosted();
    await p.host({ type: 'events', conversationId: CONVERSATION_ID, events: [{ seq: 1, event }] });
    await p.settle();
    const row = p.page.locator('article.row').last();
    assert.equal(await row.locator('.body').innerText(), 'Why does this fail?');
    const toggle = row.getByRole('button', { name: /Attached|problems in src\/app\.ts/ });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(
      await row.locator('.attachment-body').innerText(),
      'src/app.ts:3:1-3:4 error: <b>x</b> is not defined',
    );
    assert.deepEqual(
      (await p.posted()).filter((m) => m.type === 'loadImage'),
      [{ type: 'loadImage', conversationId: CONVERSATION_ID, url: ref }],
    );
    // A hostile answer (not an image data URL) is refused by the protocol; the real one shows.
    await p.host({ type: 'image', url: ref, dataUrl: 'data:text/html;base64,PHNjcmlwdD4=' });
    await p.host({ type: 'image', url: ref, dataUrl: `data:image/png;base64,${PNG_1PX}` });
    await p.settle();
    const imgs = row.locator('img');
    assert.equal(await imgs.count(), 1, 'only the stored image is loaded; other URLs are placeholders');
    assert.equal(await imgs.getAttribute('src'), `data:image/png;base64,${PNG_1PX}`);
    assert.equal(await row.getByRole('img', { name: 'Attached image (not available)' }).count(), 2);
    await p.page.screenshot({ path: `${SHOTS}/mentions-sent-dark.png` });
  });

  it('an image file the agent viewed shows as a thumbnail in the tool result', async () => {
    const ref = `logbook-image:${'d'.repeat(64)}.png`;
    const action = {
      ...editAction(eid(3), 'shot.png', '', ''),
      action: { kind: 'FileEditorAction', command: 'view', path: 'shot.png' },
      security_risk: 'LOW',
      summary: 'View shot.png',
    };
    const observation = {
      ...editObservation(eid(4), eid(3), 'shot.png', '', ''),
      observation: {
        kind: 'FileEditorObservation',
        content: [
          { type: 'text', text: 'The image shot.png (image/png, 69 bytes):' },
          { type: 'image', image_urls: [ref] },
        ],
        is_error: false,
        command: 'view',
        path: 'shot.png',
        prev_exist: true,
      },
    };
    await p.clearPosted();
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [
        { seq: 1, event: action },
        { seq: 2, event: observation },
      ],
    });
    await p.settle();
    const card = p.page.locator('article.row').last();
    const toggle = card.getByRole('button', { expanded: false }).first();
    if ((await card.locator('.generic-result').count()) === 0 && (await toggle.count()) > 0)
      await toggle.click();
    await card.locator('.generic-result').waitFor();
    assert.deepEqual(
      (await p.posted()).filter((m) => m.type === 'loadImage'),
      [{ type: 'loadImage', conversationId: CONVERSATION_ID, url: ref }],
    );
    await p.host({ type: 'image', url: ref, dataUrl: `data:image/png;base64,${PNG_1PX}` });
    await p.settle();
    assert.equal(
      await card.locator('.generic-result img').getAttribute('src'),
      `data:image/png;base64,${PNG_1PX}`,
    );
  });

  it('looks right at 300 px in Light, Dark and High Contrast', async () => {
    for (const theme of ['light', 'dark', 'high-contrast']) {
      const q = await Panel.open(h, { theme });
      await q.showConversation([{ seq: 0, event: userMessage(eid(1), 'hello') as ViewEvent['event'] }]);
      const input = q.page.getByRole('textbox', { name: 'Message to the agent' });
      await input.click();
      await q.page.keyboard.type('@a');
      await q.page.evaluate(`(() => {
        const bytes = Uint8Array.from(atob('${PNG_1PX}'), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'screenshot-of-the-broken-page.png', { type: 'image/png' }));
        document.querySelector('.composer-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      })()`);
      let requestId = -1;
      for (let i = 0; i < 100 && requestId < 0; i++) {
        const m = (await q.posted()).filter((x) => x.type === 'mentionQuery').at(-1);
        if (m?.type === 'mentionQuery') requestId = m.requestId;
        else await new Promise((r) => setTimeout(r, 20));
      }
      await q.host({
        type: 'mentionResults',
        requestId,
        items: [
          ...ITEMS,
          {
            kind: 'file',
            label: 'packages/very-long-package-name/src/deeply/nested/folder/component.tsx',
            path: 'x',
          },
          { kind: 'terminal', label: 'Terminal', detail: 'output of npm test' },
          {
            kind: 'resource',
            label: 'Architecture decision records',
            detail: 'MCP “docs” · The team’s decision records, newest first',
            path: 'docs://adr/index',
            server: 'docs',
          },
        ],
      });
      await q.settle();
      const width = await q.page.evaluate('document.documentElement.scrollWidth');
      assert.ok((width as number) <= 300, `no horizontal overflow in ${theme} (${String(width)} px)`);
      await q.page.screenshot({ path: `${SHOTS}/mentions-${theme}.png` });
      // Evaluated through the DevTools protocol, which the page's CSP does not govern.
      await q.page.evaluate(AXE);
      const found = (await q.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
      };
      const serious = found.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      assert.deepEqual(serious, [], `${theme}: axe`);
      assert.deepEqual(q.errors, []);
      await q.page.close();
    }
  });
});
