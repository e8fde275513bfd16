// The chat timeline's host side on a real checkpoint store: the state right after any event, the
// files changed from the first checkpoint to that point, a log that grows while it is looked at,
// unreadable records, and the refusals (no such event, a path the point does not list).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINT_KEY, checkpointEventValue } from '../../../src/core/checkpoints/types';
import type { Event } from '../../../src/core/events';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import type { WorkspaceCheckpointStore } from '../../../src/host/node/checkpoints/workspace-store';
import {
  ConversationTimeline,
  TimelineError,
  type TimelineLog,
} from '../../../src/host/vscode/timeline/timeline-source';
import { LogBuilder } from '../state/builders';

/** A log of `events` at seqs that skip the ones in `unreadable` (records that cannot be decoded). */
class FakeLog implements TimelineLog {
  readonly slots: ({ event: Event } | null)[] = [];
  add(e: Event | null): number {
    this.slots.push(e ? { event: e } : null);
    return this.slots.length - 1;
  }
  get eventCount(): number {
    return this.slots.length;
  }
  async readableEvents(fromSeq: number) {
    const out: { seq: number; event: Event }[] = [];
    for (let seq = fromSeq; seq < this.slots.length; seq++) {
      const s = this.slots[seq];
      if (s) out.push({ seq, event: s.event });
    }
    return out;
  }
}

describe('ConversationTimeline', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let store: GitCheckpointStore;
  let plans: number;
  let counted: WorkspaceCheckpointStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-timeline-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    store = new GitCheckpointStore({ workspace: ws, storeDir: storeDirFor(join(root, 'stores'), ws) });
    plans = 0;
    counted = Object.assign(Object.create(store) as GitCheckpointStore, {
      planFrom: (a: string, b: string) => {
        plans++;
        return store.planFrom(a, b);
      },
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A run of two terminal actions: the first writes a.txt, the second adds b.txt. */
  async function recorded() {
    const b = new LogBuilder();
    const log = new FakeLog();
    const put = (e: Event) => log.add(e);
    writeFileSync(join(ws, 'a.txt'), 'start\n');
    put(b.user('change the files'));
    put(b.status('running'));
    const plan = b.plan('call_plan', 'r0', ['Write a.txt', 'Add b.txt']);
    put(plan);
    put(b.observe(plan));
    const first = b.action('call_1', 'r1');
    const c1 = await store.record({ conversationId: 'c', reason: 'action', actionId: first.id });
    put(b.update(CHECKPOINT_KEY, checkpointEventValue(c1, { reason: 'action', actionId: first.id })));
    const firstSeq = put(first);
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    const afterFirst = put(b.observe(first));
    const unreadable = log.add(null);
    const second = b.action('call_2', 'r2');
    const c2 = await store.record({ conversationId: 'c', reason: 'action', actionId: second.id });
    put(b.update(CHECKPOINT_KEY, checkpointEventValue(c2, { reason: 'action', actionId: second.id })));
    put(second);
    writeFileSync(join(ws, 'b.txt'), 'bee\n');
    put(b.observe(second));
    const c3 = await store.record({ conversationId: 'c', reason: 'after', actionId: second.id });
    put(b.update('checkpoint_after', checkpointEventValue(c3, { reason: 'after', actionId: second.id })));
    const end = put(b.status('finished'));
    return { b, log, firstSeq, afterFirst, unreadable, end, c2, c3 };
  }

  it('gives the state and the files changed up to any event', async () => {
    const r = await recorded();
    const t = new ConversationTimeline(
      'c',
      async () => r.log,
      () => counted,
    );

    const start = await t.pointAt(0);
    assert.equal(start.seq, 0);
    assert.equal(start.status, 'idle');
    assert.deepEqual(start.files, []);
    assert.equal(start.lastSeq, r.end);

    const mid = await t.pointAt(r.afterFirst);
    assert.equal(mid.status, 'running');
    assert.equal(mid.mode, 'act');
    assert.deepEqual(
      mid.plan.map((p) => `${p.status} ${p.title}`),
      ['done Write a.txt', 'todo Add b.txt'],
    );
    assert.deepEqual(mid.files, [{ path: 'a.txt', status: 'M' }]);
    // In the user's words: how many files changed, and since when; no checkpoint hash.
    assert.equal(mid.filesNote, '1 file changed since the conversation started');

    // After the agent's last change: the files its last action left.
    const end = await t.pointAt(r.end);
    assert.equal(end.status, 'finished');
    assert.deepEqual(end.files.map((f) => `${f.status} ${f.path}`).sort(), ['A b.txt', 'M a.txt']);
    const files = await t.filesAt(r.end);
    assert.equal(files.at, r.c3.id);

    // An unreadable record stands for the readable event before it.
    const gap = await t.pointAt(r.unreadable);
    assert.equal(gap.seq, r.afterFirst);

    // Asking again costs no other comparison of the checkpoints.
    const before = plans;
    await t.pointAt(r.afterFirst);
    await t.pointAt(r.end);
    assert.equal(plans, before);
  });

  it('follows a log that grows while it is looked at', async () => {
    const r = await recorded();
    const t = new ConversationTimeline(
      'c',
      async () => r.log,
      () => counted,
    );
    assert.equal((await t.pointAt(r.end)).status, 'finished');
    const more = r.log.add(r.b.user('and again'));
    const running = r.log.add(r.b.status('running'));
    assert.equal((await t.pointAt(more)).lastSeq, running);
    assert.equal((await t.pointAt(running)).status, 'running');
  });

  it('refuses an event that is not in the log and a path the point does not list', async () => {
    const r = await recorded();
    const t = new ConversationTimeline(
      'c',
      async () => r.log,
      () => counted,
    );
    await assert.rejects(
      t.pointAt(r.end + 1),
      (e: unknown) => e instanceof TimelineError && /no event/.test(String(e)),
    );
    await assert.rejects(t.pointAt(-1), TimelineError);
    await assert.rejects(t.pointAt(1.5), TimelineError);
    assert.equal((await t.changedFile(r.end, 'b.txt')).change.status, 'A');
    for (const path of ['../../etc/passwd', 'b.txt/../a.txt', '/etc/passwd'])
      await assert.rejects(t.changedFile(r.end, path), /not a file this conversation changed/);
    // b.txt did not exist yet at the first action.
    await assert.rejects(t.changedFile(r.afterFirst, 'b.txt'), TimelineError);
  });

  it('says so when the conversation recorded no checkpoint', async () => {
    const b = new LogBuilder();
    const log = new FakeLog();
    log.add(b.user('hi'));
    log.add(b.agent('hello'));
    const t = new ConversationTimeline(
      'c',
      async () => log,
      () => counted,
    );
    const p = await t.pointAt(1);
    assert.deepEqual(p.files, []);
    assert.match(p.filesNote, /no file checkpoint/);
    assert.equal(plans, 0);
  });
});
