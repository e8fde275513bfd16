// Delegated agents nested in the chat: a grandchild's card sits under its parent's `delegate` step,
// the parent's card opens by itself while the grandchild asks, and the grandchild's own Confirm
// answers exactly its batch. A reveal from the host (a click in the Conversations view) scrolls to
// the delegation, opens the chain of cards and focuses the grandchild's.
import assert from 'node:assert/strict';
import type { ChildAgent, EventJson, ViewEvent } from '../../src/protocol/messages';
import {
  agentMessage,
  CONVERSATION_ID,
  eid,
  makeHeader,
  terminalAction,
  userMessage,
} from './harness/events';
import { type Harness, Panel, startHarness } from './support';

const LEAD = eid(1, 'aaaa');
const GRAND = eid(2, 'bbbb');
const MAIN_DELEGATION = eid(10);
const LEAD_DELEGATION = eid(11);
const GRAND_ACTION = eid(12);

function delegateAction(id: string, agent: string, task: string): EventJson {
  const base = terminalAction(id, 'unused');
  const args = { command: 'delegate', ids: ['t'], agent_types: [agent], tasks: { t: task } };
  return {
    ...base,
    action: { kind: 'DelegateAction', ...args },
    tool_name: 'delegate',
    tool_call: { id: `call-${id}`, name: 'delegate', arguments: JSON.stringify(args), origin: 'completion' },
    summary: `Delegate to ${agent}`,
  };
}

function child(over: Partial<ChildAgent> & Pick<ChildAgent, 'conversationId'>): ChildAgent {
  return {
    parentEventId: null,
    agentName: 'lead',
    branch: 'main.lead.1',
    task: 'Split the work.',
    status: 'waiting_for_confirmation',
    cost: 0,
    tokens: 0,
    pendingActionIds: [],
    pendingRisks: [],
    ...over,
  };
}

const lead = child({
  conversationId: LEAD,
  parentConversationId: CONVERSATION_ID,
  parentEventId: MAIN_DELEGATION,
});
const grand = (pending: string[]) =>
  child({
    conversationId: GRAND,
    parentConversationId: LEAD,
    parentEventId: LEAD_DELEGATION,
    agentName: 'explore',
    branch: 'main.lead.1.explore.1',
    task: 'Read the host name.',
    pendingActionIds: pending,
    status: pending.length ? 'waiting_for_confirmation' : 'finished',
  });

const ev = (seq: number, event: EventJson): ViewEvent => ({ seq, event: event as ViewEvent['event'] });

/** What the page's focused element offers (the tests' lib has no DOM types). */
interface FocusedElement {
  closest(selector: string): { getAttribute(name: string): string | null } | null;
}

describe('webview: nested delegated agents', function () {
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

  async function sendChildren(): Promise<void> {
    await p.host({
      type: 'childEvents',
      conversationId: CONVERSATION_ID,
      childId: LEAD,
      events: [ev(1, delegateAction(LEAD_DELEGATION, 'explore', 'Read the host name.'))],
    });
    await p.host({
      type: 'childEvents',
      conversationId: CONVERSATION_ID,
      childId: GRAND,
      events: [ev(1, terminalAction(GRAND_ACTION, 'cat /etc/hostname', { risk: 'MEDIUM' }))],
    });
    await p.settle();
  }

  const card = (id: string) => p.page.locator(`li.delegated-agent[data-child="${id}"]`);

  it("nests the grandchild under the lead's delegate step, open while it asks; its Confirm answers its batch", async () => {
    await p.showConversation(
      [
        ev(0, userMessage(eid(9), 'Find the host name')),
        ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split')),
      ],
      makeHeader({ status: 'waiting_for_confirmation', children: [lead, grand([GRAND_ACTION])] }),
    );
    await sendChildren();
    assert.equal(await card(LEAD).count(), 1);
    // Only under the lead's step, not beside the lead.
    assert.equal(await card(LEAD).locator(`li.delegated-agent[data-child="${GRAND}"]`).count(), 1);
    assert.equal(await p.page.locator(`ul.delegated > li.delegated-agent[data-child="${GRAND}"]`).count(), 1);
    assert.equal(await card(LEAD).locator('> .delegated-head').getAttribute('aria-expanded'), 'true');
    assert.match((await card(LEAD).getAttribute('class')) ?? '', /pending/);
    // The lead has no batch of its own: one Confirm, the grandchild's.
    const confirms = p.page.getByRole('button', { name: /^Confirm main\./ });
    assert.equal(await confirms.count(), 1);
    await p.page.getByRole('button', { name: 'Confirm main.lead.1.explore.1' }).click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'approve',
      conversationId: CONVERSATION_ID,
      actionIds: [GRAND_ACTION],
    });
  });

  it("the grandchild's Reject asks for its reason as the approval bar does, and sends it for its batch", async () => {
    await p.showConversation(
      [ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split'))],
      makeHeader({ status: 'waiting_for_confirmation', children: [lead, grand([GRAND_ACTION])] }),
    );
    await sendChildren();
    await p.page.getByRole('button', { name: 'Reject main.lead.1.explore.1' }).click();
    const reason = card(GRAND).getByRole('textbox', { name: /Reason for rejecting/ });
    assert.equal(await reason.getAttribute('placeholder'), 'e.g. Stay inside the workspace');
    assert.equal(await reason.getAttribute('maxlength'), '10000', 'capped as the protocol caps it');
    assert.ok(
      await reason.evaluate((el) => el === el.ownerDocument.activeElement),
      'the reason box has focus',
    );
    await p.page.keyboard.type('  Stay in the workspace  ');
    await p.page.keyboard.press('Enter');
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'reject',
      conversationId: CONVERSATION_ID,
      actionIds: [GRAND_ACTION],
      reason: 'Stay in the workspace',
    });
  });

  it('a child the user stopped reads “Stopped”, one that escalated “Escalated”, not a raw status', async () => {
    const ended = (id: string, status: string) =>
      child({
        conversationId: id,
        parentConversationId: CONVERSATION_ID,
        parentEventId: MAIN_DELEGATION,
        status,
      });
    await p.showConversation(
      [ev(0, userMessage(eid(9), 'Split it')), ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split'))],
      makeHeader({ status: 'paused', children: [ended(LEAD, 'stopped'), ended(GRAND, 'escalated')] }),
    );
    const label = (id: string) => card(id).locator('.delegated-status-label').first().innerText();
    assert.equal(await label(LEAD), 'Stopped');
    assert.equal(await label(GRAND), 'Escalated');
  });

  it('at a 300 px sidebar the branch and model are read whole, on a line under the name', async () => {
    await p.page.setViewportSize({ width: 300, height: 800 });
    const deep = child({
      conversationId: LEAD,
      parentConversationId: CONVERSATION_ID,
      parentEventId: MAIN_DELEGATION,
      branch: 'main.lead.1',
      model: 'qwen2.5-coder-32b-instruct',
      status: 'running',
    });
    await p.showConversation(
      [ev(0, userMessage(eid(9), 'Split it')), ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split'))],
      makeHeader({ status: 'running', children: [deep] }),
    );
    const box = (sel: string) => card(LEAD).locator(sel).first().boundingBox();
    const [name, branch, model] = await Promise.all([
      box('.delegated-name'),
      box('.delegated-branch'),
      box('.delegated-model'),
    ]);
    assert.ok(name && branch && model);
    assert.ok(branch.y >= name.y + name.height - 1, 'the branch is on the line under the name');
    const cut = await card(LEAD)
      .locator('.delegated-branch')
      .first()
      .evaluate((el) => el.scrollWidth > el.clientWidth);
    assert.equal(cut, false, 'the branch is not cut');
  });

  it('at a 300 px sidebar what a definition did not get is read whole, long names broken', async () => {
    await p.page.setViewportSize({ width: 300, height: 800 });
    const narrowed = [
      'asked for confirmation "never"; its parent\'s is "risky", which it keeps',
      'asked for the hosts very-long-subdomain.internal.example-corporation.com, *, which its parent may not reach',
      'asked for github/search_issues_and_pull_requests_everywhere, which its parent does not have',
    ];
    const greedy = child({
      conversationId: LEAD,
      parentConversationId: CONVERSATION_ID,
      parentEventId: MAIN_DELEGATION,
      agentName: 'greedy',
      status: 'running',
      narrowed,
    });
    await p.showConversation(
      [ev(0, userMessage(eid(9), 'Do it')), ev(1, delegateAction(MAIN_DELEGATION, 'greedy', 'Do it'))],
      makeHeader({ status: 'running', children: [greedy] }),
    );
    const lines = card(LEAD).locator('.delegated-narrowed');
    assert.deepEqual(
      await lines.allInnerTexts(),
      narrowed.map((n) => `greedy ${n}`),
    );
    for (const line of await lines.all())
      assert.equal(
        await line.evaluate((el) => el.scrollWidth > el.clientWidth),
        false,
        'a line is cut or widens the card',
      );
    const wide = Number(await p.page.evaluate('document.documentElement.scrollWidth'));
    assert.ok(wide <= 300, `the panel scrolls sideways (${wide} px)`);
  });

  it('at a 300 px sidebar a handoff’s notice of what it did not get is read whole', async () => {
    await p.page.setViewportSize({ width: 300, height: 800 });
    const narrowed = [
      'asked for the hosts very-long-subdomain.internal.example-corporation.com, which its parent may not reach',
      'asked for github/search_issues_and_pull_requests_everywhere, which its parent does not have',
    ];
    const start = {
      kind: 'ConversationStateUpdateEvent',
      id: eid(20),
      source: 'environment',
      key: 'agent_start',
      value: { agent_name: 'writer', branch: 'main', handoff: true, narrowed },
    } as unknown as EventJson;
    await p.showConversation([ev(0, userMessage(eid(9), 'Hand it over')), ev(1, start)], makeHeader());
    const notice = p.page.locator('.notice', { hasText: 'writer' }).first();
    // A short warning's detail starts open; a click would fold it.
    const toggle = notice.locator('.collapsible-toggle').first();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await p.settle();
    for (const n of narrowed) assert.ok((await notice.innerText()).includes(n), n);
    const wide = Number(await p.page.evaluate('document.documentElement.scrollWidth'));
    assert.ok(wide <= 300, `the panel scrolls sideways (${wide} px)`);
  });

  it('a card the user closed while an agent below it asked stays closed once it is answered', async () => {
    const head = () => card(LEAD).locator('> .delegated-head');
    await p.showConversation(
      [
        ev(0, userMessage(eid(9), 'Find the host name')),
        ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split')),
      ],
      makeHeader({ status: 'waiting_for_confirmation', children: [lead, grand([GRAND_ACTION])] }),
    );
    await sendChildren();
    assert.equal(await head().getAttribute('aria-expanded'), 'true', 'open by itself while asking');
    await head().click();
    await p.settle();
    assert.equal(await head().getAttribute('aria-expanded'), 'false', 'closed by the user');
    await p.host({
      type: 'header',
      header: makeHeader({ status: 'running', children: [{ ...lead, status: 'running' }, grand([])] }),
    });
    await p.settle();
    assert.equal(await head().getAttribute('aria-expanded'), 'false', 'the answer does not reopen it');
    await head().click();
    await p.settle();
    assert.equal(await head().getAttribute('aria-expanded'), 'true', 'and it opens again when asked to');
  });

  it('a reveal scrolls to the delegation, opens the chain and focuses the grandchild’s card', async () => {
    const filler = Array.from({ length: 120 }, (_, i) =>
      ev(i + 2, agentMessage(eid(100 + i), `Step ${i}.\n\nMore.`)),
    );
    await p.showConversation(
      [
        ev(0, userMessage(eid(9), 'Find the host name')),
        ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split')),
        ...filler,
      ],
      makeHeader({ status: 'finished', children: [{ ...lead, status: 'finished' }, grand([])] }),
    );
    await sendChildren();
    assert.equal(await card(GRAND).count(), 0, 'the lead is closed: the grandchild is not shown');
    await p.host({ type: 'revealChild', conversationId: CONVERSATION_ID, childIds: [LEAD, GRAND] });
    // A function, not a string: the page's CSP forbids the eval a string predicate needs.
    await p.page.waitForFunction(
      (id) => {
        const doc = (globalThis as unknown as { document: { activeElement: FocusedElement | null } })
          .document;
        return doc.activeElement?.closest('li.delegated-agent')?.getAttribute('data-child') === id;
      },
      GRAND,
      { timeout: 5_000 },
    );
    assert.equal(await card(LEAD).locator('> .delegated-head').getAttribute('aria-expanded'), 'true');
    const inView = await p.page.evaluate(`(() => {
      const head = document.querySelector('li.delegated-agent[data-child="${GRAND}"] > .delegated-head');
      const feed = document.querySelector('.feed').getBoundingClientRect();
      const r = head.getBoundingClientRect();
      return r.top >= feed.top && r.bottom <= feed.bottom;
    })()`);
    assert.ok(inView, "the grandchild's card is scrolled into the feed's view");
  });

  it('a reveal of an agent the header does not list focuses the nearest card, once', async () => {
    const filler = Array.from({ length: 120 }, (_, i) =>
      ev(i + 2, agentMessage(eid(100 + i), `Step ${i}.\n\nMore.`)),
    );
    const header = makeHeader({ status: 'finished', children: [{ ...lead, status: 'finished' }] });
    await p.showConversation(
      [
        ev(0, userMessage(eid(9), 'Find the host name')),
        ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split')),
        ...filler,
      ],
      header,
    );
    await p.host({ type: 'revealChild', conversationId: CONVERSATION_ID, childIds: [LEAD, GRAND] });
    // A function, not a string: the page's CSP forbids the eval a string predicate needs.
    await p.page.waitForFunction(
      (id) => {
        const doc = (globalThis as unknown as { document: { activeElement: FocusedElement | null } })
          .document;
        return doc.activeElement?.closest('li.delegated-agent')?.getAttribute('data-child') === id;
      },
      LEAD,
      { timeout: 5_000 },
    );
    // Done: the reader scrolls away, and a later header does not pull the view back.
    await p.page.evaluate(
      `(() => { const f = document.querySelector('.feed'); f.scrollTop = f.scrollHeight; })()`,
    );
    await p.settle();
    const bottom = await p.page.evaluate(`document.querySelector('.feed').scrollTop`);
    await p.host({ type: 'header', header: { ...header, cost: 0.05 } });
    await p.settle();
    await p.settle();
    assert.equal(await p.page.evaluate(`document.querySelector('.feed').scrollTop`), bottom);
  });

  it('a reveal for another conversation is ignored', async () => {
    await p.showConversation(
      [
        ev(0, userMessage(eid(9), 'Find the host name')),
        ev(1, delegateAction(MAIN_DELEGATION, 'lead', 'Split')),
      ],
      makeHeader({ status: 'finished', children: [{ ...lead, status: 'finished' }, grand([])] }),
    );
    await sendChildren();
    await p.host({ type: 'revealChild', conversationId: eid(77, 'cccc'), childIds: [LEAD, GRAND] });
    await p.settle();
    await p.settle();
    assert.equal(await card(GRAND).count(), 0);
    assert.equal(await card(LEAD).locator('> .delegated-head').getAttribute('aria-expanded'), 'false');
  });
});
