// Which files someone other than the agent changed after a checkpoint, known from the states the
// runtime records after each file-changing action: the real agent loop (scripted model, real
// terminal) and the real git store; the "user" edits files while an action waits for approval and
// after the last one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Conversation } from '../../../src/core/agent/conversation';
import { checkpointAt } from '../../../src/core/checkpoints/timeline';
import type { Event } from '../../../src/core/events';
import { editedOutsideAgent } from '../../../src/host/node/checkpoints/edited-outside';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import { createHarness, type Harness } from '../../support/agent-harness';
import type { Scenario } from '../../support/llm-server';

const command = (id: string, cmd: string) => ({
  id,
  name: 'terminal',
  arguments: { command: cmd, security_risk: 'HIGH', summary: id },
});

/** Two commands of the agent, each approved by the user; then a reply. */
const SCENARIO: Scenario = {
  name: 'edited-outside',
  turns: [
    { reply: { toolCalls: [command('call_one', 'echo one > agent.txt && echo gen > made.txt')] } },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [command('call_two', 'echo two >> agent.txt && rm old.txt')] },
    },
    { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
  ],
};

const stateKeys = (events: readonly Event[]) =>
  events.flatMap((e) =>
    e.kind === 'ConversationStateUpdateEvent' && /^checkpoint|^action_started$/.test(e.key)
      ? [e.key]
      : e.kind === 'ObservationEvent'
        ? ['observation']
        : [],
  );

describe('Files edited outside the agent, from the recorded after-states', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let storeRoot: string;
  let store: GitCheckpointStore;

  beforeEach(() => {
    storeRoot = mkdtempSync(join(tmpdir(), 'logbook-ckpt-stores-'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    rmSync(storeRoot, { recursive: true, force: true });
  });

  /** Runs both commands; the user edits `between.txt` while the second waits for approval. */
  async function run(): Promise<{ c: Conversation; ws: string }> {
    h = await createHarness(SCENARIO, { confirmationMode: 'risky' });
    const ws = h.workspace;
    for (const f of ['between.txt', 'after.txt', 'untouched.txt', 'old.txt'])
      writeFileSync(join(ws, f), `${f}\n`);
    store = new GitCheckpointStore({ workspace: ws, storeDir: storeDirFor(storeRoot, ws) });
    const c = await h.open({ checkpoints: store });
    await c.sendMessage('change the files');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    await c.approve();
    assert.equal(await c.run(), 'waiting_for_confirmation', 'the second command waits');
    writeFileSync(join(ws, 'between.txt'), 'the user typed this between the steps\n');
    await c.approve();
    assert.equal(await c.run(), 'finished');
    return { c, ws };
  }

  it('names a user edit between two actions and one after the last, never a file the agent changed', async () => {
    const { c, ws } = await run();
    writeFileSync(join(ws, 'after.txt'), 'the user typed this after the agent\n');
    const events = await c.events();
    const actions = events.filter((e) => e.kind === 'ActionEvent');
    // Each command: its checkpoint, started, the files as it left them, its observation.
    assert.deepEqual(stateKeys(events), [
      ...['checkpoint', 'action_started', 'checkpoint_after', 'observation'],
      ...['checkpoint', 'action_started', 'checkpoint_after', 'observation'],
    ]);
    const afters = events.filter(
      (e): e is Extract<Event, { kind: 'ConversationStateUpdateEvent' }> =>
        e.kind === 'ConversationStateUpdateEvent' && e.key === 'checkpoint_after',
    );
    assert.deepEqual(
      afters.map((e) => (e.value as { action_id: string }).action_id),
      actions.map((a) => a.id),
    );
    assert.deepEqual(
      afters.map((e) => (e.value as { changes: { path: string }[] }).changes.map((x) => x.path).sort()),
      [
        ['agent.txt', 'made.txt'],
        ['agent.txt', 'old.txt'],
      ],
      'an after-state lists what its action changed',
    );

    // Restore to before the first command: every file below changes; only the user's are named.
    const first = checkpointAt(events, actions[0]!.id)!;
    const plan = await store.plan(first.value.checkpoint);
    assert.deepEqual(plan.changes.map((x) => x.path).sort(), [
      'after.txt',
      'agent.txt',
      'between.txt',
      'made.txt',
      'old.txt',
    ]);
    const edited = await editedOutsideAgent(store, events, first, plan);
    assert.equal(edited.source, 'log');
    assert.deepEqual([...edited.paths].sort(), ['after.txt', 'between.txt']);

    // Restore to before the second command: the edit between came before it, so it is kept.
    const second = checkpointAt(events, actions[1]!.id)!;
    const plan2 = await store.plan(second.value.checkpoint);
    const edited2 = await editedOutsideAgent(store, events, second, plan2);
    assert.deepEqual([...edited2.paths].sort(), ['after.txt']);
    assert.ok(!plan2.changes.some((x) => x.path === 'between.txt'));

    // An edit undone by the user before the next step is no edit.
    writeFileSync(join(ws, 'after.txt'), 'after.txt\n');
    const plan3 = await store.plan(first.value.checkpoint);
    assert.deepEqual([...(await editedOutsideAgent(store, events, first, plan3)).paths], ['between.txt']);
  });

  it('after a restore (and its undo) the restored files count as the restore left them', async () => {
    const { c, ws } = await run();
    const events = await c.events();
    const actions = events.filter((e) => e.kind === 'ActionEvent');
    const first = checkpointAt(events, actions[0]!.id)!;
    // Restore to before the first command, recorded as the editor records it; then undo it.
    const restored = await store.restore(first.value.checkpoint, c.id);
    const r1 = await c.recordRestore({
      checkpoint: restored.before.id,
      reason: 'restore',
      restored_to: first.eventId,
      files: restored.before.files,
      files_changed: restored.before.filesChanged,
      changes: [],
      skipped: [],
    });
    const undone = await store.restore(restored.before.id, c.id);
    await c.recordRestore({
      checkpoint: undone.before.id,
      reason: 'restore',
      restored_to: r1.id,
      files: undone.before.files,
      files_changed: undone.before.filesChanged,
      changes: [],
      skipped: [],
    });
    writeFileSync(join(ws, 'untouched.txt'), 'edited after the undo\n');
    const now = await c.events();
    const plan = await store.plan(first.value.checkpoint);
    const edited = await editedOutsideAgent(store, now, checkpointAt(now, actions[0]!.id)!, plan);
    assert.equal(edited.source, 'log');
    assert.deepEqual([...edited.paths].sort(), ['between.txt', 'untouched.txt']);
  });

  it('in a fork made at a checkpoint and restored to it ("Continue from here and restore files"), still from the log', async () => {
    const { c, ws } = await run();
    const events = await c.events();
    const actions = events.filter((e) => e.kind === 'ActionEvent');
    const second = checkpointAt(events, actions[1]!.id)!;
    const forked = new MemoryEventStore<StoredConversationEvent>();
    await c.fork(second.eventId, forked);
    const f = await h!.open({ store: forked, checkpoints: store });
    const restored = await store.restore(second.value.checkpoint, 'fork');
    await f.recordRestore({
      checkpoint: restored.before.id,
      reason: 'restore',
      restored_to: second.eventId,
      files: restored.before.files,
      files_changed: restored.before.filesChanged,
      changes: [],
      skipped: [],
    });
    writeFileSync(join(ws, 'untouched.txt'), 'edited in the fork\n');
    const inFork = await f.events();
    assert.ok(
      !inFork.some(
        (e) =>
          e.kind === 'ConversationStateUpdateEvent' &&
          e.key === 'action_started' &&
          (e.value as { action_id: string }).action_id === actions[1]!.id,
      ),
      'the fork ends at the checkpoint',
    );
    const first = checkpointAt(inFork, actions[0]!.id)!;
    const plan = await store.plan(first.value.checkpoint);
    const edited = await editedOutsideAgent(store, inFork, first, plan);
    assert.equal(edited.source, 'log');
    assert.deepEqual([...edited.paths].sort(), ['between.txt', 'untouched.txt']);
    assert.ok(
      plan.changes.some((x) => x.path === 'agent.txt'),
      'the first command’s file changes, unmarked',
    );
  });

  it('a log without after-states (an older conversation) falls back to modification times', async () => {
    const { c, ws } = await run();
    const old = (await c.events()).filter(
      (e) => !(e.kind === 'ConversationStateUpdateEvent' && e.key === 'checkpoint_after'),
    );
    const first = checkpointAt(old, old.find((e) => e.kind === 'ActionEvent')!.id)!;
    // A file modified well after the conversation's last event counts; the edit between the steps
    // (older than the last event) is what the guess misses.
    const last = Date.parse(old.at(-1)!.timestamp);
    utimesSync(join(ws, 'agent.txt'), new Date(last + 5000), new Date(last + 5000));
    const plan = await store.plan(first.value.checkpoint);
    const edited = await editedOutsideAgent(store, old, first, plan);
    assert.equal(edited.source, 'time');
    assert.deepEqual([...edited.paths], ['agent.txt']);
  });

  it('compares every pair in one git call and reports a state the store no longer holds', async () => {
    const { c } = await run();
    const events = await c.events();
    const first = checkpointAt(events, events.find((e) => e.kind === 'ActionEvent')!.id)!;
    const held = await store.held(c.id);
    assert.equal(held.length, 2, 'after-states are not on the checkpoints’ own chain');
    const plan = await store.plan(first.value.checkpoint);
    const missing = 'f'.repeat(40);
    const r = await store.changedBetween([
      { from: first.value.checkpoint, to: plan.current },
      { from: missing, to: plan.current },
      { from: 'not an id', to: plan.current },
    ]);
    assert.deepEqual(r.missing.sort(), [missing, 'not an id'].sort());
    assert.ok(r.paths.has('between.txt') && r.paths.has('agent.txt'));
  });
});
