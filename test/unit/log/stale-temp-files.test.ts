// Temp files a writer killed between write and rename left behind are removed where a writer opens
// their folder: all of them where a lock proves nobody else writes, only old ones elsewhere.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ImageStore } from '../../../src/core/attachments/image-store';
import { openEventStore } from '../../../src/core/log';
import {
  STALE_TEMP_AGE_MS,
  isDurableTempName,
  removeStaleTempFiles,
  tempsOf,
} from '../../../src/core/log/durable-file';
import { writeHeadRecord } from '../../../src/core/signing/head-record';
import { ConversationIndexFile } from '../../../src/core/state';
import { CheckpointRepo } from '../../../src/host/node/checkpoints/checkpoint-repo';
import { writeTrustList } from '../../../src/host/node/trust-list';
import { cleanupTmp, ev, tmpDir } from './helpers';

/** Writes `name` in `dir`, last modified `ageMs` ago. */
function temp(dir: string, name: string, ageMs: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'half');
  const at = (Date.now() - ageMs) / 1000;
  fs.utimesSync(file, at, at);
  return file;
}

const OLD = STALE_TEMP_AGE_MS + 60_000;
const FRESH = 5_000;

function present(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

describe('stale temp files', () => {
  afterEach(cleanupTmp);

  describe('removeStaleTempFiles', () => {
    it('removes only matching temp files older than the age, keeping fresh ones and other files', () => {
      const dir = tmpDir('temps');
      temp(dir, '.a.json.1a2b3c4d.tmp', OLD);
      temp(dir, '.b.json.5e6f7a8b.tmp', FRESH);
      temp(dir, 'a.json', OLD);
      temp(dir, 'notes.tmp', OLD); // no leading dot: not a durable-file temp
      const removed = removeStaleTempFiles(dir, isDurableTempName);
      assert.deepEqual(removed, ['.a.json.1a2b3c4d.tmp']);
      assert.deepEqual(present(dir), ['.b.json.5e6f7a8b.tmp', 'a.json', 'notes.tmp']);
    });

    it('removes fresh ones too when told nobody else can be writing (age 0)', () => {
      const dir = tmpDir('temps');
      temp(dir, '.a.json.1a2b3c4d.tmp', FRESH);
      assert.deepEqual(removeStaleTempFiles(dir, isDurableTempName, { olderThanMs: 0 }), [
        '.a.json.1a2b3c4d.tmp',
      ]);
      assert.deepEqual(present(dir), []);
    });

    it('a missing folder has none', () => {
      assert.deepEqual(removeStaleTempFiles(path.join(tmpDir('temps'), 'nope'), isDurableTempName), []);
    });

    it('tempsOf names both spellings of one target and no other target', () => {
      const is = tempsOf('index.json');
      assert.equal(is('index.json.4242.1a2b3c4d.tmp'), true);
      assert.equal(is('.index.json.1a2b3c4d.tmp'), true);
      assert.equal(is('index.json'), false);
      assert.equal(is('index.jsonx.1.tmp'), false);
      assert.equal(is('.other.json.1a2b3c4d.tmp'), false);
    });
  });

  describe('a conversation folder, opened to write', () => {
    it('loses its snapshot and meta temps, and old LOCK temps; a fresh LOCK temp stays', async () => {
      const dir = tmpDir('conv');
      const s0 = await openEventStore(dir);
      await s0.append(ev('e0'));
      await s0.close();
      temp(dir, '.meta.json.1a2b3c4d.tmp', FRESH);
      temp(path.join(dir, 'snapshots'), '.snap-000000000100.json.1a2b3c4d.tmp', FRESH);
      temp(dir, 'LOCK.0b7c-old.tmp', OLD);
      temp(dir, 'LOCK.0b7c-new.tmp', FRESH);

      const s = await openEventStore(dir);
      await s.close();
      assert.deepEqual(present(path.join(dir, 'snapshots')), []);
      const top = present(dir);
      assert.ok(!top.includes('.meta.json.1a2b3c4d.tmp'), top.join(', '));
      assert.ok(!top.includes('LOCK.0b7c-old.tmp'), top.join(', '));
      assert.ok(top.includes('LOCK.0b7c-new.tmp'), 'another process may be taking the lock');
    });

    it('a read-only open removes nothing (it holds no lock)', async () => {
      const dir = tmpDir('conv');
      const s0 = await openEventStore(dir);
      await s0.append(ev('e0'));
      await s0.close();
      temp(path.join(dir, 'snapshots'), '.snap-000000000100.json.1a2b3c4d.tmp', OLD);
      const s = await openEventStore(dir, { readOnly: true });
      await s.close();
      assert.deepEqual(present(path.join(dir, 'snapshots')), ['.snap-000000000100.json.1a2b3c4d.tmp']);
    });

    it('an OpenHands folder loses its base_state and snapshot temps', async () => {
      const dir = tmpDir('oh');
      fs.writeFileSync(path.join(dir, 'base_state.json'), '{}');
      fs.mkdirSync(path.join(dir, 'events'));
      temp(dir, '.base_state.json.1a2b3c4d.tmp', FRESH);
      temp(path.join(dir, 'snapshots'), '.snap-000000000001.json.1a2b3c4d.tmp', FRESH);
      const s = await openEventStore(dir, { backend: 'openhands' });
      await s.close();
      assert.ok(!present(dir).includes('.base_state.json.1a2b3c4d.tmp'), present(dir).join(', '));
      assert.deepEqual(present(path.join(dir, 'snapshots')), []);
    });
  });

  it('the conversation index loses old temps when loaded, keeping a window’s fresh one', async () => {
    const root = tmpDir('index');
    temp(root, 'index.json.4242.1a2b3c4d.tmp', OLD);
    temp(root, '.index.json.1a2b3c4d.tmp', OLD);
    temp(root, 'index.json.4343.5e6f7a8b.tmp', FRESH);
    await new ConversationIndexFile(path.join(root, 'index.json')).load(() => []);
    assert.deepEqual(present(root), ['index.json', 'index.json.4343.5e6f7a8b.tmp']);
  });

  it('writing a head record removes old temps of any conversation’s head there', async () => {
    const heads = tmpDir('heads');
    temp(heads, 'c1.json.999.tmp', OLD);
    temp(heads, 'c2.json.998.tmp', FRESH);
    await writeHeadRecord(path.join(heads, 'c3.json'), {
      conversation: 'c3',
      dir: '/x',
      count: 1,
      head: 'h',
      did: 'd',
    });
    assert.deepEqual(present(heads), ['c2.json.998.tmp', 'c3.json']);
  });

  it('writing the trust list removes its old temps', () => {
    const dir = tmpDir('trust');
    temp(dir, 'trusted-signers.json.999.tmp', OLD);
    temp(dir, 'trusted-signers.json.998.tmp', FRESH);
    writeTrustList(path.join(dir, 'trusted-signers.json'), []);
    assert.deepEqual(present(dir), ['trusted-signers.json', 'trusted-signers.json.998.tmp']);
  });

  it('writing a checkpoint ref removes old ref temps (git would take one for a ref)', () => {
    const store = tmpDir('ckpt');
    const gitDir = path.join(store, 'git');
    const refs = path.join(gitDir, 'refs', 'logbook');
    temp(refs, 'c1.999.tmp', OLD);
    temp(refs, 'c2.998.tmp', FRESH);
    const repo = new CheckpointRepo(
      { gitDir, workTree: tmpDir('ws'), indexFile: path.join(store, 'index') },
      store,
      tmpDir('ws'),
      () => [],
    );
    repo.writeRef('refs/logbook/c3', 'a'.repeat(40));
    assert.deepEqual(present(refs), ['c2.998.tmp', 'c3']);
  });

  it('storing an image removes old image temps', async () => {
    const conv = tmpDir('img');
    const store = new ImageStore(conv);
    temp(store.dir, 'ab.png.1a2b3c4d5e6f.tmp', OLD);
    temp(store.dir, 'cd.png.1a2b3c4d5e6f.tmp', FRESH);
    // The smallest PNG signature the sniffer accepts, plus a few bytes.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(16),
    ]);
    const r = await store.put(png);
    assert.ok(r.ok, JSON.stringify(r));
    const left = present(store.dir);
    assert.ok(!left.includes('ab.png.1a2b3c4d5e6f.tmp'), left.join(', '));
    assert.ok(left.includes('cd.png.1a2b3c4d5e6f.tmp'), left.join(', '));
  });
});
