// Plan mode in the chat: a task_tracker plan is a checklist card (not a raw tool card); the newest
// plan of a conversation in plan mode offers Approve plan, Edit (inline) and Request changes; the
// composer's Plan/Act toggle shows the mode and switches it, by mouse and keyboard. Checked with axe
// in the dark, light and high-contrast themes at a 300 px wide sidebar, with screenshots.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import {
  CONVERSATION_ID,
  eid,
  makeHeader,
  terminalAction,
  terminalObservation,
  text,
  userMessage,
} from './harness/events';
import { type Harness, Panel, ROOT, SHOTS, startHarness } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

function planAction(
  id: string,
  tasks: { title: string; notes?: string; status?: string }[],
  thought = '',
): EventJson {
  const args = { command: 'plan', task_list: tasks };
  return {
    kind: 'ActionEvent',
    id,
    timestamp: '2026-01-01T00:00:05Z',
    source: 'agent',
    thought: text(thought),
    reasoning_content: null,
    action: { kind: 'TaskTrackerAction', ...args },
    tool_name: 'task_tracker',
    tool_call_id: `call-${id}`,
    tool_call: {
      id: `call-${id}`,
      name: 'task_tracker',
      arguments: JSON.stringify(args),
      origin: 'completion',
    },
    llm_response_id: `resp-${id}`,
    security_risk: 'UNKNOWN',
    summary: null,
  };
}

const PLAN = eid(201);
const OLD_PLAN = eid(200);
const events: ViewEvent[] = [
  { seq: 0, event: userMessage(eid(100), 'Plan the input validation for add()') as ViewEvent['event'] },
  { seq: 1, event: planAction(OLD_PLAN, [{ title: 'Look around' }]) as ViewEvent['event'] },
  {
    seq: 2,
    event: planAction(PLAN, [
      { title: 'Read src/math.js and its tests', notes: 'find every caller of add()', status: 'done' },
      { title: 'Reject non-numbers in add() with a TypeError', notes: 'keep mul() as it is' },
      { title: 'Add a test for add("1", 2) and run npm test' },
    ]) as ViewEvent['event'],
  },
];
const planning = makeHeader({ status: 'finished', mode: 'plan', planAwaitsApproval: true });

describe('webview: plan mode', function () {
  this.timeout(90_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 760 })));
  after(async () => h?.close());
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });
  const last = async () => (await p.posted()).at(-1);
  const card = () => p.page.locator('.plan-card').last();

  it('shows a plan as a checklist and approves it as shown', async () => {
    p = await Panel.open(h);
    await p.showConversation(events, planning);
    assert.equal(await p.page.locator('.plan-card').count(), 2, 'both plans are checklists');
    assert.equal(await p.page.locator('.card.action').count(), 0, 'no raw tool card for a plan');
    const items = card().getByRole('list', { name: 'Plan steps' }).getByRole('listitem');
    assert.equal(await items.count(), 3);
    assert.match(
      await items.nth(0).innerText(),
      /Read src\/math\.js and its tests[\s\S]*\(done\)[\s\S]*find every caller/,
    );
    assert.match(await card().innerText(), /3 steps, 1 done/);
    // Only the newest plan can be approved.
    assert.equal(await p.page.getByRole('button', { name: 'Approve plan' }).count(), 1);
    await card().getByRole('button', { name: 'Approve plan' }).click();
    assert.deepEqual(await last(), {
      type: 'approvePlan',
      conversationId: CONVERSATION_ID,
      tasks: [
        { title: 'Read src/math.js and its tests', notes: 'find every caller of add()', status: 'done' },
        { title: 'Reject non-numbers in add() with a TypeError', notes: 'keep mul() as it is' },
        { title: 'Add a test for add("1", 2) and run npm test', notes: '' },
      ],
    });
    // Once the conversation is in act mode, the plan is a plain checklist.
    await p.host({ type: 'header', header: makeHeader({ status: 'running', mode: 'act' }) });
    await p.settle();
    assert.equal(await p.page.getByRole('button', { name: 'Approve plan' }).count(), 0);
    assert.equal(await card().getByRole('listitem').count(), 3);
  });

  it("shows the plan's thought; an older plan is one line; marks follow the log, not the recorded list", async () => {
    p = await Panel.open(h);
    const working = [
      { title: 'Run the tests', status: 'in_progress' },
      { title: 'Add subtract()', status: 'todo' },
    ];
    const withThought: ViewEvent[] = [
      events[0]!,
      { seq: 1, event: planAction(OLD_PLAN, [{ title: 'Look around' }]) as ViewEvent['event'] },
      {
        seq: 2,
        event: planAction(
          PLAN,
          working,
          "This is Logbook's demo model, so it follows a script.",
        ) as ViewEvent['event'],
      },
    ];
    const step1 = () => card().getByRole('listitem').first();
    // Plan mode: nothing runs, so no step is in progress; the header says the plan waits.
    await p.showConversation(withThought, planning);
    await card().getByText("This is Logbook's demo model, so it follows a script.").waitFor();
    assert.equal(await step1().getAttribute('data-status'), 'todo');
    assert.equal(await p.page.locator('.header [role="status"]').innerText(), 'Plan awaits approval');
    assert.equal(await p.page.getByText('Finished', { exact: true }).count(), 0);
    const older = p.page.locator('.plan-card.superseded');
    assert.equal(await older.count(), 1);
    assert.match(await older.innerText(), /0 of 1 done, updated below/);
    assert.equal(await older.getByRole('listitem').count(), 0, 'an older plan shows no steps');
    // Acting on it: in progress while it runs.
    await p.host({ type: 'header', header: makeHeader({ status: 'running', mode: 'act' }) });
    await p.settle();
    assert.equal(await step1().getAttribute('data-status'), 'in_progress');
    assert.match(await step1().innerText(), /\(in progress\)/);
    // The run ended without marking it done: not done, never "in progress" under a finished task.
    await p.host({ type: 'header', header: makeHeader({ status: 'finished', mode: 'act' }) });
    await p.settle();
    assert.equal(await step1().getAttribute('data-status'), 'not_done');
    assert.equal(
      await card()
        .getByText(/in progress/)
        .count(),
      0,
    );
    assert.equal(await p.page.locator('.header [role="status"]').innerText(), 'Finished');
  });

  it('a step whose action ran is marked done, whatever the plan last said', async () => {
    p = await Panel.open(h);
    const read = eid(300);
    const edit = eid(302);
    const acted: ViewEvent[] = [
      { seq: 0, event: userMessage(eid(100), 'Add subtract()') as ViewEvent['event'] },
      {
        seq: 1,
        event: planAction(PLAN, [
          { title: 'Read src/math.js', status: 'in_progress' },
          { title: 'Add subtract()' },
        ]) as ViewEvent['event'],
      },
      { seq: 2, event: { ...terminalAction(read, 'cat src/math.js'), summary: 'Read src/math.js' } },
      { seq: 3, event: terminalObservation(eid(301), read, 'function add(a, b) {}', 0) },
      { seq: 4, event: { ...terminalAction(edit, 'true'), summary: 'Add subtract()' } },
      {
        seq: 5,
        event: {
          kind: 'UserRejectObservation',
          id: eid(303),
          source: 'user',
          action_id: edit,
          tool_name: 'terminal',
          tool_call_id: `call-${edit}`,
          rejection_reason: 'not now',
        },
      },
    ];
    // In each theme, pictured at 300 px: the marks are read by eye too.
    for (const theme of ['light', 'dark', 'high-contrast']) {
      assert.deepEqual(p.errors, []);
      await p.page.close();
      p = await Panel.open(h, { theme });
      await p.showConversation(acted, makeHeader({ status: 'finished', mode: 'act' }));
      const items = p.row('ActionEvent').first().locator('.plan-item');
      await items.first().waitFor();
      assert.deepEqual(
        await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-status'))),
        ['done', 'todo'],
        `the read ran; the rejected step did not (${theme})`,
      );
      await p.settle();
      await p.page.screenshot({ path: join(SHOTS, `plan-done-after-rejection-${theme}.png`) });
    }
  });

  it('the header says the plan awaits approval exactly when the host says so', async () => {
    p = await Panel.open(h);
    const status = () => p.page.locator('.header [role="status"]').innerText();
    // The plan this panel loaded was emptied since (no tasks in the log's state): nothing to approve.
    await p.showConversation(events, makeHeader({ status: 'finished', mode: 'plan' }));
    assert.equal(await status(), 'Finished');
    // A plan the panel has not loaded (older than the events it shows) still waits.
    assert.deepEqual(p.errors, []);
    await p.page.close();
    p = await Panel.open(h);
    await p.showConversation(
      [events[0]!],
      makeHeader({ status: 'idle', mode: 'plan', planAwaitsApproval: true }),
    );
    assert.equal(await p.page.locator('.plan-card').count(), 0);
    assert.equal(await status(), 'Plan awaits approval');
  });

  it('edits the plan inline by keyboard, then approves the edited plan', async () => {
    p = await Panel.open(h);
    await p.showConversation(events, planning);
    await card().getByRole('button', { name: 'Edit' }).click();
    const title2 = card().getByRole('textbox', { name: 'Step 2 title' });
    await title2.fill('Reject non-numbers and NaN in add()');
    await card().getByRole('button', { name: 'Remove step 3' }).click();
    await card().getByRole('button', { name: 'Add step' }).press('Enter');
    await card().getByRole('textbox', { name: 'Step 3 title' }).fill('Run npm test');
    await card().getByRole('textbox', { name: 'Step 3 notes' }).fill('all of it');
    await p.page.screenshot({ path: join(SHOTS, 'plan-editing.png') });
    await card().getByRole('button', { name: 'Approve plan' }).focus();
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), {
      type: 'approvePlan',
      conversationId: CONVERSATION_ID,
      tasks: [
        { title: 'Read src/math.js and its tests', notes: 'find every caller of add()', status: 'done' },
        { title: 'Reject non-numbers and NaN in add()', notes: 'keep mul() as it is' },
        { title: 'Run npm test', notes: 'all of it' },
      ],
    });
  });

  it('Request changes goes to the message box; no Approve while running or read-only', async () => {
    p = await Panel.open(h);
    await p.showConversation(events, planning);
    await card().getByRole('button', { name: 'Request changes' }).click();
    const box = p.page.getByRole('textbox', { name: 'Message to the agent' });
    assert.ok(await box.evaluate((el) => el === el.ownerDocument.activeElement));
    assert.match((await box.getAttribute('placeholder')) ?? '', /plan/);
    for (const over of [{ status: 'running' }, { readOnly: true }]) {
      await p.host({ type: 'header', header: makeHeader({ ...planning, ...over }) });
      await p.settle();
      assert.equal(
        await p.page.getByRole('button', { name: 'Approve plan' }).count(),
        0,
        JSON.stringify(over),
      );
    }
  });

  it('the Plan/Act toggle shows the mode and switches it, by keyboard too', async () => {
    p = await Panel.open(h);
    await p.showConversation(events.slice(0, 1), makeHeader({ mode: 'act' }));
    const group = p.page.getByRole('group', { name: 'Agent mode' });
    const plan = group.getByRole('button', { name: 'Plan' });
    const act = group.getByRole('button', { name: 'Act' });
    assert.equal(await act.getAttribute('aria-pressed'), 'true');
    assert.equal(await plan.getAttribute('aria-pressed'), 'false');
    await plan.focus();
    await p.page.keyboard.press('Space');
    assert.deepEqual(await last(), { type: 'setMode', conversationId: CONVERSATION_ID, mode: 'plan' });
    // The toggle follows the log: it shows plan once the header says so.
    await p.host({ type: 'header', header: makeHeader({ mode: 'plan' }) });
    await p.settle();
    assert.equal(await plan.getAttribute('aria-pressed'), 'true');
    await p.clearPosted();
    await plan.click();
    assert.deepEqual(await p.posted(), [], 'choosing the mode it is in sends nothing');

    // No conversation yet: the default comes from the host, the choice goes with the first message.
    await p.host({ type: 'conversation', header: null, defaultMode: 'plan' });
    await p.settle();
    assert.equal(await plan.getAttribute('aria-pressed'), 'true');
    await p.page.getByRole('textbox', { name: 'Message to the agent' }).fill('Look at the tests');
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), {
      type: 'sendMessage',
      text: 'Look at the tests',
      attachActiveFile: false,
      attachSelection: false,
    });
    await act.click();
    await p.page.getByRole('textbox', { name: 'Message to the agent' }).fill('Fix it');
    await p.page.keyboard.press('Enter');
    assert.deepEqual(await last(), {
      type: 'sendMessage',
      text: 'Fix it',
      attachActiveFile: false,
      attachSelection: false,
      mode: 'act',
    });
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`${theme} at 300 px: no serious axe violation; screenshot saved`, async () => {
      p = await Panel.open(h, { theme });
      await p.showConversation(events, planning);
      await card().scrollIntoViewIfNeeded();
      await p.settle();
      await p.page.screenshot({ path: join(SHOTS, `plan-${theme}.png`) });
      await p.page.evaluate(AXE);
      const r = (await p.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
      };
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
      );
      // Nothing in the card or the composer is wider than the panel.
      const overflow = await p.page.evaluate(
        '[...document.querySelectorAll(".plan-card, .composer")].filter(e => e.scrollWidth > e.clientWidth + 1).length',
      );
      assert.equal(overflow, 0);
    });
  }
});
