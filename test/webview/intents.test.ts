// What the user can ask for: messages with attachments, Confirm / Reject / Always allow on exactly
// the pending batch, run controls, "Continue from here", "Open in Editor"; all of it by keyboard too.
import assert from 'node:assert/strict';
import type { ViewEvent } from '../../src/protocol/messages';
import { CONVERSATION_ID, eid, everyKind, makeHeader, terminalAction, userMessage } from './harness/events';
import { type Harness, Panel, startHarness } from './support';

const A1 = eid(101);
const A2 = eid(102);
const batch: ViewEvent[] = [
  { seq: 0, event: userMessage(eid(100), 'Run the tests') as ViewEvent['event'] },
  { seq: 1, event: terminalAction(A1, 'npm test -- --grep math', { risk: 'MEDIUM' }) as ViewEvent['event'] },
  { seq: 2, event: terminalAction(A2, 'git status --short', { risk: 'LOW' }) as ViewEvent['event'] },
];
const waiting = makeHeader({ status: 'waiting_for_confirmation', pendingActionIds: [A1, A2] });

describe('webview: intents', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness()));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });

  const last = async () => (await p.posted()).at(-1);
  const focused = () =>
    p.page.evaluate(
      '(() => { const e = document.activeElement; return e ? (e.getAttribute("aria-label") || e.textContent || e.tagName).trim() : "" })()',
    );

  it('Confirm approves exactly the pending batch, then the buttons go away until a new batch', async () => {
    await p.showConversation(batch, waiting);
    const bar = p.page.getByRole('region', { name: 'Approval needed' });
    assert.match(await bar.innerText(), /2 actions[\s\S]*npm test -- --grep math[\s\S]*git status --short/);
    assert.equal(await p.page.locator('.pending-badge').count(), 2);
    await bar.getByRole('button', { name: 'Confirm' }).click();
    assert.deepEqual(await last(), { type: 'approve', conversationId: CONVERSATION_ID, actionIds: [A1, A2] });
    assert.equal(await bar.count(), 0, 'decided: the bar is gone');
    await p.host({ type: 'header', header: makeHeader({ status: 'running' }) });
    await p.settle();
    assert.equal(await p.page.locator('.pending-badge').count(), 0);
    await p.host({
      type: 'header',
      header: makeHeader({ status: 'waiting_for_confirmation', pendingActionIds: [A2] }),
    });
    await p.settle();
    await bar.getByRole('button', { name: 'Confirm' }).click();
    assert.deepEqual(await last(), { type: 'approve', conversationId: CONVERSATION_ID, actionIds: [A2] });
  });

  it('Reject asks for an optional reason inline; Escape cancels, Enter sends', async () => {
    await p.showConversation(batch, waiting);
    const bar = p.page.getByRole('region', { name: 'Approval needed' });
    await bar.getByRole('button', { name: 'Reject…' }).click();
    const reason = bar.getByRole('textbox', { name: /Reason for rejecting/ });
    assert.ok(
      await reason.evaluate((el) => el === el.ownerDocument.activeElement),
      'the reason box has focus',
    );
    await reason.press('Escape');
    assert.equal(await reason.count(), 0);
    assert.equal(await focused(), 'Reject…', 'focus returns to Reject');
    await p.page.keyboard.press('Enter');
    await p.page.keyboard.type('Only run the unit tests');
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), {
      type: 'reject',
      conversationId: CONVERSATION_ID,
      actionIds: [A1, A2],
      reason: 'Only run the unit tests',
    });
    assert.equal(await bar.count(), 0);
  });

  it("Always allow suggests the command's first words, editable, for that action", async () => {
    await p.showConversation(batch, waiting);
    const bar = p.page.getByRole('region', { name: 'Approval needed' });
    await bar.getByRole('button', { name: /Always allow commands like: npm test/ }).click();
    const prefix = bar.getByRole('textbox', { name: /Always allow commands starting with/ });
    assert.equal(await prefix.inputValue(), 'npm test');
    await prefix.fill('');
    assert.ok(
      await bar.getByRole('button', { name: 'Allow and run' }).isDisabled(),
      'an empty rule cannot be sent',
    );
    await prefix.fill('npm test -- --grep');
    await prefix.press('Enter');
    assert.deepEqual(await last(), {
      type: 'alwaysAllow',
      conversationId: CONVERSATION_ID,
      actionId: A1,
      commandPrefix: 'npm test -- --grep',
    });
  });

  it('keyboard only: type and send, then reach Confirm by Tab and approve', async () => {
    await p.showConversation(batch, waiting);
    await p.clearPosted();
    // From the top of the document, Tab until the message box has focus.
    await p.page.evaluate('document.activeElement && document.activeElement.blur()');
    for (let i = 0; i < 40 && (await focused()) !== 'Message to the agent'; i++)
      await p.page.keyboard.press('Tab');
    assert.equal(await focused(), 'Message to the agent');
    await p.page.keyboard.type('first line');
    await p.page.keyboard.press('Shift+Enter');
    await p.page.keyboard.type('second line');
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), {
      type: 'sendMessage',
      text: 'first line\nsecond line',
      attachActiveFile: false,
      attachSelection: false,
    });
    assert.equal(await p.page.getByRole('textbox', { name: 'Message to the agent' }).inputValue(), '');
    // Back up to the approval bar: Reject… then Confirm come right before the message box.
    await p.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'Reject…');
    await p.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'Confirm');
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), { type: 'approve', conversationId: CONVERSATION_ID, actionIds: [A1, A2] });
    assert.equal(await focused(), 'Message to the agent', 'focus moves to the message box once decided');
  });

  it('every control has an accessible name', async () => {
    await p.showConversation(everyKind().events, waiting);
    const unnamed = await p.page.evaluate(
      `[...document.querySelectorAll('button, textarea, input, [tabindex="0"]')].filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.closest('label') || e.tagName === 'PRE' || e.classList.contains('diff-body'))).map(e => e.outerHTML.slice(0, 80))`,
    );
    assert.deepEqual(unnamed, []);
  });

  it('sends messages with the attachment flags', async () => {
    await p.showConversation(batch);
    await p.page.getByRole('button', { name: 'Attach the active file' }).click();
    await p.page.getByRole('button', { name: 'Attach the selection' }).click();
    assert.equal(
      await p.page.getByRole('button', { name: 'Attach the selection' }).getAttribute('aria-pressed'),
      'true',
    );
    const box = p.page.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Explain this');
    await p.page.getByRole('button', { name: 'Send (Enter)' }).click();
    assert.deepEqual(await last(), {
      type: 'sendMessage',
      text: 'Explain this',
      attachActiveFile: true,
      attachSelection: true,
    });
    assert.equal(
      await p.page.getByRole('button', { name: 'Attach the active file' }).getAttribute('aria-pressed'),
      'false',
    );
    await box.press('Enter');
    assert.equal((await last())?.type, 'sendMessage', 'an empty box sends nothing');
    assert.equal((await p.posted()).filter((m) => m.type === 'sendMessage').length, 1);
  });

  it('Pause, Resume, Stop and Open in Editor post their intents', async () => {
    await p.showConversation(batch, makeHeader({ status: 'running' }));
    await p.page.getByRole('button', { name: 'Pause' }).click();
    assert.deepEqual(await last(), { type: 'pause', conversationId: CONVERSATION_ID });
    await p.page.getByRole('button', { name: 'Stop' }).click();
    assert.deepEqual(await last(), { type: 'stop', conversationId: CONVERSATION_ID });
    await p.page.getByRole('button', { name: 'Open in Editor' }).click();
    assert.deepEqual(await last(), { type: 'openInEditor' });
    await p.host({ type: 'header', header: makeHeader({ status: 'paused' }) });
    await p.page.getByRole('button', { name: 'Resume' }).click();
    assert.deepEqual(await last(), { type: 'resume', conversationId: CONVERSATION_ID });
    await p.host({ type: 'header', header: makeHeader({ status: 'finished' }) });
    assert.ok(await p.page.getByRole('button', { name: 'Stop' }).isDisabled());
  });

  it('the model button names the model and opens the model picker, by mouse and keyboard', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1">gpt-4o';
    await p.showConversation(batch, makeHeader({ model: { name: hostile, provider: 'openai' } }));
    const button = p.page.getByRole('button', { name: /^Model: .*Choose another model$/ });
    assert.equal(await button.locator('.model-name').innerText(), hostile, 'shown as text');
    assert.equal(await p.page.evaluate('window.__pwned'), undefined);
    await button.click();
    assert.deepEqual(await last(), { type: 'selectModel' });
    await p.clearPosted();
    await button.focus();
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), { type: 'selectModel' });
    await p.host({
      type: 'header',
      header: makeHeader({ model: { name: 'copilot-gpt-4o', provider: 'vscode' } }),
    });
    assert.match((await button.getAttribute('title')) ?? '', /copilot-gpt-4o, an editor model/);
  });

  it('a conversation an external agent runs names the agent, with no model picker to open', async () => {
    await p.showConversation(batch, makeHeader({ model: { name: 'gemini', provider: 'acp' } }));
    const agent = p.page.locator('.model-button');
    assert.equal(await agent.locator('.model-name').innerText(), 'gemini');
    assert.match((await agent.getAttribute('title')) ?? '', /^Agent: gemini \(an external ACP agent\)/);
    assert.equal(await p.page.getByRole('button', { name: /Choose another model/ }).count(), 0);
    await agent.click();
    assert.equal((await p.posted()).filter((m) => (m as { type?: string }).type === 'selectModel').length, 0);
  });

  it('"Continue from here" forks from that event', async () => {
    await p.showConversation(batch);
    const row = p.row('ActionEvent').nth(1);
    await row.hover();
    await row.getByRole('button', { name: 'Continue from here' }).click();
    assert.deepEqual(await last(), { type: 'forkFrom', conversationId: CONVERSATION_ID, eventId: A2 });
  });

  it('a read-only conversation offers no approval and no composer', async () => {
    await p.showConversation(batch, makeHeader({ readOnly: true, pendingActionIds: [A1, A2] }));
    assert.equal(await p.page.getByRole('region', { name: 'Approval needed' }).count(), 0);
    assert.ok(await p.page.getByRole('textbox', { name: 'Message to the agent' }).isDisabled());
    assert.equal(await p.page.getByRole('button', { name: 'Pause' }).count(), 0);
  });

  it('the header shows what Verify Conversation last found: no badge before, then verified, then broken', async () => {
    await p.showConversation(batch);
    const badge = p.page.locator('.badge.signature');
    assert.equal(await badge.count(), 0);
    await p.host({ type: 'header', header: makeHeader({ signature: 'verified' }) });
    await badge.getByText('Verified').waitFor();
    await p.host({ type: 'header', header: makeHeader({ signature: 'broken' }) });
    await badge.getByText('Broken').waitFor();
    assert.match((await badge.getAttribute('title')) ?? '', /changed, removed, inserted or reordered/);
  });

  it('in an editor tab there is no "Open in Editor"', async () => {
    const tab = await Panel.open(h, { surface: 'editor' });
    await tab.showConversation(batch);
    assert.equal(await tab.page.getByRole('button', { name: 'Open in Editor' }).count(), 0);
    await tab.page.close();
  });
});
