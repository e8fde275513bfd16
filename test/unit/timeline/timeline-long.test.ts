// The chat's timeline on a long log the session lends: each point is read from the snapshot before
// it and the checkpoints after it, never the whole log held in memory, and says exactly what the
// timeline over the whole log in memory says.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNAPSHOT_EVERY } from '../../../src/core/agent/conversation-memory';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { CHECKPOINT_KEY, checkpointEventValue } from '../../../src/core/checkpoints/types';
import type { Event } from '../../../src/core/events';
import { SegmentEventStore } from '../../../src/core/log';
import { encodeSnapshot, initialState, reduce } from '../../../src/core/state';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import {
  ConversationTimeline,
  IN_MEMORY_MAX,
  type TimelineLog,
} from '../../../src/host/vscode/timeline/timeline-source';
import { LogBuilder } from '../state/builders';

type Stored = StoredConversationEvent;

describe('ConversationTimeline on a long log', function () {
  this.timeout(120_000);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-timeline-long-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads each point from the snapshot before it, with what the whole log in memory gives', async () => {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const checkpoints = new GitCheckpointStore({
      workspace: ws,
      storeDir: storeDirFor(join(root, 'stores'), ws),
    });
    const b = new LogBuilder();
    const events: Event[] = [];
    const put = (e: Event) => void events.push(e);
    put(b.user('change the files'));
    put(b.status('running'));
    // Actions that change a file, with checkpoints, spread over a log longer than IN_MEMORY_MAX.
    for (let step = 0; events.length < IN_MEMORY_MAX + 1500; step++) {
      const a = b.action(`call_${step}`, `r${step}`);
      put(a);
      if (step % 40 === 0) {
        const c = await checkpoints.record({ conversationId: 'c', reason: 'action', actionId: a.id });
        put(b.update(CHECKPOINT_KEY, checkpointEventValue(c, { reason: 'action', actionId: a.id })));
        writeFileSync(join(ws, `f${step}.txt`), `${step}\n`);
      }
      put(b.started(a));
      put(b.observe(a));
      put(b.usage('agent', { prompt_tokens: step + 1 }));
    }
    const c = await checkpoints.record({ conversationId: 'c', reason: 'after', actionId: events.at(-3)!.id });
    put(
      b.update('checkpoint_after', checkpointEventValue(c, { reason: 'after', actionId: events.at(-3)!.id })),
    );
    put(b.status('finished'));

    // The log as a Conversation writes it: a snapshot every SNAPSHOT_EVERY events, thinned by the store.
    const store = await SegmentEventStore.open<Stored>(join(root, 'conv'), { codec: conversationEventCodec });
    let s = initialState('c');
    for (let i = 0; i < events.length; i++) {
      await store.append(events[i] as Stored);
      s = reduce(s, events[i]!);
      if ((i + 1) % SNAPSHOT_EVERY === 0) await store.writeSnapshot(i, encodeSnapshot(s));
    }
    let held = 0;
    const readable = async (from: number) => {
      const out = events.slice(from).map((event, k) => ({ seq: from + k, event }));
      held += out.length;
      return out;
    };
    const lent: TimelineLog = { eventCount: events.length, readableEvents: readable, timelineStore: store };
    const whole: TimelineLog = { eventCount: events.length, readableEvents: readable };
    const fromStore = new ConversationTimeline(
      'c',
      async () => lent,
      () => checkpoints,
    );
    const inMemory = new ConversationTimeline(
      'c',
      async () => whole,
      () => checkpoints,
    );
    try {
      for (const seq of [
        0,
        7,
        499,
        1234,
        IN_MEMORY_MAX,
        events.length - 700,
        events.length - 3,
        events.length - 1,
      ]) {
        const heldBefore = held;
        const got = await fromStore.pointAt(seq);
        assert.equal(held, heldBefore, `point ${seq}: the long log is not read whole`);
        assert.deepEqual(got, await inMemory.pointAt(seq), `point ${seq}`);
      }
    } finally {
      await store.close();
    }
  });
});
