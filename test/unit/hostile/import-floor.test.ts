// A long import reads its event files ahead on a second thread and carries its snapshots' view from
// one to the next. Neither may change what it stores or how it fails: a bad file past the reader's
// window still fails the import naming the record, and leaves nothing behind.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventFileName } from '../../../src/core/log';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, openHandsSampleLayout, readLogJson } from '../cli/fixtures';

/** More events than an import reads on one thread (READ_AHEAD_FROM), and than the reader's window. */
const LONG = 3000;

describe('logbook import-openhands: a long folder', function () {
  this.timeout(180_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('stores every event as its file has it, and opens from the snapshot the import wrote', async () => {
    const source = openHandsSampleLayout(fx.tmp(), LONG);
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(['import-openhands', source, '--store', store]);
    assert.equal(r.code, 0, printed(r));
    const log = await readLogJson(store);
    const files = readdirSync(join(source, 'events')).sort();
    assert.equal(log.length, LONG + 1, 'the events and the import record');
    files.forEach((f, i) => {
      assert.deepEqual(log[i], JSON.parse(readFileSync(join(source, 'events', f), 'utf8')), f);
    });
    const shown = await runCli(['show', store]);
    assert.equal(shown.code, 0, printed(shown));
    const snapshots = readdirSync(join(store, 'snapshots'));
    assert.ok(snapshots.includes(`snap-${String(LONG - 1).padStart(12, '0')}.json`), snapshots.join(' '));
  });

  it('fails on a bad file far into the folder, naming its record, and leaves no conversation', async () => {
    const source = openHandsSampleLayout(fx.tmp(), LONG);
    const bad = LONG - 200;
    const id = `00000000-0000-4000-8000-${String(bad).padStart(12, '0')}`;
    writeFileSync(join(source, 'events', eventFileName(bad, id)), '{"id": "cut off');
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(['import-openhands', source, '--store', store]);
    assert.notEqual(r.code, 0, printed(r));
    assert.match(r.stderr, new RegExp(`record ${bad} is unreadable`));
    assert.equal(existsSync(store), false, 'nothing left behind');
  });
});
