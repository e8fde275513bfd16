// A file edit's card numbers its lines as the file does, the same live (the action first, then its
// result arriving) and after a reload (both at once).
import assert from 'node:assert/strict';
import type { ViewEvent } from '../../src/protocol/messages';
import { CONVERSATION_ID, editAction, editObservation, eid, makeHeader } from './harness/events';
import { type Harness, Panel, startHarness } from './support';

const BEFORE = [
  '// math',
  '',
  'function add(a, b) {',
  '  return a + b;',
  '}',
  '',
  'module.exports = { add };',
  '',
].join('\n');
const AFTER = BEFORE.replace(
  'module.exports = { add };',
  'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
);
const ACTION = eid(2);

describe('webview: diff line numbers live and after a reload', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 900 })));
  after(async () => h?.close());

  const numbers = (p: Panel) => p.row('ActionEvent').locator('.diff-no').allInnerTexts();

  it('are the same', async () => {
    const action = editAction(
      ACTION,
      'src/math.js',
      'module.exports = { add };',
      AFTER.slice(AFTER.indexOf('function subtract')).trimEnd(),
    );
    const result = editObservation(eid(3), ACTION, 'src/math.js', BEFORE, AFTER);

    const live = await Panel.open(h);
    await live.showConversation(
      [{ seq: 0, event: action }],
      makeHeader({ status: 'waiting_for_confirmation', pendingActionIds: [ACTION] }),
    );
    await live.row('ActionEvent').locator('.diff').waitFor();
    await live.host({ type: 'events', conversationId: CONVERSATION_ID, events: [{ seq: 1, event: result }] });
    await live.row('ActionEvent').locator('.diff-no').first().waitFor();
    await live.settle();
    const shownLive = await numbers(live);
    await live.page.close();

    const reloaded = await Panel.open(h);
    const all: ViewEvent[] = [
      { seq: 0, event: action },
      { seq: 1, event: result },
    ];
    await reloaded.showConversation(all, makeHeader({ status: 'finished' }));
    await reloaded.row('ActionEvent').locator('.diff-no').first().waitFor();
    const shownAfter = await numbers(reloaded);
    await reloaded.page.close();

    assert.ok(shownAfter.includes('7'), `the file's own line numbers: ${shownAfter.join(' ')}`);
    assert.deepEqual(shownLive, shownAfter);
  });
});
