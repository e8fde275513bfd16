// The timeline in the chat: a scrub bar with slider semantics (arrows, Home/End, Page Up/Down, its
// label and value text), asking the host for each position; the host's answer for the newest
// position shown (status, tokens, cost, mode, plan, the files changed with their diffs); Escape and
// "Live" back to live; the replay card. Checked with axe in the dark, light and high-contrast
// themes at a 300 px wide sidebar, with screenshots.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayReport, TimelinePoint, ViewEvent, WebviewMessage } from '../../src/protocol/messages';
import {
  CONVERSATION_ID,
  eid,
  everyKind,
  makeHeader,
  terminalAction,
  terminalObservation,
  userMessage,
} from './harness/events';
import { type Harness, Panel, ROOT, SHOTS, startHarness } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** A conversation of `n` user messages (seq 0 to n - 1). */
function messages(n: number): ViewEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    seq: i,
    event: userMessage(eid(1000 + i), `message ${i}`) as ViewEvent['event'],
  }));
}

function point(seq: number, over: Partial<TimelinePoint> = {}): TimelinePoint {
  return {
    seq,
    eventId: eid(1000 + seq),
    timestamp: '2026-06-16T05:39:00.000Z',
    lastSeq: 99,
    status: 'waiting_for_confirmation',
    mode: 'plan',
    promptTokens: 12_345,
    completionTokens: 678,
    cost: 0.0123,
    plan: [
      { title: 'Read src/math.js', status: 'done' },
      { title: 'Reject non-numbers in add()', status: 'in_progress' },
    ],
    files: [
      { path: 'src/math.js', status: 'M' },
      { path: 'test/math.test.js', status: 'A' },
      { path: 'old/notes.md', status: 'D' },
    ],
    filesNotShown: 0,
    filesNote: '3 files changed since the first checkpoint',
    ...over,
  };
}

describe('webview: timeline', function () {
  this.timeout(90_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 760 })));
  after(async () => h?.close());
  afterEach(async () => {
    if (p) {
      assert.deepEqual(p.errors, [], 'page errors');
      await p.page.close();
    }
  });

  const slider = () => p.page.getByRole('slider', { name: /Timeline/ });
  const seeks = async () =>
    (await p.posted()).filter(
      (m): m is Extract<WebviewMessage, { type: 'timelineSeek' }> => m.type === 'timelineSeek',
    );
  const lastSeek = async () => (await seeks()).at(-1);
  /** Answers the newest seek as the host would. */
  const answer = async (over: Partial<TimelinePoint> = {}) => {
    const s = await lastSeek();
    assert.ok(s, 'a seek was posted');
    await p.host({
      type: 'timelinePoint',
      conversationId: CONVERSATION_ID,
      requestId: s.requestId,
      point: point(s.seq, over),
    });
    await p.settle();
  };

  it('is live at first: the slider is at the newest event and says so', async () => {
    p = await Panel.open(h);
    await p.showConversation(messages(100));
    const s = slider();
    assert.equal(await s.getAttribute('max'), '99');
    assert.equal(await s.inputValue(), '99');
    assert.equal(await s.getAttribute('aria-valuetext'), 'Live, event 100 of 100: you: message 99');
    assert.equal(await p.page.locator('.timeline-panel').count(), 0);
    assert.equal(await p.page.locator('.vrow-later').count(), 0);
    assert.deepEqual(await seeks(), []);
  });

  it("says where it stands in the user's words, with no ids or hashes", async () => {
    p = await Panel.open(h);
    const action = eid(2);
    const checkpoint = { checkpoint: 'f'.repeat(40), reason: 'action', action_id: action, files: 2 };
    const started = { action_id: action };
    const events: ViewEvent[] = [
      userMessage(eid(1), 'Add subtract() to src/math.js'),
      terminalAction(action, 'npm test', { summary: 'Run the tests', risk: 'LOW' }),
      {
        kind: 'ConversationStateUpdateEvent',
        id: eid(3),
        source: 'environment',
        key: 'checkpoint',
        value: checkpoint,
      },
      {
        kind: 'ConversationStateUpdateEvent',
        id: eid(4),
        source: 'environment',
        key: 'action_started',
        value: started,
      },
      terminalObservation(eid(5), action, 'ok', 0),
      {
        kind: 'ConversationStateUpdateEvent',
        id: eid(6),
        source: 'environment',
        key: 'execution_status',
        value: 'finished',
      },
    ].map((event, seq) => ({ seq, event: event as ViewEvent['event'] }));
    await p.showConversation(events);
    const said: string[] = [];
    await slider().focus();
    await p.page.keyboard.press('Home');
    for (let i = 0; i < events.length; i++) {
      await p.settle();
      said.push((await slider().getAttribute('aria-valuetext')) ?? '');
      await p.page.keyboard.press('ArrowRight');
    }
    assert.deepEqual(said, [
      'event 1 of 6: you: Add subtract() to src/math.js',
      'event 2 of 6: terminal: npm test',
      'event 3 of 6: before: npm test',
      'event 4 of 6: before: npm test',
      'event 5 of 6: result of: npm test',
      'event 6 of 6: status: Finished',
    ]);
    await p.page.keyboard.press('Home');
    await p.page.keyboard.press('ArrowRight');
    await p.page.keyboard.press('ArrowRight');
    await p.settle();
    await answer({ lastSeq: 5, filesNote: '1 file changed since the conversation started' });
    const panel = p.page.locator('.timeline-panel');
    assert.match(await panel.innerText(), /before: npm test/);
    assert.doesNotMatch(await panel.innerText(), /ffffff/, 'no hash');
  });

  it('moves by the keys of a slider and asks the host for each position', async () => {
    p = await Panel.open(h);
    await p.showConversation(messages(100));
    await slider().focus();
    const expect = async (key: string, seq: number) => {
      await p.page.keyboard.press(key);
      await p.settle();
      assert.equal((await lastSeek())?.seq, seq, key);
      assert.equal(await slider().inputValue(), String(seq), key);
    };
    await expect('ArrowLeft', 98);
    await expect('ArrowDown', 97);
    await expect('ArrowUp', 98);
    await expect('ArrowRight', 99);
    await expect('PageDown', 89); // a twentieth of 100 events is less than 10: 10
    await expect('PageDown', 79);
    await expect('PageUp', 89);
    await expect('Home', 0);
    await expect('ArrowLeft', 0);
    await expect('End', 99);
    assert.equal(await slider().getAttribute('aria-valuetext'), 'event 100 of 100: you: message 99');
    const all = await seeks();
    // Each request is newer than the one before; every one names the conversation shown.
    assert.ok(
      all.every(
        (m, i) => m.conversationId === CONVERSATION_ID && (i === 0 || m.requestId > all[i - 1]!.requestId),
      ),
    );
    // Escape goes back to live.
    await p.page.keyboard.press('Escape');
    await p.settle();
    assert.equal(await p.page.locator('.timeline-panel').count(), 0);
    assert.match((await slider().getAttribute('aria-valuetext')) ?? '', /^Live, /);
  });

  it('Page Up/Down step a twentieth of a long conversation', async () => {
    p = await Panel.open(h);
    await p.showConversation(messages(1000));
    await slider().focus();
    await p.page.keyboard.press('PageDown');
    assert.equal((await lastSeek())?.seq, 999 - 50);
  });

  it('shows the host answer for the position: state, plan and files, with their diffs', async () => {
    p = await Panel.open(h);
    await p.showConversation(messages(100));
    await slider().focus();
    await p.page.keyboard.press('Home');
    for (let i = 0; i < 40; i++) await p.page.keyboard.press('ArrowRight');
    await p.settle();
    await answer();
    const panel = p.page.getByRole('region', { name: 'The conversation at event 41' });
    const text = (await panel.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /At event 41 of 100/);
    assert.match(text, /Status Waiting for approval/);
    assert.match(text, /Mode Plan/);
    assert.match(text, /Tokens 12k in · 678 out/);
    assert.match(text, /Cost \$0\.0123/);
    assert.match(text, /Read src\/math\.js .*Reject non-numbers in add\(\)/);
    assert.match(text, /src\/math\.js .*test\/math\.test\.js .*old\/notes\.md/);
    // Later rows are dimmed, the event's own row marked and in view below the panel.
    assert.ok((await p.page.locator('.vrow-later').count()) > 0);
    const at = p.page.locator('.vrow-at article.row');
    assert.equal(await at.getAttribute('data-seq'), '40');
    const feed = (await p.page.locator('.feed').boundingBox())!;
    const row = (await at.boundingBox())!;
    assert.ok(row.y >= feed.y && row.y + row.height <= feed.y + feed.height, 'the row is inside the feed');
    await p.clearPosted();
    await panel.getByRole('button', { name: 'Diff of src/math.js from the start to event 41' }).click();
    await panel.getByRole('button', { name: 'Diff of test/math.test.js at event 41 vs now' }).click();
    await panel.getByRole('button', { name: 'Open files at this point' }).click();
    assert.deepEqual(await p.posted(), [
      {
        type: 'timelineDiff',
        conversationId: CONVERSATION_ID,
        seq: 40,
        path: 'src/math.js',
        against: 'start',
      },
      {
        type: 'timelineDiff',
        conversationId: CONVERSATION_ID,
        seq: 40,
        path: 'test/math.test.js',
        against: 'now',
      },
      { type: 'timelineOpenFiles', conversationId: CONVERSATION_ID, seq: 40 },
    ]);
    // "Live" returns: no panel, nothing dimmed.
    await p.page.getByRole('button', { name: 'Live' }).click();
    await p.settle();
    assert.equal(await p.page.locator('.timeline-panel').count(), 0);
    assert.equal(await p.page.locator('.vrow-later').count(), 0);
  });

  it('shows only the newest request’s answer, and an error in words', async () => {
    p = await Panel.open(h);
    await p.showConversation(messages(100));
    await slider().focus();
    await p.page.keyboard.press('ArrowLeft');
    const first = (await lastSeek())!;
    await p.page.keyboard.press('ArrowLeft');
    // The answer to the older request comes late: not shown.
    await p.host({
      type: 'timelinePoint',
      conversationId: CONVERSATION_ID,
      requestId: first.requestId,
      point: point(first.seq, { status: 'finished' }),
    });
    await p.settle();
    assert.equal(await p.page.getByText('Finished').count(), 0);
    const s = (await lastSeek())!;
    await p.host({
      type: 'timelinePoint',
      conversationId: CONVERSATION_ID,
      requestId: s.requestId,
      point: null,
      error: 'There is no event 97 in this conversation.',
    });
    await p.settle();
    assert.equal(await p.page.getByRole('alert').innerText(), 'There is no event 97 in this conversation.');
    // A malformed point (a field the protocol does not know) is dropped, never shown.
    await p.host({
      type: 'timelinePoint',
      conversationId: CONVERSATION_ID,
      requestId: s.requestId,
      point: { ...point(s.seq), script: '<img src=x onerror=alert(1)>' },
    });
    await p.settle();
    assert.ok(p.console.some((l) => l.includes('dropped an invalid message')));
    assert.equal(await p.page.locator('.timeline-state').count(), 0);
  });

  it('shows a replay running, then its first divergence; "Show in timeline" moves there', async () => {
    p = await Panel.open(h);
    await p.showConversation(messages(20));
    await p.host({ type: 'replay', conversationId: CONVERSATION_ID });
    await p.settle();
    const card = p.page.getByRole('region', { name: 'Replay' });
    assert.match(await card.innerText(), /Replaying the conversation/);
    const report: ReplayReport = {
      outcome: 'diverged',
      actions: 3,
      index: 12,
      seq: 12,
      eventId: eid(1012),
      ordinal: 2,
      tool: 'terminal',
      what: 'cat src/math.js',
      recorded: 'export function add(a, b) {}',
      replayed: 'export function add(a, b) {}\n// changed by hand',
      diff: ['+ // changed by hand'],
      status: 'finished',
    };
    await p.host({ type: 'replay', conversationId: CONVERSATION_ID, report });
    await p.settle();
    const text = await card.innerText();
    assert.match(text, /The replay diverged/);
    assert.match(text, /Action 2 of 3 gave another result: terminal cat src\/math\.js/);
    assert.match(text, /\+ \/\/ changed by hand/);
    await card.getByRole('button', { name: 'Show event 13 in the timeline' }).click();
    assert.equal((await lastSeek())?.seq, 12);
    await p.host({
      type: 'replay',
      conversationId: CONVERSATION_ID,
      report: { outcome: 'same', actions: 3 },
    });
    await p.settle();
    assert.match(await card.innerText(), /Replayed identically: 3 actions, no divergence/);
    // Inside a delegated agent: its branch and the event of its own log, no place in this timeline.
    await p.host({
      type: 'replay',
      conversationId: CONVERSATION_ID,
      report: { ...report, branch: 'main.explore.1', index: 7, seq: undefined, eventId: undefined },
    });
    await p.settle();
    assert.match(
      await card.innerText(),
      /In the delegated agent main\.explore\.1 \(event 7 of its log\): Action 2 of 3 gave another result/,
    );
    assert.equal(await card.getByRole('button', { name: /Show event/ }).count(), 0);
    await card.getByRole('button', { name: 'Close the replay result' }).click();
    assert.equal(await p.page.getByRole('region', { name: 'Replay' }).count(), 0);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`${theme} at 300 px: no serious axe violation, nothing wider than the panel; screenshot saved`, async () => {
      p = await Panel.open(h, { theme });
      const { events } = everyKind();
      await p.showConversation(events, makeHeader({ status: 'finished' }));
      await slider().focus();
      await p.page.keyboard.press('Home');
      for (let i = 0; i < 4; i++) await p.page.keyboard.press('ArrowRight');
      await answer({
        files: [
          { path: 'src/a/very/long/path/to/some/deeply/nested/module/file-name.ts', status: 'M' },
          { path: 'README.md', status: 'A' },
        ],
      });
      await p.host({
        type: 'replay',
        conversationId: CONVERSATION_ID,
        report: { outcome: 'same', actions: 2 },
      });
      await p.settle();
      await p.page.screenshot({ path: join(SHOTS, `timeline-${theme}.png`) });
      await p.page.evaluate(AXE);
      const r = (await p.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
      };
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(
        bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
      );
      const overflow = await p.page.evaluate(
        '[...document.querySelectorAll(".timeline-bar, .timeline-panel, .timeline-file, .replay-card")].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className)',
      );
      assert.deepEqual(overflow, []);
    });
  }
});
