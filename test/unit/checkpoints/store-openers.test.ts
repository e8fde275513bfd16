// Several openers of one workspace's checkpoint store at once (two windows, a window and the CLI):
// none sees the store half made, none fails because another holds the index for a moment, and
// every checkpoint holds the files byte for byte.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';

const CRLF = 'one\r\ntwo\r\n';

describe('checkpoint store: openers at once', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let storeDir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-openers-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    // A workspace whose attributes would convert line ends: only a finished store keeps the bytes.
    writeFileSync(join(ws, '.gitattributes'), '* text eol=lf\n');
    writeFileSync(join(ws, 'crlf.txt'), CRLF);
    storeDir = storeDirFor(join(root, 'stores'), ws);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The bytes of a file in a checkpoint, as git's object store holds them. */
  const recorded = (checkpoint: string, path: string) =>
    execFileSync('git', ['--git-dir', join(storeDir, 'git'), 'cat-file', 'blob', `${checkpoint}:${path}`], {
      encoding: 'utf8',
    });

  it('a store another opener is still making (git init done, nothing after) is finished, not used half made', async () => {
    mkdirSync(join(storeDir, 'git'), { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', join(storeDir, 'git')], {
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: root },
    });
    const store = new GitCheckpointStore({ workspace: ws, storeDir });
    const rec = await store.record({ conversationId: 'c1', reason: 'action' });
    assert.equal(recorded(rec.id, 'crlf.txt'), CRLF);
  });

  it('a checkpoint waits while another process holds the index, then records', async () => {
    const store = new GitCheckpointStore({ workspace: ws, storeDir });
    await store.record({ conversationId: 'c1', reason: 'action' });
    writeFileSync(join(ws, 'crlf.txt'), CRLF + 'three\r\n');
    // Held for longer than the checkpoint takes to reach the index (a few git calls).
    const lock = join(storeDir, 'index.lock');
    writeFileSync(lock, '');
    const released = new Promise((res) => setTimeout(res, 1500)).then(() => rmSync(lock));
    const rec = await store.record({ conversationId: 'c1', reason: 'action' });
    await released;
    assert.equal(recorded(rec.id, 'crlf.txt'), CRLF + 'three\r\n');
  });

  it('openers that make the store at the same moment all record, and leave nothing of the making', async () => {
    // Each opener names the store by a path of its own (a link to the same folder), so nothing in
    // this process orders their git calls: only the store's own making and locks do.
    for (let round = 0; round < 6; round++) {
      const parent = join(root, `stores-${round}`);
      mkdirSync(parent);
      const openers = [0, 1, 2].map((n) => {
        const alias = join(root, `alias-${round}-${n}`);
        symlinkSync(parent, alias);
        return new GitCheckpointStore({ workspace: ws, storeDir: join(alias, 'store') });
      });
      const results = await Promise.allSettled(
        openers.map((s, n) => s.record({ conversationId: `c${n}`, reason: 'action' })),
      );
      storeDir = join(parent, 'store');
      for (const r of results) {
        if (r.status === 'rejected') assert.fail(`round ${round}: ${String(r.reason)}`);
        assert.equal(recorded(r.value.id, 'crlf.txt'), CRLF, `round ${round}`);
      }
      assert.deepEqual(readdirSync(storeDir).sort(), ['git', 'index'], `round ${round}`);
    }
  });
});
