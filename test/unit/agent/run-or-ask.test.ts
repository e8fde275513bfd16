// An action is either run or asked for, never both. The ACTION_STARTED record makes a running
// action look "in doubt" (started, no result) until its result is recorded; a view refreshed in
// that window (every appended event refreshes the editor's header) must not show the running
// command as waiting for approval, as it did under `never`: "Allow this action?" over a command
// whose output was already in the terminal.
import * as assert from 'node:assert/strict';
import type { ConfirmationMode } from '../../../src/core/agent/settings';
import { createHarness, type Harness } from '../../support/agent-harness';
import type { Scenario } from '../../support/llm-server';

/** A file create, then a command that writes to that file and takes a moment. */
const scenario: Scenario = {
  name: 'create-then-write',
  turns: [
    {
      match: { lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_create',
            name: 'file_editor',
            arguments: {
              command: 'create',
              path: 't.txt',
              file_text: 'one\n',
              security_risk: 'LOW',
              summary: 'a file',
            },
          },
          {
            id: 'call_write',
            name: 'terminal',
            arguments: {
              command: 'sleep 0.4; echo two >> t.txt; cat t.txt',
              security_risk: 'LOW',
              summary: 'append',
            },
          },
        ],
      },
    },
    { match: { lastRole: 'tool' }, reply: { content: 'done' } },
  ],
};

describe('Conversation: an action is never both run and asked for', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const mode of ['never', 'risky', 'always'] as const satisfies readonly ConfirmationMode[]) {
    it(`${mode}: no action is awaiting confirmation while it runs, nor runs while awaiting`, async () => {
      h = await createHarness(scenario, { confirmationMode: mode });
      const c = await h.open();
      const overlaps: string[] = [];
      let started: string | undefined;
      const check = (when: string) => {
        const asked = c.awaitingConfirmation().map((a) => a.id);
        if (started && asked.includes(started)) overlaps.push(`${when}: ${started} runs and is asked for`);
        if (c.heldRisks().some((d) => d.actionId === started))
          overlaps.push(`${when}: a held risk for ${started}`);
      };
      c.onEvent((event) => {
        if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'action_started')
          started = (event.value as { action_id: string }).action_id;
        if (event.kind === 'ObservationEvent') started = undefined;
        check(event.kind);
      });
      const poll = setInterval(() => check('while running'), 20);
      try {
        await c.sendMessage('write twice');
        let status = await c.run();
        let rounds = 0;
        while (status === 'waiting_for_confirmation' && rounds++ < 5) {
          const held = c.awaitingConfirmation().map((a) => a.id);
          assert.ok(held.length > 0, 'waiting means something is asked for');
          await c.approve(held);
          status = await c.run();
        }
        assert.equal(status, 'finished');
      } finally {
        clearInterval(poll);
      }
      assert.deepEqual(overlaps, []);
      const events = await c.events();
      assert.equal(events.filter((e) => e.kind === 'ObservationEvent').length, 2, 'both ran once');
      if (mode === 'never') {
        // Never asks: no approval was ever needed, so none was recorded.
        assert.ok(
          !events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'approved_actions'),
        );
      }
    });
  }
});
