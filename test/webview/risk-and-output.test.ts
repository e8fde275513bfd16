// Risk labels that mean something, and output that reads like what the terminal settled on: no
// risk badge on tools without side effects, the effective risk with the rule's reason on a pending
// action the rules rate above the model, spinner frames and escape sequences gone from terminal
// output, the finish message once, and output in the editor's foreground.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader, terminalAction, terminalObservation, text } from './harness/events';
import { type Harness, Panel, ROOT, SHOTS, startHarness } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

function toolAction(id: string, tool: string, action: Record<string, unknown>, risk?: string): EventJson {
  return {
    kind: 'ActionEvent',
    id,
    source: 'agent',
    thought: [],
    action: { kind: `${tool}_action`, ...action },
    tool_name: tool,
    tool_call_id: `call-${id}`,
    tool_call: { id: `call-${id}`, name: tool, arguments: JSON.stringify(action), origin: 'completion' },
    llm_response_id: `resp-${id}`,
    ...(risk ? { security_risk: risk } : {}),
  };
}

function observation(id: string, actionId: string, tool: string, output: string): EventJson {
  return {
    kind: 'ObservationEvent',
    id,
    source: 'environment',
    tool_name: tool,
    tool_call_id: `call-${actionId}`,
    action_id: actionId,
    observation: { kind: `${tool}_observation`, content: text(output), is_error: false },
  };
}

const seqd = (events: EventJson[]): ViewEvent[] => events.map((event, seq) => ({ seq, event }));
const card = (p: Panel, hasText: string) =>
  p.page.locator('article[data-kind="ActionEvent"]').filter({ hasText });

describe('webview: risk labels and readable output', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 3_000 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h, { theme: 'light' })));
  afterEach(async () => {
    assert.deepEqual(p.errors, [], 'no uncaught page errors');
    await p.page.close();
  });

  it('tools without side effects show no risk badge; a command the model gave no risk still does', async () => {
    await p.showConversation(
      seqd([
        toolAction(eid(1), 'think', { thought: 'Plan the change first' }),
        toolAction(eid(2), 'task_tracker', { command: 'view' }),
        toolAction(eid(3), 'file_editor', { command: 'view', path: 'src/math.js' }),
        toolAction(eid(4), 'grep', { pattern: 'add' }),
        toolAction(eid(5), 'finish', { message: 'All done here.' }),
        toolAction(eid(6), 'terminal', { command: 'make deploy' }),
      ]),
      makeHeader({ status: 'finished' }),
    );
    for (const hasText of [
      'Plan the change first',
      'task_tracker',
      'src/math.js',
      'grep',
      'All done here.',
    ]) {
      assert.equal(await card(p, hasText).locator('.risk').count(), 0, `no risk badge on "${hasText}"`);
    }
    assert.equal(await card(p, 'make deploy').locator('.risk').innerText(), 'UNKNOWN');
  });

  it('a pending action the rules rate above the model shows the effective risk and the reason in one line', async () => {
    const pending = eid(10);
    await p.showConversation(
      seqd([terminalAction(pending, 'npm test', { summary: 'Run the tests', risk: 'LOW' })]),
      makeHeader({
        status: 'waiting_for_confirmation',
        pendingActionIds: [pending],
        pendingRisks: [
          { actionId: pending, risk: 'MEDIUM', reason: 'npm test runs project scripts or installs packages' },
        ],
      }),
    );
    const c = card(p, 'Run the tests');
    const line = c.locator('.risk-line');
    assert.equal(
      (await line.innerText()).replace(/\s+/g, ' ').trim(),
      "MEDIUM by Logbook's rules: npm test runs project scripts or installs packages (the model said LOW)",
    );
    const box = await line.boundingBox();
    assert.ok(box && box.height < 64, 'the risk and its reason fit a few lines at 300 px');
    assert.equal(
      await c.getByText('LOW', { exact: true }).count(),
      0,
      "the model's lower label is not shown",
    );
  });

  it('the card keeps the rating it asked at after the action ran: no green model badge replaces it', async () => {
    const action = eid(12);
    const reason = 'npm test runs project scripts or installs packages';
    const approved: EventJson = {
      kind: 'ConversationStateUpdateEvent',
      id: eid(13),
      source: 'environment',
      key: 'approved_actions',
      value: { action_ids: [action], risks: { [action]: 'MEDIUM' } },
    };
    const line = () => card(p, 'Run the tests').locator('.risk-line');
    const words = async () => (await line().innerText()).replace(/\s+/g, ' ').trim();
    await p.showConversation(
      seqd([terminalAction(action, 'npm test', { summary: 'Run the tests', risk: 'LOW' })]),
      makeHeader({
        status: 'waiting_for_confirmation',
        pendingActionIds: [action],
        pendingRisks: [{ actionId: action, risk: 'MEDIUM', reason }],
      }),
    );
    const asked = await words();
    // Approved, run, finished: the header no longer lists it.
    await p.host({
      type: 'events',
      conversationId: makeHeader().id,
      events: [
        { seq: 1, event: approved },
        { seq: 2, event: terminalObservation(eid(14), action, 'ok\n', 0) },
      ],
    });
    await p.host({ type: 'header', header: makeHeader({ status: 'finished' }) });
    await p.settle();
    assert.equal(await words(), asked, 'the same rating and reason after it ran');
    assert.equal(await card(p, 'Run the tests').locator('.badge.risk').count(), 0, 'no second badge');
    assert.equal(await card(p, 'Run the tests').getByText('LOW', { exact: true }).count(), 0);

    // Reopened from the log alone (a new window): the approval record still gives the rating and whose.
    const q = await Panel.open(h, { theme: 'light' });
    await q.showConversation(
      seqd([
        terminalAction(action, 'npm test', { summary: 'Run the tests', risk: 'LOW' }),
        approved,
        terminalObservation(eid(14), action, 'ok\n', 0),
      ]),
      makeHeader({ status: 'finished' }),
    );
    const reopened = card(q, 'Run the tests');
    assert.equal(
      (await reopened.locator('.risk-line').innerText()).replace(/\s+/g, ' ').trim(),
      "MEDIUM by Logbook's rules (the model said LOW)",
    );
    assert.equal(await reopened.locator('.badge.risk').count(), 0);
    await q.page.close();
  });

  it('a card Logbook never asked about shows the model’s rating alone, saying it is the model’s', async () => {
    const ran = eid(15);
    await p.showConversation(
      seqd([
        terminalAction(ran, 'ls', { summary: 'List', risk: 'LOW' }),
        terminalObservation(eid(16), ran, 'a.txt\n', 0),
      ]),
      makeHeader({ status: 'finished' }),
    );
    const badge = card(p, 'List').locator('.badge.risk');
    assert.equal(await badge.innerText(), 'LOW');
    assert.match((await badge.getAttribute('title')) ?? '', /as the model rated it/);
    assert.equal(await card(p, 'List').locator('.risk-line').count(), 0);
  });

  it('a pending file edit shows the rules’ reason even when the model gave the same rating', async () => {
    const pending = eid(17);
    await p.showConversation(
      seqd([
        toolAction(
          pending,
          'file_editor',
          { command: 'str_replace', path: 'package.json', old_str: 'a', new_str: 'b' },
          'MEDIUM',
        ),
      ]),
      makeHeader({
        status: 'waiting_for_confirmation',
        pendingActionIds: [pending],
        pendingRisks: [
          {
            actionId: pending,
            risk: 'MEDIUM',
            reason: 'package.json is code you will run: its scripts run on npm test',
            byRules: true,
          },
        ],
      }),
    );
    assert.equal(
      (await card(p, 'package.json').locator('.risk-line').innerText()).replace(/\s+/g, ' ').trim(),
      "MEDIUM by Logbook's rules: package.json is code you will run: its scripts run on npm test (the model said MEDIUM)",
    );
  });

  it('a refused file write says so on its card; a write through a symlink names where the file is', async () => {
    const refused = eid(18);
    const linked = eid(20);
    const fileObservation = (
      id: string,
      actionId: string,
      fields: Record<string, unknown>,
      words: string,
    ) => ({
      ...observation(id, actionId, 'file_editor', words),
      observation: { kind: 'FileEditorObservation', content: text(words), ...fields },
    });
    await p.showConversation(
      seqd([
        toolAction(
          refused,
          'file_editor',
          { command: 'create', path: '../outside/x.txt', file_text: 'x' },
          'LOW',
        ),
        fileObservation(
          eid(19),
          refused,
          {
            is_error: true,
            refused: true,
            path: '/home/u/outside/x.txt',
            real_path: '/home/u/outside/x.txt',
          },
          'Refused: outside the folders the agent may write',
        ),
        toolAction(
          linked,
          'file_editor',
          { command: 'create', path: 'docs/notes.md', file_text: '# notes' },
          'LOW',
        ),
        fileObservation(
          eid(21),
          linked,
          { is_error: false, path: '/ws/docs/notes.md', real_path: '/ws/safe/notes.md' },
          'Created /ws/safe/notes.md',
        ),
      ]),
      makeHeader({ status: 'finished' }),
    );
    assert.equal(
      await card(p, '../outside/x.txt').locator('.file-refused').innerText(),
      'Refused: nothing written',
    );
    assert.equal(await card(p, '../outside/x.txt').locator('.file-real-path').count(), 0);
    assert.equal(
      await card(p, 'docs/notes.md').locator('.file-real-path').innerText(),
      'through a symlink, at /ws/safe/notes.md',
    );
    assert.equal(await card(p, 'docs/notes.md').locator('.file-refused').count(), 0);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`${theme}: the risk line, spinner-free output and the finish card pass axe`, async () => {
      const q = await Panel.open(h, { theme });
      const pending = eid(40);
      const term = eid(41);
      await q.showConversation(
        seqd([
          terminalAction(term, 'npm install', { summary: 'Install' }),
          terminalObservation(eid(42), term, '⠋\r⠙\radded 3 packages\n', 0),
          toolAction(eid(43), 'finish', { message: 'Done.' }),
          terminalAction(pending, 'npm test', { summary: 'Run the tests', risk: 'LOW' }),
        ]),
        makeHeader({
          status: 'waiting_for_confirmation',
          pendingActionIds: [pending],
          pendingRisks: [{ actionId: pending, risk: 'MEDIUM', reason: 'npm test runs project scripts' }],
        }),
      );
      await q.page.screenshot({ path: join(SHOTS, `${theme}-risk-line.png`) });
      await q.page.evaluate(AXE);
      const r = (await q.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
      };
      const serious = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
      );
      await q.page.close();
    });
  }

  it("the task tracker's plan reads as a list of titles, not raw JSON", async () => {
    await p.showConversation(
      seqd([
        toolAction(eid(1), 'task_tracker', {
          command: 'plan',
          task_list: [
            { title: 'Run the tests', notes: 'npm test', status: 'in_progress' },
            { title: 'Add subtract()', notes: '', status: 'todo' },
          ],
        }),
      ]),
      makeHeader({ status: 'running' }),
    );
    // A checklist card (see plan-mode.test.ts), each step with its status for screen readers.
    const plan = p.page.locator('.plan-card');
    assert.deepEqual(await plan.locator('.plan-title').allTextContents(), [
      'Run the tests (in progress)',
      'Add subtract() (to do)',
    ]);
    assert.doesNotMatch(await plan.innerText(), /"title"|"status"/);
  });

  it('the same risk as the model gave shows just the badge', async () => {
    const pending = eid(11);
    await p.showConversation(
      seqd([terminalAction(pending, 'rm -rf build', { summary: 'Clean', risk: 'HIGH' })]),
      makeHeader({
        status: 'waiting_for_confirmation',
        pendingActionIds: [pending],
        pendingRisks: [{ actionId: pending, risk: 'HIGH', reason: 'the model rated it HIGH' }],
      }),
    );
    assert.equal(await card(p, 'Clean').locator('.risk-line').count(), 0);
    assert.equal(await card(p, 'Clean').locator('.risk').innerText(), 'HIGH');
  });

  it('terminal output with spinner frames, cursor controls and the echoed command renders as it settled', async () => {
    const id = eid(20);
    const spun =
      'npm install\n\x1b[?25l⠋\r⠙\r⠹ reify: timing\r\x1b[2K\x1b[1Gadded 3 packages\n' +
      '⠙\n\x1b[32mok\x1b[0m\r\nprogress 10%\rprogress 100%\n';
    await p.showConversation(
      seqd([
        terminalAction(id, 'npm install', { summary: 'Install' }),
        terminalObservation(eid(21), id, spun, 0),
      ]),
      makeHeader({ status: 'finished' }),
    );
    const output = await card(p, 'Install').locator('.output pre').innerText();
    assert.equal(output, 'added 3 packages\nok\nprogress 100%');
    assert.doesNotMatch(output, /[\u2800-\u28ff]/, 'no spinner frame left');
    assert.equal(
      (await card(p, 'Install').innerText()).split('npm install').length - 1,
      1,
      'the command shows once',
    );
  });

  it('the notes for the model after the output are not shown again: the exit code line below says it', async () => {
    const withNotes = (id: string, actionId: string, body: string, suffix: string): EventJson => {
      const o = terminalObservation(id, actionId, body + suffix, 0);
      const obs = o.observation as Record<string, unknown>;
      return { ...o, observation: { ...obs, metadata: { exit_code: 0, prefix: '', suffix } } };
    };
    await p.showConversation(
      seqd([
        terminalAction(eid(30), 'make', { summary: 'Build' }),
        withNotes(
          eid(31),
          eid(30),
          'built',
          '\n[The command completed with exit code 0.]\n[Working directory is now /ws/sub]',
        ),
        terminalAction(eid(32), 'true', { summary: 'Nothing' }),
        withNotes(eid(33), eid(32), '(no output)', '\n[The command completed with exit code 0.]'),
      ]),
      makeHeader({ status: 'finished' }),
    );
    assert.equal(
      await card(p, 'Build').locator('.output pre').innerText(),
      'built\n[Working directory is now /ws/sub]',
    );
    assert.match(await card(p, 'Build').locator('.result-note').innerText(), /Exit code 0/);
    assert.equal(await card(p, 'Nothing').locator('.output').count(), 0);
    assert.equal(await card(p, 'Nothing').locator('.output-empty').innerText(), '(no output)');
  });

  it('the finish message shows once, in the foreground color; output code is not preformatted red', async () => {
    // VS Code's default webview stylesheet colors every <code> with textPreformat (red in Light).
    // (A string: the test tsconfig has no DOM types.)
    await p.page.evaluate(
      `{ const sheet = new CSSStyleSheet(); sheet.replaceSync('code { color: rgb(255, 0, 0); }');
         document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }`,
    );
    const fin = eid(30);
    const term = eid(32);
    await p.showConversation(
      seqd([
        terminalAction(term, 'npm test', { summary: 'Test' }),
        terminalObservation(eid(33), term, 'ok', 0),
        toolAction(fin, 'finish', { message: 'Done. Everything passes.' }),
        observation(eid(31), fin, 'finish', 'Done. Everything passes.'),
      ]),
      makeHeader({ status: 'finished' }),
    );
    assert.equal(await p.page.getByText('Done. Everything passes.').count(), 1);
    const colors = await card(p, 'Test').evaluate((el) => {
      const css = (globalThis as unknown as { getComputedStyle(n: unknown): { color: string } })
        .getComputedStyle;
      const nodes = ['.output pre.code', '.output pre.code code', 'pre.command code'];
      return nodes.map((sel) => css(el.querySelector(sel)).color);
    });
    assert.notEqual(colors[1], 'rgb(255, 0, 0)', 'output is not in the preformatted color');
    assert.equal(colors[1], colors[0], "output reads in the block's (editor) foreground");
    assert.notEqual(colors[2], 'rgb(255, 0, 0)', 'the command is not in the preformatted color');
  });
});
