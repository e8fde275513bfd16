// Opening a long conversation reads its newest snapshot and the events after it, never the whole
// log, and gives the same memory as a full replay: state, next prompt, pending actions, the events
// the stuck detector reads. The log here is written by the real agent loop (scripted LLM server,
// summarizing condenser) with a snapshot every few dozen events, then reopened at many lengths.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationMemory } from '../../../src/core/agent/conversation-memory';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { conversationEventCodec } from '../../../src/core/agent/event-codec';
import { decodePositions, type KeptPositions } from '../../../src/core/agent/view-positions';
import { LlmSummarizingCondenser } from '../../../src/core/context';
import type { Event } from '../../../src/core/events';
import { isCorruptRecord } from '../../../src/core/log/event-store';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import { SegmentEventStore } from '../../../src/core/log/segment-store';
import { encodeSnapshot, SNAPSHOT_VERSION } from '../../../src/core/state';
import { createHarness, type Harness } from '../../support/agent-harness';
import { startScriptedLlm, type Scenario, type ScriptedLlm } from '../../support/llm-server';

const EVERY = 37;
const ID = 'test-conversation';

/** Replies of a long task: mostly `think` steps, some parallel pairs and shell commands. */
function longTask(steps: number): Scenario['turns'] {
  return Array.from({ length: steps }, (_, i) => {
    const think = (n: string) => ({
      id: `call_${i}_${n}`,
      name: 'think',
      arguments: { thought: `step ${i} ${n}` },
    });
    const echo = {
      id: `call_${i}_sh`,
      name: 'terminal',
      arguments: { command: `echo out${i}`, security_risk: 'LOW', summary: `echo ${i}` },
    };
    const calls = i % 9 === 4 ? [think('a'), think('b')] : i % 13 === 6 ? [echo] : [think('a')];
    return { reply: { content: i % 5 === 0 ? `Working on step ${i}.` : '', toolCalls: calls } };
  });
}

async function memoryEquals(store: MemoryEventStore<StoredConversationEvent>, events: Event[], what: string) {
  const load = await ConversationMemory.load(store, ID);
  const full = ConversationMemory.fromEvents(events, ID);
  assert.deepEqual(load.memory.state, full.state, `${what}: state`);
  // Asked before the view is read: from the snapshot's word, when it has one.
  assert.equal(await load.memory.hasSystemPrompt(), await full.hasSystemPrompt(), `${what}: system prompt`);
  assert.deepEqual(
    (await load.memory.prompt()).messages(),
    (await full.prompt()).messages(),
    `${what}: next prompt`,
  );
  assert.deepEqual(
    (await load.memory.settleRecent()).map((e) => e.id),
    full.recent.map((e) => e.id),
    `${what}: recent events`,
  );
  for (const p of full.state.pendingActions) {
    assert.equal(load.memory.pendingAction(p.actionId)?.id, p.actionId, `${what}: pending action`);
  }
  return load;
}

describe('Conversation: open from the newest snapshot', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  let summarizer: ScriptedLlm | undefined;
  afterEach(async () => {
    await h?.close();
    await summarizer?.close();
    h = undefined;
    summarizer = undefined;
  });

  it('gives the same state, prompt, pending actions and recent events as a full replay, at every length', async () => {
    summarizer = await startScriptedLlm({
      scenario: { name: 'summaries', turns: [], fallback: { content: 'SUMMARY of earlier steps.' } },
    });
    h = await createHarness(
      {
        name: 'long',
        turns: [
          ...longTask(60),
          { reply: { content: 'Part one done.' } },
          ...longTask(40),
          { reply: { content: 'Part two done.' } },
          { match: { lastRole: 'user' }, reply: { toolCalls: [riskyCall] } },
        ],
        fallback: { content: 'Done.' },
      },
      { maxIterations: 500, confirmationMode: 'risky' },
      { condenser: new LlmSummarizingCondenser({ maxSize: 30, keepFirst: 2 }), summarizer },
    );
    const store = await h.persistentStore();
    const c = await h.open({ store, snapshotEvery: EVERY });
    await c.sendMessage('a long task');
    assert.equal(await c.run(), 'finished');
    await c.sendMessage('and a second part');
    assert.equal(await c.run(), 'finished');
    await c.sendMessage('now clean up');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    await c.approve();

    const events = (await store.slice(0)).filter((s) => !isCorruptRecord(s)) as Event[];
    assert.ok(events.length > 10 * EVERY, `only ${events.length} events`);
    assert.ok(events.filter((e) => e.kind === 'Condensation').length >= 5, 'several condensations');

    // Reopen at many lengths: a store with the first n events and the snapshots the runtime wrote.
    for (let n = 1; n <= events.length; n += n < 3 * EVERY ? 1 : 7) {
      const copy = new MemoryEventStore<StoredConversationEvent>();
      for (const e of events.slice(0, n)) await copy.append(e as StoredConversationEvent);
      const snap = await store.latestSnapshot(n - 1);
      if (snap) await copy.writeSnapshot(snap.index, snap.json);
      const load = await memoryEquals(copy, events.slice(0, n), `first ${n} events`);
      // The store keeps only some of the snapshots it was given (snapshot-thinning.ts).
      if (snap) {
        assert.equal(load.fromSnapshot, snap.index, `first ${n} events: opened from the snapshot`);
        assert.equal(load.replayed, n - 1 - snap.index, `first ${n} events: read only the tail`);
      }
    }

    // Mid-turn, the recent events before the snapshot are read when the loop first needs them;
    // a user message first (a new task) makes the read moot, and nothing before the snapshot is read.
    const isUser = (e: Event) => e.kind === 'MessageEvent' && e.source === 'user';
    // A snapshot the store kept a few events into a task, opened a few events after it.
    const tasks = events.flatMap((e, i) => (isUser(e) ? [i] : []));
    let task = -1;
    let midTurn = -1;
    for (let n = events.length - 1; n > 0 && midTurn < 0; n--) {
      const kept = await store.latestSnapshot(n);
      const start = tasks.findLast((t) => t < (kept?.index ?? 0)) ?? -1;
      const end = tasks.find((t) => t > (kept?.index ?? 0)) ?? events.length;
      if (kept && start >= 0 && kept.index > start + 2 && kept.index + 5 < end) {
        task = start;
        midTurn = kept.index + 5;
      }
    }
    assert.ok(midTurn > 0, 'a snapshot within a task');
    const copy = new MemoryEventStore<StoredConversationEvent>();
    for (const e of events.slice(0, midTurn + 1)) await copy.append(e as StoredConversationEvent);
    const snap = (await store.latestSnapshot(midTurn))!;
    await copy.writeSnapshot(snap.index, snap.json);
    const slices: number[] = [];
    const slice = copy.slice.bind(copy);
    copy.slice = (from?: number, to?: number) => {
      slices.push(from ?? 0);
      return slice(from, to);
    };
    const waiting = await ConversationMemory.load(copy, ID);
    assert.equal(waiting.fromSnapshot, snap.index);
    const before = slices.length;
    waiting.memory.absorb({ ...events[task]!, id: 'a-new-task' } as Event, midTurn + 1);
    assert.deepEqual(await waiting.memory.settleRecent(), []);
    assert.equal(slices.length, before, 'nothing read for the recent events after a user message');
    const settled = await ConversationMemory.load(copy, ID);
    const full = ConversationMemory.fromEvents(events.slice(0, midTurn + 1), ID);
    assert.ok(
      snap.index > task && full.recent.length > midTurn - snap.index,
      'the turn began before the snapshot',
    );
    assert.deepEqual(
      (await settled.memory.settleRecent()).map((e) => e.id),
      full.recent.map((e) => e.id),
    );
    assert.ok(
      slices.slice(before).some((from) => from <= snap.index),
      'read before the snapshot when needed',
    );

    // Snapshots give the view's entries as positions; one written with their ids (before that
    // form) still opens, and there wrong positions only cost a lookup by id.
    const newest = (await store.latestSnapshot())!;
    const envelope = JSON.parse(newest.json) as { resume: { view: Record<string, unknown> } };
    const kept = envelope.resume.view.kept as KeptPositions;
    assert.ok(kept.count > 0 && !('entries' in envelope.resume.view));
    const positions = decodePositions(kept)!;
    const prefix = events.slice(0, newest.index + 1);
    const storeWith = async (view: Record<string, unknown>) => {
      const s = new MemoryEventStore<StoredConversationEvent>();
      for (const e of prefix) await s.append(e as StoredConversationEvent);
      await s.writeSnapshot(newest.index, JSON.stringify({ ...envelope, resume: { view } }));
      return s;
    };
    const { kept: _kept, ...rest } = envelope.resume.view;
    const byIds = {
      ...rest,
      entries: positions.map((p) => prefix[p]!.id),
      at: positions.map((p) => (p * 7) % events.length),
    };
    const load = await memoryEquals(await storeWith(byIds), prefix, 'ids, misplaced positions');
    assert.equal(load.fromSnapshot, newest.index);

    // Positions past the log's end: the snapshot is not resumed from.
    const shifted = { ...envelope.resume.view, kept: { ...kept, first: kept.first + 1 } };
    const replayed = await memoryEquals(await storeWith(shifted), prefix, 'shifted positions');
    assert.equal(replayed.fromSnapshot, null);
    // Positions that name other events than the checkpoint did (their crc differs): the state
    // still comes from the snapshot, the view is rebuilt from the whole log when it is read.
    const otherIds = { ...envelope.resume.view, kept: { ...kept, idsCrc: '00000000' } };
    const rebuilt = await memoryEquals(await storeWith(otherIds), prefix, 'positions of other events');
    assert.equal(rebuilt.fromSnapshot, newest.index);

    // The view is read when the first prompt needs it, not at open: the snapshot says whether it
    // shows a system prompt. A snapshot written before it said so still opens; asking then reads it.
    const envelopeResume = envelope.resume as { systemPrompt?: boolean };
    assert.equal(envelopeResume.systemPrompt, true);
    for (const older of [false, true]) {
      const s = new MemoryEventStore<StoredConversationEvent>();
      for (const e of prefix) await s.append(e as StoredConversationEvent);
      const resume = older ? { view: envelope.resume.view } : envelope.resume;
      await s.writeSnapshot(newest.index, JSON.stringify({ ...envelope, resume }));
      let reads = 0;
      const slice = s.slice.bind(s);
      s.slice = (from?: number, to?: number) => {
        reads += (to ?? s.length) - (from ?? 0);
        return slice(from, to);
      };
      const opened = await ConversationMemory.load(s, ID);
      const atOpen = reads;
      assert.equal(await opened.memory.hasSystemPrompt(), true);
      const viewReads = reads - atOpen;
      if (older) assert.ok(viewReads > 0, 'an older snapshot: the view is read to answer');
      else assert.equal(viewReads, 0, 'the snapshot answers: nothing is read');
      const full = ConversationMemory.fromEvents(prefix, ID);
      assert.deepEqual((await opened.memory.prompt()).messages(), (await full.prompt()).messages());
    }

    // The conversation itself reopens from its snapshot and still knows the approval.
    await store.close();
    const reopenedStore = await SegmentEventStore.open<StoredConversationEvent>(
      (store as SegmentEventStore<StoredConversationEvent>).dir,
      {
        codec: conversationEventCodec,
      },
    );
    const again = await h.open({ store: reopenedStore, snapshotEvery: EVERY });
    assert.notEqual(again.opened.fromSnapshot, null);
    assert.ok(again.opened.replayed < EVERY);
    assert.equal(again.status, 'waiting_for_confirmation');
    assert.equal(again.awaitingConfirmation().length, 0, 'the approval was recorded before the restart');
    assert.equal(await again.run(), 'finished');
    await reopenedStore.close();
  });

  it('replays a log without usable snapshots once, then snapshots it so the next open is fast', async () => {
    h = await createHarness(
      { name: 'thinks', turns: longTask(40), fallback: { content: 'Done.' } },
      {
        maxIterations: 500,
      },
    );
    const dir = mkdtempSync(join(tmpdir(), 'logbook-open-'));
    const openStore = () =>
      SegmentEventStore.open<StoredConversationEvent>(join(dir, 'c'), { codec: conversationEventCodec });
    let store = await openStore();
    const c = await h.open({ store, snapshotEvery: EVERY });
    await c.sendMessage('think a lot');
    assert.equal(await c.run(), 'finished');
    const length = store.length;
    assert.ok(length > 2 * EVERY);
    // A snapshot of an older version (or one without a view checkpoint) cannot be resumed from.
    await store.writeSnapshot(
      length - 1,
      encodeSnapshot(c.state).replace(`"v":${SNAPSHOT_VERSION}`, '"v":1'),
    );
    await store.close();
    removeSnapshotsExceptNewest(join(dir, 'c'));

    store = await openStore();
    const first = await h.open({ store, snapshotEvery: EVERY });
    assert.deepEqual(first.opened, { fromSnapshot: null, replayed: length });
    await store.close();

    store = await openStore();
    const second = await h.open({ store, snapshotEvery: EVERY });
    assert.deepEqual(second.opened, { fromSnapshot: length - 1, replayed: 0 });
    assert.deepEqual(second.state, first.state);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

const riskyCall = {
  id: 'call_rm',
  name: 'terminal',
  arguments: { command: 'rm -rf build', security_risk: 'HIGH', summary: 'clean build' },
};

/** Leaves only the newest snapshot file of a segment store, the stale one written by the test. */
function removeSnapshotsExceptNewest(dir: string): void {
  const snapDir = readdirSync(dir).find((f) => f.includes('snap'));
  if (!snapDir) throw new Error(`no snapshot folder in ${dir}: ${readdirSync(dir).join(', ')}`);
  const files = readdirSync(join(dir, snapDir)).sort();
  for (const f of files.slice(0, -1)) rmSync(join(dir, snapDir, f));
}
