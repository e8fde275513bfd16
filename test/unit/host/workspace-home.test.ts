// Where a workspace's conversations live whatever storage folder VS Code hands the window, and how
// conversations left in a suffixed folder come home: on real folders, with a real writer lock.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock } from '../../../src/core/log';
import { adoptSiblings, workspaceHome } from '../../../src/host/vscode/storage/workspace-home';

const EXT = 'logbook.logbook-agent';

describe('workspace home of the conversations', () => {
  let all: string;
  beforeEach(() => {
    all = join(mkdtempSync(join(tmpdir(), 'wsh-')), 'workspaceStorage');
    mkdirSync(all);
  });
  afterEach(() => rmSync(join(all, '..'), { recursive: true, force: true }));

  const storage = (name: string) => {
    const dir = join(all, name, EXT);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const conversation = (ext: string, id: string) => {
    const dir = join(ext, 'conversations', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'meta.json'), '{}');
    return dir;
  };

  it('a window given the workspace folder itself is at home; its suffixed siblings are found', () => {
    const own = storage('abc123');
    const one = storage('abc123-1');
    storage('abc123-2');
    storage('abc1234'); // another workspace whose name starts the same
    mkdirSync(join(all, 'abc123-3')); // VS Code's folder without this extension's
    const w = workspaceHome(own);
    assert.equal(w.home, own);
    assert.deepEqual(w.siblings.sort(), [one, join(all, 'abc123-2', EXT)]);
  });

  it('a window handed "<name>-1" keeps its conversations in "<name>"', () => {
    const own = storage('abc123');
    const one = storage('abc123-1');
    const w = workspaceHome(one);
    assert.equal(w.home, own);
    assert.deepEqual(w.siblings, [one]);
  });

  it('a suffix is only a suffix when the folder without it exists', () => {
    const odd = storage('my-workspace-7');
    assert.equal(workspaceHome(odd).home, odd);
  });

  it('moves conversations home, leaves one a live process writes, and moves the checkpoint stores', () => {
    const own = storage('abc123');
    const one = storage('abc123-1');
    conversation(one, 'c-free');
    const held = conversation(one, 'c-held');
    conversation(own, 'c-twin');
    conversation(one, 'c-twin');
    const lock = acquireLock(held);
    assert.ok(lock.acquired);
    try {
      mkdirSync(join(one, 'checkpoints', 'store-a'), { recursive: true });
      const r = adoptSiblings(workspaceHome(one));
      assert.deepEqual(r.moved, ['c-free']);
      assert.ok(existsSync(join(own, 'conversations', 'c-free', 'meta.json')));
      assert.ok(!existsSync(join(one, 'conversations', 'c-free')));
      const left = Object.fromEntries(r.left.map((l) => [l.id, l.why]));
      assert.match(left['c-held'] ?? '', new RegExp(`pid ${process.pid}`));
      assert.match(left['c-twin'] ?? '', /already at home/);
      // A sibling still written keeps its checkpoints (that window may record more).
      assert.ok(!existsSync(join(own, 'checkpoints')));
    } finally {
      lock.lock.release();
    }
    const again = adoptSiblings(workspaceHome(one));
    assert.deepEqual(again.moved, ['c-held']);
    assert.deepEqual(readdirSync(join(own, 'checkpoints')), ['store-a']);
    assert.deepEqual(readdirSync(join(own, 'conversations')).sort(), ['c-free', 'c-held', 'c-twin']);
  });
});
