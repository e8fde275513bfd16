import * as assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Conversation } from '../../../src/core/agent/conversation';
import { editorContextText } from '../../../src/core/attachments/attachment-text';
import { textOf } from '../../../src/core/events';
import { createHarness, type Harness } from '../../support/agent-harness';
import { DEMO_EXPLAIN_TASK, DEMO_TASK, demoReply } from '../../../src/host/node/demo-model/demo-model';

const SAMPLE = join(__dirname, '..', '..', 'fixtures', 'workspace');

/** The agent's last words: the finish message or its final plain reply. */
async function lastAgentWords(c: Conversation): Promise<string> {
  const events = await c.events();
  for (const e of [...events].reverse()) {
    if (e.kind === 'ActionEvent' && e.tool_name === 'finish') return String(e.action?.message ?? '');
    if (e.kind === 'MessageEvent' && e.source === 'agent') return textOf(e.llm_message.content, '\n');
  }
  return '';
}

/** Runs until the agent stops, answering each confirmation with `answer`; returns the ids asked about. */
async function runAnswering(c: Conversation, answer: (id: string) => 'approve' | string) {
  const asked: string[] = [];
  let status = await c.run();
  while (status === 'waiting_for_confirmation') {
    const [action] = c.awaitingConfirmation();
    asked.push(action!.tool_call_id);
    const verdict = answer(action!.tool_call_id);
    if (verdict === 'approve') await c.approve();
    else await c.reject(verdict);
    status = await c.run();
  }
  return { status, asked };
}

describe('the npm start demo model', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness(
      { name: 'demo', turns: [] },
      { confirmationMode: 'risky' },
      { respond: demoReply },
    );
    cpSync(SAMPLE, h.workspace, { recursive: true });
  });
  afterEach(async () => h.close());

  it('walks through the task: plans, runs the tests, reads, asks before editing, finishes once confirmed', async () => {
    const c = await h.open();
    await c.sendMessage(DEMO_TASK);
    const { status, asked } = await runAnswering(c, () => 'approve');
    assert.equal(status, 'finished');
    assert.deepEqual(asked, ['call_demo_test_1', 'call_demo_edit_1']);
    assert.deepEqual(
      c.state.tasks.map((t) => t.status),
      ['done', 'done', 'done'],
      'the task list is kept up to date to the end',
    );
    assert.match(readFileSync(join(h.workspace, 'src', 'math.js'), 'utf8'), /function subtract/);
    assert.match(await lastAgentWords(c), /now exports subtract/);
  });

  it('answers a rejected edit with the reason and does not claim the edit was made', async () => {
    const c = await h.open();
    await c.sendMessage(DEMO_TASK);
    const { status } = await runAnswering(c, (id) =>
      id.startsWith('call_demo_edit') ? 'Call it minus instead' : 'approve',
    );
    assert.equal(status, 'finished');
    const words = await lastAgentWords(c);
    assert.match(words, /left src\/math\.js unchanged/);
    assert.match(words, /Call it minus instead/);
    assert.doesNotMatch(words, /now exports subtract|Done\./);
    assert.doesNotMatch(readFileSync(join(h.workspace, 'src', 'math.js'), 'utf8'), /subtract/);
  });

  it('a second task in the same conversation gets a short reply, not the end of a script', async () => {
    const c = await h.open();
    await c.sendMessage(DEMO_TASK);
    await runAnswering(c, () => 'approve');
    await c.sendMessage('Now add multiply()');
    const { status, asked } = await runAnswering(c, () => 'approve');
    assert.equal(status, 'finished');
    assert.deepEqual(asked, [], 'nothing more to confirm');
    const words = await lastAgentWords(c);
    assert.match(words, /no script for "Now add multiply\(\)"/);
    assert.match(words, /Set API Key/);
    assert.doesNotMatch(words, /script has ended/);
  });

  it('the walkthrough again in a new conversation sees subtract() is already there', async () => {
    const first = await h.open();
    await first.sendMessage(DEMO_TASK);
    await runAnswering(first, () => 'approve');
    const second = await h.open();
    await second.sendMessage(DEMO_TASK);
    const { status, asked } = await runAnswering(second, () => 'approve');
    assert.equal(status, 'finished');
    assert.deepEqual(asked, ['call_demo_test_1'], 'no second edit is proposed');
    assert.match(await lastAgentWords(second), /already has subtract\(\)/);
  });

  it('a task it has no script for says what the demo shows and how to connect a real model', async () => {
    const c = await h.open();
    await c.sendMessage('Refactor the billing module', {
      attachments: [editorContextText({ path: 'src/billing.js' })],
    });
    const { status, asked } = await runAnswering(c, () => 'approve');
    assert.equal(status, 'finished');
    assert.deepEqual(asked, []);
    const words = await lastAgentWords(c);
    assert.match(words, /no script for "Refactor the billing module"/);
    assert.match(words, new RegExp(DEMO_TASK));
    assert.match(words, /logbook\.model\.baseURL/);
  });

  it('in plan mode it only plans and waits; Approve plan carries the plan out in act mode', async () => {
    const c = await h.open();
    await c.setMode('plan');
    await c.sendMessage(DEMO_TASK);
    const planned = await runAnswering(c, () => 'approve');
    assert.equal(planned.status, 'finished');
    assert.deepEqual(planned.asked, [], 'nothing asks to run in plan mode');
    const kinds = (await c.events()).flatMap((e) => (e.kind === 'ActionEvent' ? [e.tool_name] : []));
    assert.deepEqual(kinds, ['task_tracker'], 'no test run, no edit while planning');
    assert.deepEqual(
      c.state.tasks.map((t) => t.status),
      ['todo', 'todo', 'todo'],
      'nothing is in progress in plan mode',
    );
    assert.match(await lastAgentWords(c), /Approve plan/);
    const events = await c.events();
    const intro = events.find((e) => e.kind === 'ActionEvent');
    assert.ok(intro?.kind === 'ActionEvent');
    assert.match(textOf(intro.thought), /demo model/, 'the plan says it comes from the demo');

    await c.approvePlan();
    const acted = await runAnswering(c, () => 'approve');
    assert.equal(acted.status, 'finished');
    assert.deepEqual(acted.asked, ['call_demo_test_2', 'call_demo_edit_2']);
    assert.match(readFileSync(join(h.workspace, 'src', 'math.js'), 'utf8'), /function subtract/);
    assert.deepEqual(
      c.state.tasks.map((t) => t.status),
      ['done', 'done', 'done'],
    );
    assert.doesNotMatch(await lastAgentWords(c), /no script/);
  });

  it('"Explain @src/math.js" reads the file and lists what it finds, running and changing nothing', async () => {
    const c = await h.open();
    await c.sendMessage(DEMO_EXPLAIN_TASK);
    const { status, asked } = await runAnswering(c, () => 'approve');
    assert.equal(status, 'finished');
    assert.deepEqual(asked, []);
    const tools = (await c.events()).flatMap((e) => (e.kind === 'ActionEvent' ? [e.tool_name] : []));
    assert.deepEqual(tools, ['file_editor']);
    const words = await lastAgentWords(c);
    assert.match(words, /defines `add\(a, b\)`/);
    assert.match(words, /exports `\{ add \}`/);
    assert.doesNotMatch(readFileSync(join(h.workspace, 'src', 'math.js'), 'utf8'), /subtract/);
  });

  it('a question that merely mentions math does not start the subtract script', async () => {
    const c = await h.open();
    await c.sendMessage('Is the math in this project right?');
    const { status, asked } = await runAnswering(c, () => 'approve');
    assert.equal(status, 'finished');
    assert.deepEqual(asked, []);
    assert.match(await lastAgentWords(c), /no script for "Is the math in this project right\?"/);
  });

  it('a file it cannot read is said so, whole sentences only', async () => {
    const c = await h.open();
    await c.sendMessage('Explain src/missing.js');
    await runAnswering(c, () => 'approve');
    const words = await lastAgentWords(c);
    assert.match(words, /^I could not read src\/missing\.js: .*[.…]$/);
  });
});
