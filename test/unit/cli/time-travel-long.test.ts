// `logbook show --at` on a long conversation: an index or a whole id is found without reading the
// log, and the state is read forward from the snapshot at or before it, not from the first event.
import * as assert from 'node:assert/strict';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { generateConversation } from '../../../bench/conversation-generator';
import { type Event, serializeEvent } from '../../../src/core/events';
import { eventFileName } from '../../../src/core/log';
import { STRIDE } from '../../../src/core/log/snapshot-thinning';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'openhands');
const COUNT_READS = join(__dirname, '..', '..', 'support', 'count-segment-reads.cjs');

/** A generated conversation of `n` events in the OpenHands layout, imported; returns the store and events. */
async function importedConversation(root: string, n: number): Promise<{ store: string; events: Event[] }> {
  const events: Event[] = [];
  await generateConversation(n, 5, 'time-travel', (e) => void events.push(e));
  const source = join(root, 'oh');
  mkdirSync(join(source, 'events'), { recursive: true });
  copyFileSync(join(FIXTURES, 'base_state.json'), join(source, 'base_state.json'));
  events.forEach((e, i) => writeFileSync(join(source, 'events', eventFileName(i, e.id)), serializeEvent(e)));
  const store = join(root, 'imported');
  const r = await runCli(['import-openhands', source, '--store', store]);
  assert.equal(r.code, 0, printed(r));
  return { store, events };
}

/** A CLI run with the bytes it read from the log's segment files. */
async function withReads(args: string[], readsFile: string) {
  const r = await runCli(args, {
    env: { NODE_OPTIONS: `--require ${COUNT_READS}`, LOGBOOK_TEST_READS_FILE: readsFile },
  });
  return { r, read: Number(readFileSync(readsFile, 'utf8')) };
}

function segmentBytes(dir: string): number {
  const segs = join(dir, 'segments');
  return readdirSync(segs).reduce((sum, f) => sum + statSync(join(segs, f)).size, 0);
}

interface AtReport {
  at: { index: number; id: string; read_as: string };
  event_count: number;
  [k: string]: unknown;
}

describe('logbook show --at on a long conversation', function () {
  this.timeout(300_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('reads forward from the snapshot before the position, and says the same as a full replay', async () => {
    const root = fx.tmp();
    const { store, events } = await importedConversation(root, 4 * STRIDE + 200);
    // The same conversation without its snapshots: every position is replayed from the first event.
    const bare = join(root, 'no-snapshots');
    cpSync(store, bare, { recursive: true });
    rmSync(join(bare, 'snapshots'), { recursive: true });
    const total = segmentBytes(store);

    const mid = 2 * STRIDE + 300;
    const byIndex = await withReads(['show', store, '--at', `#${mid}`, '--json'], join(root, 'reads-index'));
    assert.equal(byIndex.r.code, 0, printed(byIndex.r));
    const full = await withReads(['show', bare, '--at', `#${mid}`, '--json'], join(root, 'reads-full'));
    assert.equal(full.r.code, 0, printed(full.r));
    const report = JSON.parse(byIndex.r.stdout) as AtReport;
    assert.deepEqual({ ...report, dir: null }, { ...(JSON.parse(full.r.stdout) as AtReport), dir: null });
    assert.deepEqual(report.at, { ...report.at, index: mid, id: events[mid]!.id, read_as: 'index' });
    assert.equal(report.event_count, mid + 1);
    assert.ok(
      full.read >= total * 0.5,
      `without snapshots it reads up to the position (${full.read} of ${total})`,
    );
    assert.ok(byIndex.read < total / 4, `show --at #${mid} read ${byIndex.read} of the log's ${total} bytes`);

    // A whole event id is looked up, not searched for: the same state, read the same way.
    const byId = await withReads(['show', store, '--at', events[mid]!.id, '--json'], join(root, 'reads-id'));
    assert.equal(byId.r.code, 0, printed(byId.r));
    const idReport = JSON.parse(byId.r.stdout) as AtReport;
    assert.deepEqual({ ...idReport, at: null }, { ...report, at: null });
    assert.equal(idReport.at.read_as, 'id');
    assert.ok(byId.read < total / 4, `show --at ID read ${byId.read} of the log's ${total} bytes`);

    // A bare number and --index N name the same event; the bare number is said to be read as one.
    const bareNumber = await runCli(['show', store, '--at', String(mid), '--json']);
    assert.equal(bareNumber.code, 0, printed(bareNumber));
    assert.deepEqual(JSON.parse(bareNumber.stdout), report);
    assert.match(bareNumber.stderr, new RegExp(`"${mid}" read as event index ${mid} \\(#${mid}\\)`));
    const option = await runCli(['show', store, '--index', String(mid), '--json']);
    assert.deepEqual(JSON.parse(option.stdout), report);
    assert.equal(option.stderr, '');

    // The text report names the index it was read at, which is again an input.
    const text = await runCli(['show', store, '--at', `#${mid}`]);
    assert.match(text.stdout, new RegExp(`at event   ${mid} \\(${events[mid]!.id}`));
  });

  it('refuses an index outside the log, and --index that is not one', async () => {
    const root = fx.tmp();
    const { store } = await importedConversation(root, 50);
    const outside = await runCli(['show', store, '--at', '#51']);
    assert.equal(outside.code, 1, printed(outside));
    assert.match(outside.stderr, /No event #51 in this conversation: its events are #0 to #50\./);
    const notIndex = await runCli(['show', store, '--index', 'abc']);
    assert.equal(notIndex.code, 1, printed(notIndex));
    assert.match(notIndex.stderr, /--index takes an event index/);
    const both = await runCli(['show', store, '--index', '3', '--at', '#3']);
    assert.match(both.stderr, /--at ID or --index N, not both/);
  });
});
