// An action is rated again right before it runs: an earlier action of the same batch (here
// `ln -s <outside> link`) can make a later one that was LOW when proposed (`touch link/x.txt`)
// lead out of the workspace. (A file_editor call is not re-rated this way: it records where its
// path led and refuses to act anywhere else, see test/unit/hostile/boundary-file-tools.test.ts.) It must then wait for the user with the new rating, whether it was
// let through unasked or approved along with its batch; an approval whose rating did not rise stands.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionEvent, Event } from '../../../src/core/events';
import { PolicyGate } from '../../../src/core/agent/policy-gate';
import { riskRose } from '../../../src/core/agent/recheck';
import {
  APPROVED_ACTIONS_KEY,
  deriveState,
  RECONFIRM_KEY,
  ReconfirmValueSchema,
  type ReconfirmValue,
} from '../../../src/core/state';
import { defaultTools } from '../../../src/core/tools';
import { createHarness, type Harness } from '../../support/agent-harness';
import type { Scenario } from '../../support/llm-server';

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

function reconfirms(events: readonly Event[]): ReconfirmValue[] {
  return ofKind(events, 'ConversationStateUpdateEvent')
    .filter((e) => e.key === RECONFIRM_KEY)
    .map((e) => ReconfirmValueSchema.parse(e.value));
}

/** One reply: link a folder outside into the workspace, write through the link, then one more step. */
function scenario(outside: string): Scenario {
  return {
    name: 'link-then-write',
    turns: [
      {
        match: { lastRole: 'user' },
        reply: {
          toolCalls: [
            {
              id: 'call_ln',
              name: 'terminal',
              arguments: { command: `ln -s ${outside} link`, security_risk: 'LOW', summary: 'link' },
            },
            {
              id: 'call_create',
              name: 'terminal',
              arguments: { command: 'touch link/x.txt', security_risk: 'LOW', summary: 'an ordinary file' },
            },
            {
              id: 'call_after',
              name: 'file_editor',
              arguments: {
                command: 'create',
                path: 'after.txt',
                file_text: 'after\n',
                security_risk: 'LOW',
                summary: 'a workspace file',
              },
            },
          ],
        },
      },
      { match: { lastRole: 'tool' }, reply: { content: 'done' } },
    ],
  };
}

describe('Conversation: an action is rated again right before it runs', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  let outside: string;
  beforeEach(() => {
    // A folder of its own in the temp dir: outside the harness's workspace.
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-recheck-outside-')));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    rmSync(outside, { recursive: true, force: true });
  });

  /** The create must not have run: nothing outside, the rest of the batch not run either. */
  async function assertHeldAtCreate(events: readonly Event[], approvedRisk: 'LOW'): Promise<ActionEvent> {
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    assert.ok(!existsSync(join(h!.workspace, 'after.txt')), 'the rest of the batch waits too');
    const actions = ofKind(events, 'ActionEvent');
    const create = actions.find((a) => a.tool_call_id === 'call_create')!;
    const observed = ofKind(events, 'ObservationEvent').map((o) => o.tool_call_id);
    assert.deepEqual(observed, ['call_ln'], 'only the link ran');
    const again = reconfirms(events);
    assert.equal(again.length, 1);
    assert.equal(again[0]!.action_id, create.id);
    // MEDIUM: the folder outside is a temporary one (elsewhere it is HIGH).
    assert.equal(again[0]!.risk, 'MEDIUM');
    assert.equal(again[0]!.approved_risk, approvedRisk);
    assert.match(
      again[0]!.reasons.join('; '),
      new RegExp(`leads to ${escape(outside)}/x\\.txt\\), a temporary file outside the workspace`),
    );
    return create;
  }

  it('an action let through unasked waits for the user once an earlier action links its folder outside', async () => {
    h = await createHarness(scenario(outside), { confirmationMode: 'risky', allowRules: ['ln -s'] });
    const c = await h.open();
    await c.sendMessage('set things up');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    assert.ok(existsSync(join(h.workspace, 'link')), 'the allowed ln ran without asking');
    const create = await assertHeldAtCreate(await c.events(), 'LOW');
    // What the user is asked about is the create, with the path it now leads to.
    assert.deepEqual(
      c.awaitingConfirmation().map((a) => a.id),
      [create.id],
    );
    const gate = new PolicyGate(
      () => defaultTools(),
      () => ({ mode: 'risky', roots: [h!.workspace] }),
    );
    assert.match(gate.decide([create])[0]!.reasons.join(' '), /outside the workspace/);

    // Another run does not slip it through: it still waits.
    assert.equal(await c.run(), 'waiting_for_confirmation');
    await c.reject('do not write through that link');
    assert.equal(await c.run(), 'finished');
    assert.deepEqual(readdirSync(outside), [], 'the rejected create never wrote outside');
    const rejected = ofKind(await c.events(), 'UserRejectObservation').map((r) => r.tool_call_id);
    assert.deepEqual(rejected, ['call_create', 'call_after']);
  });

  it('an action approved with its batch at LOW asks again at the higher risk; approved at that risk it runs', async () => {
    h = await createHarness(scenario(outside), { confirmationMode: 'risky' });
    const c = await h.open();
    await c.sendMessage('set things up');
    assert.equal(await c.run(), 'waiting_for_confirmation', 'ln asks first');
    assert.equal(c.awaitingConfirmation()[0]?.tool_call_id, 'call_ln');
    await c.approve(); // the whole batch, as the CLI's approve and the chat's Confirm do
    assert.equal(await c.run(), 'waiting_for_confirmation');
    const create = await assertHeldAtCreate(await c.events(), 'LOW');
    assert.deepEqual(
      c.awaitingConfirmation().map((a) => a.id),
      [create.id],
    );
    assert.ok(!c.state.approved.includes(create.id), 'its approval was withdrawn');

    // The user approves it again, now knowing where it leads: the approval at HIGH stands.
    await c.approve([create.id]);
    assert.equal(c.state.approvedRisks[create.id], 'MEDIUM');
    assert.equal(await c.run(), 'finished');
    assert.equal(readFileSync(join(outside, 'x.txt'), 'utf8'), '');
    assert.ok(existsSync(join(h.workspace, 'after.txt')), 'the rest of the batch ran after it');
    assert.equal(reconfirms(await c.events()).length, 1, 'asked again once, not twice');
  });

  it('the wait survives a reopen of the log', async () => {
    h = await createHarness(scenario(outside), { confirmationMode: 'risky' });
    const store = await h.persistentStore();
    const c = await h.open({ store });
    await c.sendMessage('set things up');
    await c.run();
    await c.approve();
    assert.equal(await c.run(), 'waiting_for_confirmation');
    await store.close();
    const again = await h.open({ store: await h.persistentStore() });
    assert.equal(again.status, 'waiting_for_confirmation');
    assert.deepEqual(
      again.awaitingConfirmation().map((a) => a.tool_call_id),
      ['call_create'],
    );
    assert.equal(await again.run(), 'waiting_for_confirmation');
    assert.deepEqual(readdirSync(outside), []);
  });
});

describe('state: approvals carry the risk they were given at', () => {
  const base = { timestamp: '2025-01-01T00:00:00Z', source: 'agent' as const };
  const action = (id: string) =>
    ({
      ...base,
      kind: 'ActionEvent',
      id,
      thought: [],
      action: { kind: 'TerminalAction', command: 'ls' },
      tool_name: 'terminal',
      tool_call_id: `call_${id}`,
      tool_call: { id: `call_${id}`, name: 'terminal', arguments: '{}', origin: 'completion' },
      llm_response_id: 'r1',
      security_risk: 'LOW',
    }) as unknown as Event;
  const update = (id: string, key: string, value: unknown) =>
    ({
      ...base,
      source: 'environment',
      kind: 'ConversationStateUpdateEvent',
      id,
      key,
      value,
    }) as unknown as Event;

  it('records each approved risk (LOW when none was given) and a reconfirm withdraws the approval', () => {
    const approved = deriveState([
      action('a'),
      action('b'),
      update('u1', APPROVED_ACTIONS_KEY, { action_ids: ['a', 'b'], risks: { a: 'MEDIUM' } }),
    ]);
    assert.deepEqual(approved.approved, ['a', 'b']);
    assert.deepEqual(approved.approvedRisks, { a: 'MEDIUM', b: 'LOW' });
    const withdrawn = deriveState([
      action('a'),
      action('b'),
      update('u1', APPROVED_ACTIONS_KEY, { action_ids: ['a', 'b'], risks: { a: 'MEDIUM' } }),
      update('u2', RECONFIRM_KEY, { action_id: 'b', risk: 'HIGH', approved_risk: 'LOW', reasons: ['x'] }),
    ]);
    assert.deepEqual(withdrawn.approved, ['a']);
    assert.deepEqual(withdrawn.approvedRisks, { a: 'MEDIUM' });
  });

  it('a rise is a higher rating; UNKNOWN is above LOW and below MEDIUM', () => {
    assert.ok(riskRose('HIGH', 'LOW'));
    assert.ok(riskRose('UNKNOWN', 'LOW'));
    assert.ok(riskRose('MEDIUM', 'UNKNOWN'));
    assert.ok(!riskRose('HIGH', 'HIGH'));
    assert.ok(!riskRose('LOW', 'UNKNOWN'));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
