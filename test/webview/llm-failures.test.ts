// A model call that fails: while the client retries, a dropped stream's partial text goes away and
// a notice says what happens; once it gives up, a card names the endpoint, the setting to change,
// and offers Retry and Open Settings (Set API Key when the key was refused).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { agentMessage, CONVERSATION_ID, eid, makeHeader, userMessage } from './harness/events';
import { type Harness, Panel, ROOT, SHOTS, startHarness } from './support';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

const retryUpdate = (id: string, over: Record<string, unknown> = {}): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'environment',
  key: 'llm_retry',
  value: {
    kind: 'connection',
    error: 'The connection to http://127.0.0.1:11434/v1 was lost: terminated: other side closed.',
    endpoint: 'http://127.0.0.1:11434/v1',
    attempt: 2,
    attempts: 5,
    delay_ms: 3_600,
    discarded_partial_reply: true,
    ...over,
  },
});

const llmError = (id: string, code: string, detail: string): EventJson => ({
  kind: 'ConversationErrorEvent',
  id,
  source: 'environment',
  code,
  detail,
});

const UNREACHABLE =
  'Could not reach http://127.0.0.1:11434/v1: Connection error.: fetch failed: connect ECONNREFUSED 127.0.0.1:11434. Gave up after 5 attempts.';

describe('webview: failed model calls', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 700 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });

  const start: ViewEvent[] = [{ seq: 0, event: userMessage(eid(1), 'Explain the tests') }];
  const stream = (delta: unknown) => p.host({ type: 'stream', conversationId: CONVERSATION_ID, delta });
  const events = (...list: ViewEvent[]) =>
    p.host({ type: 'events', conversationId: CONVERSATION_ID, events: list });

  it("clears a dropped stream's partial text, shows the retry, then one reply", async () => {
    await p.showConversation(start);
    await stream({ type: 'text', text: 'Half of an answer that ' });
    await p.settle();
    const live = p.page.locator('article.row-stream');
    await live.waitFor();
    await stream({ type: 'discard' });
    await events({ seq: 1, event: retryUpdate(eid(2)) });
    await p.settle();
    assert.equal(await live.count(), 0, 'the partial reply is gone at once');
    const notice = p.row('ConversationStateUpdateEvent').last();
    assert.equal(
      (await notice.innerText()).trim(),
      'The connection to 127.0.0.1:11434 dropped mid-reply, retrying in 4 s (2 of 5)',
    );
    await stream({ type: 'text', text: 'The whole answer.' });
    await stream({ type: 'end' });
    await events({ seq: 2, event: agentMessage(eid(3), 'The whole answer.') });
    await p.settle();
    const feed = await p.page.locator('.feed').innerText();
    assert.doesNotMatch(feed, /Half of an answer/);
    assert.equal(feed.match(/The whole answer\./g)?.length, 1, 'one reply, not two');
  });

  it('says which endpoint it could not reach while it retries', async () => {
    await p.showConversation([
      ...start,
      { seq: 1, event: retryUpdate(eid(2), { discarded_partial_reply: false, delay_ms: 1_000 }) },
    ]);
    assert.equal(
      (await p.row('ConversationStateUpdateEvent').innerText()).trim(),
      'Could not reach 127.0.0.1:11434, retrying in 1 s (2 of 5)',
    );
  });

  it('ends with a card naming the endpoint and the setting, with Retry and Open Settings', async () => {
    await p.showConversation(
      [...start, { seq: 1, event: llmError(eid(2), 'llm_connection', UNREACHABLE) }],
      makeHeader({ status: 'error' }),
    );
    const card = p.page.getByRole('group', { name: 'Could not reach 127.0.0.1:11434' });
    const text = await card.innerText();
    assert.match(text, /Could not reach http:\/\/127\.0\.0\.1:11434\/v1/);
    assert.match(text, /Check that the server is running and its address is right: logbook\.model\.baseURL/);
    assert.doesNotMatch(text, /demo/);
    await p.clearPosted();
    await card.getByRole('button', { name: 'Open Settings' }).click();
    await card.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual(await p.posted(), [
      { type: 'openSettings', setting: 'logbook.model.baseURL' },
      { type: 'resume', conversationId: CONVERSATION_ID },
    ]);
    assert.equal(await card.getByRole('button', { name: 'Set API Key' }).count(), 0);
    // Running again (or a later error) takes the buttons away: only the current error can be retried.
    await p.host({ type: 'header', header: makeHeader({ status: 'running' }) });
    await p.settle();
    assert.equal(await card.getByRole('button').count(), 0);
    assert.match(await card.innerText(), /logbook\.model\.baseURL/, 'the explanation stays');
  });

  it('offers Set API Key when the key was refused, and the right setting for each limit', async () => {
    await p.showConversation(
      [
        ...start,
        {
          seq: 1,
          event: llmError(
            eid(2),
            'llm_timeout',
            'The reply from https://api.example.com/v1 passed 4 MiB, the size limit for one reply; it was stopped.',
          ),
        },
        {
          seq: 2,
          event: llmError(
            eid(3),
            'llm_auth',
            'https://api.example.com/v1 (model "gpt-4o-mini") answered HTTP 401 (invalid_api_key): Incorrect API key provided.',
          ),
        },
      ],
      makeHeader({ status: 'error' }),
    );
    const tooLarge = p.page.getByRole('group', { name: 'The reply was too large' });
    assert.match(await tooLarge.innerText(), /logbook\.model\.maxReplyBytes/);
    assert.equal(await tooLarge.getByRole('button').count(), 0, 'an older error has no buttons');
    const refused = p.page.getByRole('group', { name: 'api.example.com refused the API key' });
    await p.clearPosted();
    await refused.getByRole('button', { name: 'Set API Key' }).click();
    assert.deepEqual(await p.posted(), [{ type: 'setApiKey' }]);
  });

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: the retry notice and the error card pass axe at 300 px; screenshot saved`, async () => {
      const themed = await Panel.open(h, { theme });
      try {
        await themed.showConversation(
          [
            ...start,
            { seq: 1, event: retryUpdate(eid(2), { discarded_partial_reply: false }) },
            { seq: 2, event: llmError(eid(3), 'llm_connection', UNREACHABLE) },
          ],
          makeHeader({ status: 'error' }),
        );
        await themed.page.screenshot({ path: join(SHOTS, `llm-failure-${theme}.png`) });
        await themed.page.evaluate(AXE);
        const r = (await themed.page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
          violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
        };
        const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(
          bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
        );
        const card = themed.page.locator('.llm-error');
        const box = await card.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 300, `the card fits: ${JSON.stringify(box)}`);
        assert.deepEqual(themed.errors, []);
      } finally {
        await themed.page.close();
      }
    });
  }
});
