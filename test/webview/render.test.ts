// Every event kind renders for a person; results fold into their actions; streaming shows live text
// that the real events replace; a malformed event never breaks the panel.
import assert from 'node:assert/strict';
import type { ViewEvent } from '../../src/protocol/messages';
import {
  agentMessage,
  CONVERSATION_ID,
  eid,
  everyKind,
  makeHeader,
  realFixtureEvents,
  terminalAction,
  terminalObservation,
} from './harness/events';
import { type Harness, Panel, startHarness } from './support';

describe('webview: rendering', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 420, height: 4_000 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, [], 'no uncaught page errors');
    assert.deepEqual(await p.cspViolations(), [], 'no CSP violations');
    await p.page.close();
  });

  it('shows the empty state until a conversation arrives, and asks for a resync on load', async () => {
    assert.deepEqual((await p.posted())[0], { type: 'ready', conversationId: null, lastSeq: -1 });
    await p.page.getByRole('button', { name: 'Start Agent Task' }).click();
    assert.deepEqual((await p.posted()).at(-1), { type: 'startTask' });
  });

  it('shows reasoning tokens in the header only when a model spent any, with the cache in the tooltip', async () => {
    const { events } = everyKind();
    await p.showConversation(events, makeHeader({ reasoningTokens: 2_048 }));
    const metrics = p.page.locator('header .metrics');
    assert.match(await metrics.innerText(), /Reasoning tokens\s*2(\.0)?k\s+thinking/i);
    // Each number says what it counts, in words; the cache only when it holds something.
    assert.match(await metrics.innerText(), /71k\s+in[\s\S]*1\.2k\s+out[\s\S]*35k\s+cached/);
    const title = (await metrics.getAttribute('title')) ?? '';
    assert.match(title, /34,536 read from the provider's cache/);
    assert.match(title, /1,155 completion tokens \(2,048 reasoning\)/);
    await p.showConversation(events, makeHeader({ reasoningTokens: 0 }));
    assert.doesNotMatch(await p.page.locator('header .metrics').innerText(), /Reasoning/);
    await p.showConversation(events, makeHeader({ reasoningTokens: 0, cachedTokens: 0 }));
    assert.doesNotMatch(await p.page.locator('header .metrics').innerText(), /cached/);
  });

  it('renders one event of every kind', async () => {
    const { events, ids } = everyKind();
    await p.showConversation(events, makeHeader({ status: 'paused' }));
    const page = p.page;
    const text = (kind: string, nth = 0) => p.row(kind).nth(nth).innerText();

    assert.match(await page.locator('header .title').innerText(), /Add input validation/);
    assert.match(await text('SystemPromptEvent'), /System prompt · 2 tools/);
    assert.equal(
      await page.locator('.event.message.user .body').innerText(),
      'Add input validation to src/math.js and run the tests.',
    );
    const agent = p.row('MessageEvent').nth(1);
    assert.equal(await agent.locator('strong').innerText(), 'type check');
    assert.ok((await agent.locator('pre.code .tk-k').count()) > 0, 'code block highlighted');
    assert.equal(await agent.locator('a').getAttribute('href'), 'https://example.com/docs');
    assert.match((await agent.locator('a').getAttribute('rel')) ?? '', /noopener/);
    assert.match(await agent.innerText(), /Thinking/);

    const term = page.locator(`article[data-kind="ActionEvent"]`).filter({ hasText: 'Run the math tests' });
    assert.match(
      await term.innerText(),
      /terminal[\s\S]*Run the math tests[\s\S]*LOW[\s\S]*npm test -- --grep math[\s\S]*2 passing[\s\S]*Exit code 0/,
    );
    assert.equal(await p.row('ObservationEvent').count(), 0, 'observations are shown inside their action');

    const edit = page.locator('article[data-kind="ActionEvent"]').filter({ hasText: 'file_editor' });
    // The path's folder and file name are two boxes (the name is never cut): innerText breaks between.
    assert.match(await edit.innerText(), /MEDIUM[\s\S]*Edit[\s\S]*src\/\s*math\.js/);
    assert.match(await edit.locator('.diff-add').innerText(), /typeof a !== 'number'/);
    assert.equal(await edit.locator('.diff-stats').innerText(), '+1 −0');
    await edit.getByRole('button', { name: 'Open diff of math.js' }).click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'openDiff',
      conversationId: CONVERSATION_ID,
      actionId: ids.edit,
    });

    const rejected = page
      .locator('article[data-kind="ActionEvent"]')
      .filter({ hasText: 'Reinstall dependencies' });
    assert.match(await rejected.innerText(), /HIGH[\s\S]*Rejected by you: No need to reinstall\./);
    assert.equal(await p.row('UserRejectObservation').count(), 0);
    const failed = page.locator('article[data-kind="ActionEvent"]').filter({ hasText: 'Read a file' });
    assert.match(
      await failed.innerText(),
      /UNKNOWN[\s\S]*The tool call failed[\s\S]*shell exited unexpectedly/,
    );
    assert.equal(
      await p.row('AgentErrorEvent').count(),
      0,
      'a tool error pairs with its action by tool_call_id',
    );

    assert.match(await text('Condensation'), /42 earlier events summarized/);
    await p
      .row('Condensation')
      .getByRole('button', { name: /42 earlier events/ })
      .click();
    assert.match(await text('Condensation'), /The agent read the code/);
    assert.equal(await text('PauseEvent'), 'Paused');
    assert.match(await text('ConversationErrorEvent', 0), /it seems stuck[\s\S]*failed 3 times/);
    assert.match(await text('ConversationErrorEvent', 1), /The model call failed[\s\S]*returned 503/);
    assert.equal(await text('ConversationStateUpdateEvent'), 'Status: Paused');
    assert.equal(await p.row('ConversationStateUpdateEvent').count(), 1, 'stats updates get no row');
    assert.match(await text('BrowserScreenshotEvent'), /unknown kind: BrowserScreenshotEvent/);
    assert.match(await text('CorruptRecord'), /Record 18 could not be read[\s\S]*checksum mismatch/);
    assert.match(await text('CondensationRequest'), /Condensation of earlier events requested/);
    assert.match(await text('CondensationSummaryEvent'), /Summary of earlier events/);
    const finish = page.locator('article[data-kind="ActionEvent"]').filter({ hasText: 'finish' });
    assert.equal(await finish.locator('strong').innerText(), 'validates');
  });

  it('renders the real OpenHands events: terminal calls with their output, status lines', async () => {
    await p.showConversation(realFixtureEvents());
    assert.equal(
      await p.row('ConversationStateUpdateEvent').count(),
      0,
      'neither stats nor the run starting gets a line',
    );
    const actions = p.row('ActionEvent');
    assert.equal(await actions.count(), 2);
    const first = await actions.nth(0).innerText();
    assert.match(first, /terminal[\s\S]*Build session URL from environment[\s\S]*UNKNOWN/);
    assert.match(first, /I'll help you review PR #3745/, 'the visible thought, without its <think> block');
    assert.doesNotMatch(first, /Let me analyze the task/, 'reasoning stays collapsed');
    assert.match(first, /Cannot execute multiple commands at once[\s\S]*The command did not run/);
    await actions.nth(0).getByRole('button', { name: 'Thinking' }).click();
    assert.match(await actions.nth(0).innerText(), /Let me analyze the task/);
    assert.match(await actions.nth(1).innerText(), /Traceback[\s\S]*Show all 19 lines[\s\S]*Exit code 1/);
    // The second observation's action is not in the file: it is shown on its own.
    assert.equal(await p.row('ObservationEvent').count(), 1);
  });

  it('counts the events a condensation forgot as a range, not only those it lists', async () => {
    await p.showConversation([
      {
        seq: 0,
        event: {
          kind: 'Condensation',
          id: 'c-range',
          source: 'agent',
          forgotten_event_ids: [],
          forgotten_range: { first: eid(1), last: eid(99_944), count: 99_944 },
          summary: 'Earlier work.',
          summary_offset: 4,
        },
      },
    ]);
    assert.match(await p.row('Condensation').innerText(), /99,?944 earlier events summarized/);
  });

  it('warns that a cost cap cannot count a model of unknown cost, with what limits the run instead', async () => {
    const message = (then: string) => `The cost of model "llama3" is unknown. ${then}`;
    const updates: [string, unknown][] = [
      [
        'cost_unknown',
        { model: 'llama3', max_cost: 1, max_tokens: 5000, message: message('The token budget is enforced.') },
      ],
      [
        'cost_unknown',
        { model: 'llama3', max_cost: 1, max_tokens: null, message: message('It cannot be enforced.') },
      ],
    ];
    await p.showConversation(
      updates.map(([key, value], seq) => ({
        seq,
        event: { kind: 'ConversationStateUpdateEvent', id: `c-${seq}`, source: 'environment', key, value },
      })),
    );
    const lines = p.row('ConversationStateUpdateEvent');
    assert.match(
      await lines.nth(0).innerText(),
      /The cost of this model is unknown: the token budget is enforced instead[\s\S]*The token budget is enforced\./,
    );
    assert.match(
      await lines.nth(1).innerText(),
      /The cost cap cannot be enforced: this model has no price[\s\S]*It cannot be enforced\./,
    );
    assert.equal(await lines.locator('.notice.tone-warn').count(), 2, 'shown as warnings');
  });

  it('shows a restore as a step; the checkpoints before and after an action and the shell kind are bookkeeping', async () => {
    const cp = { checkpoint: 'a'.repeat(40), files: 3, files_changed: 1, changes: [], skipped: [] };
    const updates: [string, unknown][] = [
      ['checkpoint', { ...cp, reason: 'action', action_id: 'x1' }],
      ['checkpoint_after', { ...cp, reason: 'after', action_id: 'x1' }],
      ['shell', { startup: 'user' }],
      ['checkpoint', { ...cp, reason: 'restore', restored_to: 'k-0' }],
    ];
    await p.showConversation(
      updates.map(([key, value], seq) => ({
        seq,
        event: { kind: 'ConversationStateUpdateEvent', id: `k-${seq}`, source: 'environment', key, value },
      })),
    );
    const lines = p.row('ConversationStateUpdateEvent');
    assert.equal(await lines.count(), 1, await lines.allInnerTexts().then((t) => t.join(' | ')));
    assert.match(await lines.innerText(), /Files restored to an earlier point/);
  });

  it('says when a conversation was continued or renamed; consecutive status changes share one line', async () => {
    const updates: [string, unknown][] = [
      ['forked_from', { conversation_id: 'c0', event_id: 'e0' }],
      ['title', 'Parser flake (continued)'],
      ['execution_status', 'error'],
      ['execution_status', 'idle'],
      ['execution_status', 'paused'],
      ['title', 'Parser flake, for real'],
      ['execution_status', 'finished'],
    ];
    await p.showConversation(
      updates.map(([key, value], seq) => ({
        seq,
        event: { kind: 'ConversationStateUpdateEvent', id: `u-${seq}`, source: 'user', key, value },
      })),
    );
    const lines = p.row('ConversationStateUpdateEvent');
    assert.deepEqual(await lines.allInnerTexts(), [
      'Continued from an earlier conversation as “Parser flake (continued)”',
      'Stopped with an error → Was paused',
      'Renamed to “Parser flake, for real”',
      'Status: Finished',
    ]);
    // Continuing from a folded line continues after the newest event on it: nothing shown is dropped.
    await lines.nth(1).getByRole('button', { name: 'Continue from here' }).click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'forkFrom',
      conversationId: CONVERSATION_ID,
      eventId: 'u-4',
    });
    // A status change that arrives live joins the line before it.
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [
        {
          seq: updates.length,
          event: {
            kind: 'ConversationStateUpdateEvent',
            id: 'u-live',
            source: 'environment',
            key: 'execution_status',
            value: 'error',
          },
        },
      ],
    });
    await p.page.getByText('Status: Finished → Error').waitFor();
    assert.equal(await lines.count(), 4);
  });

  it('truncates long output and expands it on request', async () => {
    const a = eid(1);
    const output = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    await p.showConversation([
      { seq: 0, event: terminalAction(a, 'seq 500') as ViewEvent['event'] },
      { seq: 1, event: terminalObservation(eid(2), a, output, 0) as ViewEvent['event'] },
    ]);
    const card = p.row('ActionEvent');
    assert.doesNotMatch(await card.innerText(), /line 499/);
    const more = card.getByRole('button', { name: 'Show all 500 lines' });
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    await more.click();
    assert.match(await card.innerText(), /line 499/);
    await card.getByRole('button', { name: 'Show less' }).click();
    assert.doesNotMatch(await card.innerText(), /line 499/);
    // The whole output folds away and comes back.
    const toggle = card.getByRole('button', { name: 'Output · 500 lines' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    assert.doesNotMatch(await card.innerText(), /line 0/);
    await toggle.click();
    assert.match(await card.innerText(), /line 0/);
  });

  it('survives malformed events of known kinds', async () => {
    const bad: ViewEvent['event'][] = [
      { kind: 'MessageEvent', id: eid(1), llm_message: 5 },
      { kind: 'MessageEvent', id: eid(2), source: 'agent', llm_message: { content: 'not an array' } },
      {
        kind: 'ActionEvent',
        id: eid(3),
        thought: 7,
        action: 'rm',
        tool_name: { x: 1 },
        security_risk: 'EXTREME',
      },
      {
        kind: 'ActionEvent',
        id: eid(4),
        action: null,
        tool_name: 'terminal',
        tool_call: { arguments: '{"command": ' },
      },
      { kind: 'ObservationEvent', id: eid(5), action_id: eid(3), observation: 'x' },
      { kind: 'Condensation', id: eid(6), forgotten_event_ids: 'all' },
      { kind: 'ConversationStateUpdateEvent', id: eid(7), key: 12, value: { deep: { er: [1, 2] } } },
      { kind: 'ConversationErrorEvent', id: eid(8), code: null, detail: ['x'] },
    ];
    await p.showConversation([
      ...bad.map((event, seq) => ({ seq, event })),
      { seq: 8, event: agentMessage(eid(9), 'still here') as ViewEvent['event'] },
    ]);
    assert.equal(
      await p.page.locator('article.row').count(),
      8,
      'the malformed observation folds into its action',
    );
    assert.match(
      await p.row('ActionEvent').nth(1).innerText(),
      /could not be turned into an action[\s\S]*"command":/,
    );
    assert.match(await p.page.locator('article.row').last().innerText(), /still here/);
  });

  it('streams text, reasoning and tool arguments live, then replaces them with the real events', async () => {
    await p.page.setViewportSize({ width: 420, height: 600 });
    await p.showConversation(everyKind().events.slice(0, 2));
    const stream = (delta: unknown) => p.host({ type: 'stream', conversationId: CONVERSATION_ID, delta });
    await stream({ type: 'reasoning', text: 'Thinking about ' });
    await stream({ type: 'reasoning', text: 'the tests' });
    await stream({ type: 'text', text: 'Hel' });
    await stream({ type: 'text', text: 'lo **wor' });
    await stream({ type: 'text', text: 'ld**' });
    await stream({ type: 'tool_call', index: 0, name: 'terminal', argumentsDelta: '{"command": "npm' });
    await stream({ type: 'tool_call', index: 0, argumentsDelta: ' test"}' });
    await p.settle();
    const live = p.page.locator('article.row-stream');
    await live.waitFor();
    assert.equal(await live.locator('.body strong').innerText(), 'world');
    assert.match(
      await live.innerText(),
      /Thinking about the tests[\s\S]*Hello world[\s\S]*terminal[\s\S]*\{"command": "npm test"\}/,
    );
    assert.equal(await p.page.locator('.feed').getAttribute('aria-busy'), 'true');
    await stream({ type: 'end' });
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [
        { seq: 2, event: agentMessage(eid(50), `Hello **world**${'\n\nA longer final answer.'.repeat(40)}`) },
      ],
    });
    await p.settle();
    assert.equal(await live.count(), 0, 'the live row is gone');
    const atBottom = await p.page
      .locator('.feed')
      .evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
    assert.ok(atBottom, 'the list still shows the newest row');
    assert.match(await p.page.locator('article.row').last().innerText(), /Hello world/);
    // A stream for another conversation is ignored.
    await p.host({ type: 'stream', conversationId: 'someone-else', delta: { type: 'text', text: 'nope' } });
    await p.settle();
    assert.equal(await live.count(), 0);
  });
});
