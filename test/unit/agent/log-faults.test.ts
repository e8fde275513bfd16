// A conversation whose log fails it: a system-prompt record that is unreadable on resume, and an
// append that fails with ENOSPC (a full disk) in the middle of a run.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import type { Event } from '../../../src/core/events';
import { isCorruptRecord, SegmentEventStore, type SegmentStoreOptions } from '../../../src/core/log';
import { stateFromStore } from '../../../src/core/state';
import { createHarness, type Harness } from '../../support/agent-harness';
import { flipByteInLine, lineOffsets, segmentPath } from '../log/helpers';

const echo = (id: string, text: string) => ({
  id,
  name: 'terminal',
  arguments: { command: `echo ${text}`, security_risk: 'LOW', summary: `echo ${text}` },
});

type Message = { role: string; content: unknown };
const requestMessages = (h: Harness, i: number) => h.llm.completionBodies()[i]!.messages as Message[];

function noSpace(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

describe('Conversation: when the log fails it', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-log-faults-'));
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const openStore = (o: SegmentStoreOptions<StoredConversationEvent> = {}) =>
    SegmentEventStore.open<StoredConversationEvent>(dir, { codec: conversationEventCodec, ...o });

  async function ids(): Promise<string[]> {
    const s = await openStore({ readOnly: true });
    const out = (await s.slice()).map((e) => e.id);
    await s.close();
    return out;
  }

  it('a corrupt system-prompt record is re-derived on resume: the next request has a system message', async () => {
    h = await createHarness({
      name: 'resume',
      turns: [{ reply: { content: 'First answer.' } }, { reply: { content: 'Second answer.' } }],
    });
    let store = await openStore();
    let c = await h.open({ store });
    await c.sendMessage('first task');
    assert.equal(await c.run(), 'finished');
    await store.close();
    const before = await ids();
    assert.equal(requestMessages(h, 0)[0]?.role, 'system');

    // The system prompt is the first record; damage it so that it no longer decodes.
    const file = segmentPath(dir);
    flipByteInLine(file, lineOffsets(file)[0]!, 30);
    store = await openStore();
    assert.ok(isCorruptRecord(await store.get(0)), 'the record is unreadable now');
    c = await h.open({ store });
    await c.sendMessage('second task');
    assert.equal(await c.run(), 'finished');
    await store.close();

    const second = requestMessages(h, 1);
    assert.equal(second[0]?.role, 'system', 'the resumed request leads with a system message');
    assert.match(String(second[0]?.content), /You are Logbook/);
    assert.equal(second.filter((m) => m.role === 'system').length, 1);
    // Every other event recorded before is still there, in place, and the new prompt is recorded.
    const after = await ids();
    assert.deepEqual(after.slice(1, before.length), before.slice(1));
    const s = await openStore({ readOnly: true });
    const kinds = (await s.slice(before.length)).map((e) => e.kind);
    await s.close();
    assert.equal(kinds[0], 'SystemPromptEvent');
  });

  it('ENOSPC during a run: the run stops with an error the log records, and nothing recorded is lost', async () => {
    h = await createHarness({
      name: 'disk-full',
      turns: [
        { reply: { toolCalls: [echo('call_1', 'one')] } },
        { reply: { toolCalls: [echo('call_2', 'two')] } },
      ],
    });
    let diskFull = false;
    const store = await openStore({
      io: {
        write: (fd, b, o, l, p) => {
          // The disk fills once; the store's reserve is what makes room for the error records.
          if (diskFull) {
            diskFull = false;
            throw noSpace();
          }
          return fs.writeSync(fd, b, o, l, p);
        },
      },
    });
    assert.ok(fs.existsSync(path.join(dir, 'reserve')), 'a writer keeps a reserve');
    const c = await h.open({ store });
    const seen: Event[] = [];
    c.onEvent((e) => {
      seen.push(e);
      if (e.kind === 'ObservationEvent') diskFull = true;
    });
    await c.sendMessage('echo twice');
    assert.equal(await c.run(), 'error');
    await store.close();

    assert.ok(!fs.existsSync(path.join(dir, 'reserve')), 'the reserve was given up for the error');
    const r = await openStore({ readOnly: true });
    const { state } = await stateFromStore(r, { id: 'x' });
    const stored = await r.slice();
    await r.close();
    assert.equal(state.status, 'error', 'a reader does not find it running');
    assert.match(state.lastError?.message ?? '', /^log_write_failed: .*ENOSPC/);
    // Every event appended (before the failure and the error records after it) is in the log, in order.
    assert.deepEqual(
      stored.slice(-seen.length).map((e) => e.id),
      seen.map((e) => e.id),
    );
  });

  it('ENOSPC with no room left at all: the run rejects with the error, the log keeps what it had', async () => {
    h = await createHarness({
      name: 'disk-full-for-good',
      turns: [{ reply: { toolCalls: [echo('call_1', 'one')] } }],
    });
    let diskFull = false;
    const store = await openStore({
      io: {
        write: (fd, b, o, l, p) => {
          if (diskFull) throw noSpace();
          return fs.writeSync(fd, b, o, l, p);
        },
      },
    });
    const c = await h.open({ store });
    const seen: string[] = [];
    c.onEvent((e) => {
      seen.push(e.id);
      if (e.kind === 'ObservationEvent') diskFull = true;
    });
    await c.sendMessage('echo once');
    await assert.rejects(c.run(), /ENOSPC/);
    diskFull = false;
    await store.close();
    assert.deepEqual((await ids()).slice(-seen.length), seen);
  });
});
