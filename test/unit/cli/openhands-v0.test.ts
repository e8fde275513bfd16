// `logbook import-openhands` on an OpenHands V0 trajectory file: the real V0 fixture becomes a
// Logbook conversation that `show` reads and whose events are the V0 records mapped one by one.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { type Event, importV0Trajectory, serializeEvent } from '../../../src/core/events';
import { openEventStore } from '../../../src/core/log';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const V0_FILE = join(__dirname, '..', 'events', 'fixtures', 'openhands-v0-trajectory.json');

async function storedEvents(dir: string): Promise<Record<string, unknown>[]> {
  const store = await openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  try {
    const out: Record<string, unknown>[] = [];
    for await (const e of store.iterate(0))
      out.push(JSON.parse(serializeEvent(e as Event)) as Record<string, unknown>);
    return out;
  } finally {
    await store.close();
  }
}

describe('logbook import-openhands: OpenHands V0 trajectories', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('imports the V0 fixture file, and show reads the conversation', async () => {
    const store = join(fx.tmp(), 'v0');
    const r = await runCli(['import-openhands', V0_FILE, '--store', store]);
    assert.equal(r.code, 0, printed(r));
    const expected = importV0Trajectory(JSON.parse(readFileSync(V0_FILE, 'utf8')) as unknown[]);
    assert.ok(expected.length > 10);
    assert.match(r.stdout, new RegExp(`Imported ${expected.length} events from an OpenHands V0 trajectory`));
    assert.ok(existsSync(join(store, 'segments')));

    const stored = await storedEvents(store);
    // The import is recorded as the last event.
    const last = stored.pop()!;
    assert.equal(last.key, 'imported_from');
    const events = stored;
    assert.deepEqual(
      events,
      expected.map((e) => JSON.parse(serializeEvent(e)) as Record<string, unknown>),
    );
    const kinds = new Set(events.map((e) => e.kind));
    for (const kind of ['SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent'])
      assert.ok(kinds.has(kind), `${kind} among ${[...kinds].join(', ')}`);
    const terminal = events.find((e) => e.kind === 'ActionEvent' && e.tool_name === 'terminal');
    assert.ok(terminal, 'a V0 run action is a terminal call');

    const show = await runCli(['show', store, '--json']);
    assert.equal(show.code, 0, printed(show));
    const state = JSON.parse(show.stdout) as Record<string, unknown>;
    assert.equal(state.event_count, expected.length + 1);
    assert.equal(state.corrupt_records, 0);
    const text = await runCli(['show', store]);
    assert.equal(text.code, 0, printed(text));
    assert.match(text.stdout, /status/);
    const v = await runCli(['verify', store]);
    assert.equal(v.code, 0, printed(v));
    assert.match(
      v.stdout,
      new RegExp(
        `^${expected.length} imported unsigned events, then 1 verified, signed by you; none missing`,
      ),
    );
  });

  it('accepts a trajectory wrapped as {"history": [...]}, and refuses a file that is no trajectory', async () => {
    const root = fx.tmp();
    const wrapped = join(root, 'wrapped.json');
    writeFileSync(wrapped, JSON.stringify({ history: JSON.parse(readFileSync(V0_FILE, 'utf8')) as unknown }));
    const ok = await runCli(['import-openhands', wrapped, '--store', join(root, 'w')]);
    assert.equal(ok.code, 0, printed(ok));

    for (const [name, content, message] of [
      ['broken.json', '[{"id": 0,', /is not an OpenHands V0 trajectory: it is not JSON/],
      ['object.json', '{"events": 3}', /expected a JSON array of events/],
    ] as const) {
      const file = join(root, name);
      writeFileSync(file, content);
      const store = join(root, `store-${name}`);
      const r = await runCli(['import-openhands', file, '--store', store]);
      assert.equal(r.code, 1, printed(r));
      assert.match(r.stderr, message);
      assert.ok(!existsSync(store), 'nothing is left behind');
    }
  });
});
