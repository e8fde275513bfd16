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
import { SNAPSHOT_EVERY } from '../../../src/core/agent/conversation-memory';
import { type Event, serializeEvent } from '../../../src/core/events';
import { eventFileName } from '../../../src/core/log';
import { snapshotsToKeep } from '../../../src/core/log/snapshot-thinning';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'openhands');
const COUNT_READS = join(__dirname, '..', '..', 'support', 'count-segment-reads.cjs');

/**
 * A long OpenHands-layout conversation (the benchmarks' generator, condensations included) that
 * ends on an action still waiting for its result, so `show` has a pending action to describe.
 */
async function longOpenHandsDir(root: string, wanted: number): Promise<{ dir: string; count: number }> {
  const events: Event[] = [];
  await generateConversation(wanted + 60, 3, 'show-test', (e) => void events.push(e));
  const last = events.findLastIndex((e, i) => i < wanted + 60 && i >= wanted && e.kind === 'ActionEvent');
  assert.ok(last >= wanted, 'the generator wrote an action near the end');
  const dir = join(root, 'oh');
  mkdirSync(join(dir, 'events'), { recursive: true });
  copyFileSync(join(FIXTURES, 'base_state.json'), join(dir, 'base_state.json'));
  events
    .slice(0, last + 1)
    .forEach((e, i) => writeFileSync(join(dir, 'events', eventFileName(i, e.id)), serializeEvent(e)));
  return { dir, count: last + 1 };
}

/** `show --json` of `dir` and the bytes it read from the log's segment files. */
async function showWithReads(
  dir: string,
  readsFile: string,
): Promise<{ report: Record<string, unknown>; read: number }> {
  const r = await runCli(['show', dir, '--json'], {
    env: { NODE_OPTIONS: `--require ${COUNT_READS}`, LOGBOOK_TEST_READS_FILE: readsFile },
  });
  assert.equal(r.code, 0, printed(r));
  return {
    report: JSON.parse(r.stdout) as Record<string, unknown>,
    read: Number(readFileSync(readsFile, 'utf8')),
  };
}

function segmentBytes(dir: string): number {
  const segs = join(dir, 'segments');
  return readdirSync(segs).reduce((sum, f) => sum + statSync(join(segs, f)).size, 0);
}

describe('logbook show of a long imported conversation', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('the import writes snapshots; show starts from the newest and reports what a full replay reports', async () => {
    const root = fx.tmp();
    const { dir: source, count } = await longOpenHandsDir(root, 3 * SNAPSHOT_EVERY + 100);
    const store = join(root, 'imported');
    const imported = await runCli(['import-openhands', source, '--store', store]);
    assert.equal(imported.code, 0, printed(imported));

    // A snapshot every SNAPSHOT_EVERY events, as a running conversation writes them, and one at the
    // end; the store keeps those that snapshotsToKeep picks among them.
    const snaps = readdirSync(join(store, 'snapshots')).sort();
    const every = Array.from(
      { length: Math.floor(count / SNAPSHOT_EVERY) },
      (_, k) => (k + 1) * SNAPSHOT_EVERY - 1,
    );
    assert.deepEqual(
      snaps,
      [...snapshotsToKeep([...every, count - 1])]
        .sort((a, b) => a - b)
        .map((i) => `snap-${String(i).padStart(12, '0')}.json`),
    );

    // The same conversation without its snapshots: show has to replay every event.
    const replayed = join(root, 'no-snapshots');
    cpSync(store, replayed, { recursive: true });
    rmSync(join(replayed, 'snapshots'), { recursive: true });

    const fast = await showWithReads(store, join(root, 'reads-fast'));
    const full = await showWithReads(replayed, join(root, 'reads-full'));
    const total = segmentBytes(store);
    assert.ok(full.read >= total, `a full replay reads the whole log (${full.read} of ${total} bytes)`);
    assert.ok(fast.read < total / 10, `show read ${fast.read} of the log's ${total} bytes`);

    assert.deepEqual({ ...fast.report, dir: null }, { ...full.report, dir: null });
    assert.equal(fast.report.event_count, count + 1, 'the events and the one that records the import');
    assert.equal(fast.report.corrupt_records, 0);
    const pending = fast.report.pending_actions as { tool: string; summary: string }[];
    assert.equal(pending.length, 1, 'the last action waits for its result');
    assert.equal(pending[0]!.tool, 'terminal');
    assert.notEqual(pending[0]!.summary, '', 'described from its ActionEvent, read by id');
    assert.ok((fast.report.metrics as { total: { calls: number } }).total.calls > 0);
  });

  it('counts an unreadable record that the log reports at open, although it reads from a snapshot', async () => {
    const root = fx.tmp();
    const { dir: source } = await longOpenHandsDir(root, 2 * SNAPSHOT_EVERY + 50);
    const store = join(root, 'imported');
    assert.equal((await runCli(['import-openhands', source, '--store', store])).code, 0);

    // Damage one record early in the log (same length, so every later record keeps its place) and
    // remove meta.json, so that the open rescans the log and reports the hole.
    const seg = join(store, 'segments', readdirSync(join(store, 'segments')).sort()[0]!);
    const text = readFileSync(seg);
    const lineStart = text.indexOf('\n', text.indexOf('\n', text.indexOf('\n') + 1) + 1) + 1;
    text[lineStart + 20] = text[lineStart + 20] === 0x41 ? 0x42 : 0x41;
    writeFileSync(seg, text);
    rmSync(join(store, 'meta.json'));

    const { report, read } = await showWithReads(store, join(root, 'reads'));
    assert.equal(report.corrupt_records, 1, JSON.stringify(report));
    assert.ok(read > 0);
  });
});
