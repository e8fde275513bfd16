// A terminal card says which exported variables the command left to the later ones (each command
// starts clean: only the folder and these carry), and says nothing when it changed none.
import assert from 'node:assert/strict';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader, terminalAction, terminalObservation } from './harness/events';
import { type Harness, Panel, startHarness } from './support';

function carried(id: string, actionId: string, note: string): EventJson {
  const o = terminalObservation(id, actionId, 'ok', 0);
  const obs = o.observation as Record<string, unknown>;
  return { ...o, observation: { ...obs, metadata: { exit_code: 0, carried: note } } };
}

const seqd = (events: EventJson[]): ViewEvent[] => events.map((event, seq) => ({ seq, event }));

describe('webview: what a command carried to the next', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 400, height: 1_000 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h, { theme: 'dark' })));
  afterEach(async () => {
    assert.deepEqual(p.errors, [], 'no uncaught page errors');
    await p.page.close();
  });

  it('names the exported variables, and shows no line when none changed', async () => {
    await p.showConversation(
      seqd([
        terminalAction(eid(1), 'export A=1 B=2', { summary: 'Exports' }),
        carried(eid(2), eid(1), 'carried: working folder /ws, exported: A, B'),
        terminalAction(eid(3), 'ls', { summary: 'Lists' }),
        carried(eid(4), eid(3), 'carried: working folder /ws, exported: none changed'),
      ]),
      makeHeader({ status: 'finished' }),
    );
    const card = (hasText: string) => p.page.locator('article[data-kind="ActionEvent"]').filter({ hasText });
    assert.equal(
      await card('Exports').locator('.result-note.carried').innerText(),
      'Exported to later commands: A, B',
    );
    assert.equal(await card('Lists').locator('.result-note.carried').count(), 0);
  });
});
