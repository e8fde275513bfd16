// Copying a source worktree's checkpoints into another worktree's store (a continued task's copied
// points): the copies restore the other worktree, the conversation's refs keep them and go on from
// the newest, an id no store holds is reported, and neither worktree is written by the copy.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointNotHeldError } from '../../../src/core/checkpoints/types';
import { copyCheckpoints } from '../../../src/host/node/checkpoints/checkpoint-copy';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { treeHashes } from './tree-hash';

describe('copyCheckpoints', function () {
  this.timeout(60_000);
  let root: string;
  let source: GitCheckpointStore;
  let target: GitCheckpointStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-ckpt-copy-'));
    for (const name of ['a', 'b']) mkdirSync(join(root, name));
    source = new GitCheckpointStore({
      workspace: join(root, 'a'),
      storeDir: storeDirFor(join(root, 's'), 'a'),
    });
    target = new GitCheckpointStore({
      workspace: join(root, 'b'),
      storeDir: storeDirFor(join(root, 't'), 'b'),
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("puts the source's checkpoints in the other store, where they restore its own worktree", async () => {
    writeFileSync(join(root, 'a', 'f.txt'), 'one\n');
    const first = await source.record({ conversationId: 'src', reason: 'action' });
    writeFileSync(join(root, 'a', 'f.txt'), 'two\n');
    const second = await source.record({ conversationId: 'src', reason: 'action' });
    writeFileSync(join(root, 'b', 'f.txt'), 'two\n');
    await assert.rejects(target.plan(first.id), CheckpointNotHeldError);
    const sourceBefore = treeHashes(join(root, 'a'));
    const targetBefore = treeHashes(join(root, 'b'));

    const missing = await copyCheckpoints([source.storeDir], target, 'new', {
      ids: [first.id, second.id, 'f'.repeat(40)],
      newest: second.id,
    });
    assert.deepEqual(missing, ['f'.repeat(40)]);
    assert.deepEqual(treeHashes(join(root, 'a')), sourceBefore, 'the copy wrote the source worktree');
    assert.deepEqual(treeHashes(join(root, 'b')), targetBefore, 'the copy wrote the target worktree');
    // The new conversation holds the copied chain, and a restore puts the other worktree back.
    assert.deepEqual(await target.held('new'), [second.id, first.id]);
    await target.restore(first.id, 'new');
    assert.equal(readFileSync(join(root, 'b', 'f.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(root, 'a', 'f.txt'), 'utf8'), 'two\n');
  });
});
