import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventFileName } from '../../../src/core/log';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

// The real OpenHands SDK conversation in test/fixtures/openhands (as test/unit/log uses it).
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'openhands');

function fixtureEvents(): Record<string, unknown>[] {
  return readFileSync(join(FIXTURES, 'real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The fixture laid out as the OpenHands SDK persists a conversation. */
function openHandsDir(root: string): string {
  const dir = join(root, 'oh');
  mkdirSync(join(dir, 'events'), { recursive: true });
  copyFileSync(join(FIXTURES, 'base_state.json'), join(dir, 'base_state.json'));
  readFileSync(join(FIXTURES, 'real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .forEach((line, i) => {
      const id = (JSON.parse(line) as { id: string }).id;
      writeFileSync(join(dir, 'events', eventFileName(i, id)), line);
    });
  return dir;
}

function readOpenHandsEvents(dir: string): Record<string, unknown>[] {
  return readdirSync(join(dir, 'events'))
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(dir, 'events', n), 'utf8')) as Record<string, unknown>);
}

describe('logbook import-openhands / export-openhands', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('imports the real OpenHands fixture and exports it back: same events, same base_state', async () => {
    const root = fx.tmp();
    const source = openHandsDir(root);
    const store = join(root, 'imported');
    const imported = await runCli(['import-openhands', source, '--store', store]);
    assert.equal(imported.code, 0, printed(imported));
    assert.match(imported.stdout, /Imported 10 events/);
    assert.ok(existsSync(join(store, 'segments')), 'a segment log, not a copy of the layout');

    const show = await runCli(['show', store, '--json']);
    assert.equal(show.code, 0, printed(show));
    const state = JSON.parse(show.stdout) as Record<string, unknown>;
    assert.equal(state.id, '11111111-2222-3333-4444-555555555555');
    // The ten imported events, then the event that records the import.
    assert.equal(state.event_count, 11);
    assert.equal(state.corrupt_records, 0);
    const verified = await runCli(['verify', store]);
    assert.equal(verified.code, 0, printed(verified));
    assert.match(
      verified.stdout,
      /^10 imported unsigned events, then 1 verified, signed by you; none missing \(checked against the head kept outside the folder\)\n$/,
    );

    const out = join(root, 'exported');
    const exported = await runCli(['export-openhands', store, out]);
    assert.equal(exported.code, 0, printed(exported));
    const events = readOpenHandsEvents(out);
    assert.deepEqual(events.slice(0, 10), fixtureEvents());
    assert.deepEqual(
      { kind: events[10]!.kind, key: events[10]!.key, value: events[10]!.value },
      {
        kind: 'ConversationStateUpdateEvent',
        key: 'imported_from',
        value: { format: 'openhands-sdk', source: 'oh', events: 10, signatures_kept: false },
      },
    );
    assert.deepEqual(
      readdirSync(join(out, 'events')).sort().slice(0, 10),
      readdirSync(join(source, 'events')).sort(),
      'same file names: index and id',
    );
    assert.deepEqual(
      JSON.parse(readFileSync(join(out, 'base_state.json'), 'utf8')),
      JSON.parse(readFileSync(join(FIXTURES, 'base_state.json'), 'utf8')),
    );
    assert.ok(!existsSync(join(out, 'LOCK')), 'the export leaves no lock behind');

    // Imported again, the export keeps its signatures: verify still passes, through both imports.
    assert.ok(existsSync(join(out, 'logbook-signatures.log')));
    const again = join(root, 'again');
    const reimported = await runCli(['import-openhands', out, '--store', again]);
    assert.equal(reimported.code, 0, printed(reimported));
    assert.match(reimported.stdout, /their signatures kept/);
    const twice = await runCli(['verify', again, '--json']);
    assert.equal(twice.code, 0, printed(twice));
    const r = JSON.parse(twice.stdout) as {
      status: string;
      events: number;
      imported: number;
      verified: number;
    };
    assert.deepEqual([r.status, r.events, r.imported, r.verified], ['verified', 12, 10, 12]);
  });

  it('imports an export whose events were changed as unsigned: the old signatures are not kept', async () => {
    const root = fx.tmp();
    const store = join(root, 'imported');
    assert.equal((await runCli(['import-openhands', openHandsDir(root), '--store', store])).code, 0);
    const out = join(root, 'exported');
    assert.equal((await runCli(['export-openhands', store, out])).code, 0);
    const file = join(out, 'events', readdirSync(join(out, 'events')).sort()[2]!);
    const event = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...event, timestamp: '2020-01-01T00:00:00' }));
    const again = join(root, 'again');
    const r = await runCli(['import-openhands', out, '--store', again]);
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stdout, /unsigned as imported/);
    const v = await runCli(['verify', again]);
    assert.equal(v.code, 0, printed(v));
    assert.match(v.stdout, /^11 imported unsigned events, then 1 verified/);
  });

  it('refuses to import into a non-empty store, from a non-OpenHands directory, or to run on the layout', async () => {
    const root = fx.tmp();
    const source = openHandsDir(root);
    const busy = join(root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'something'), 'x');
    const r1 = await runCli(['import-openhands', source, '--store', busy]);
    assert.equal(r1.code, 1);
    assert.match(r1.stderr, /not empty/);
    const r2 = await runCli(['import-openhands', busy, '--store', join(root, 'new')]);
    assert.equal(r2.code, 1);
    assert.match(r2.stderr, /not an OpenHands conversation/);
    assert.ok(!existsSync(join(root, 'new')));
    // Running on the OpenHands layout itself would hide its events behind a new segment log.
    const r3 = await runCli(['run', '--workspace', root, '--task', 'x', '--store', source]);
    assert.equal(r3.code, 1, printed(r3));
    assert.match(r3.stderr, /import it first/);
    assert.ok(!existsSync(join(source, 'segments')));
  });
});
