// A workspace file that is a hard link to a file outside it (`ln /etc/x ws/x`, made beforehand):
// file_editor, run for real through the Node ports, asks before writing it and, once allowed,
// writes a new file in its place, so the file outside keeps every byte.
import assert from 'node:assert/strict';
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { analyzeAction, needsConfirmation } from '../../../src/core/security';
import { createFileEditorTool, type FileEditorArgs } from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace, textOf } from './workspace';

const OUTSIDE_TEXT = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n';

describe('file_editor on a file hard-linked to a file outside the workspace', () => {
  let ws: TestWorkspace;
  let outsideFile: string;
  let editor: ReturnType<typeof createFileEditorTool>;
  const run = (args: Partial<FileEditorArgs> & Pick<FileEditorArgs, 'command' | 'path'>) =>
    ws.run(editor, args as FileEditorArgs);
  const rate = (args: Record<string, unknown>) =>
    analyzeAction('file_editor', { security_risk: 'LOW', ...args }, [ws.root]);
  const assertOutsideUnchanged = () =>
    assert.deepEqual(readFileSync(outsideFile), Buffer.from(OUTSIDE_TEXT), 'the outside file changed');

  beforeEach(() => {
    ws = createWorkspace();
    editor = createFileEditorTool();
    const outside = join(dirname(ws.root), 'outside');
    mkdirSync(outside);
    outsideFile = join(outside, 'passwd');
    writeFileSync(outsideFile, OUTSIDE_TEXT);
    chmodSync(outsideFile, 0o640);
    linkSync(outsideFile, ws.path('x'));
  });
  afterEach(() => ws.dispose());

  it('rates every write MEDIUM with the hard-link reason, so the default policy asks; a view stays LOW', () => {
    const writes: Record<string, unknown>[] = [
      { command: 'str_replace', path: 'x', old_str: 'root', new_str: 'toor' },
      { command: 'insert', path: 'x', insert_line: 0, new_str: 'evil::0:0::/:/bin/sh' },
      { command: 'create', path: 'x', file_text: 'replaced' },
      { command: 'undo_edit', path: 'x' },
      { command: 'str_replace', path: ws.path('x'), old_str: 'root', new_str: 'toor' },
    ];
    for (const args of writes) {
      const rating = rate(args);
      assert.equal(rating.risk, 'MEDIUM', JSON.stringify(args));
      assert.match(
        rating.reasons.join(' | '),
        /x has 2 hard links: writing it in place would also change the same file elsewhere; Logbook writes a new copy instead/,
      );
      const [decision] = needsConfirmation({ mode: 'risky' }, [
        { toolName: 'file_editor', readOnly: false, args, analysis: rating },
      ]);
      assert.equal(decision?.confirm, true, JSON.stringify(args));
      assert.match(decision?.reason ?? '', /hard links/);
    }
    const view = rate({ command: 'view', path: 'x' });
    assert.equal(view.risk, 'LOW', view.reasons.join(' | '));
  });

  it('str_replace, once allowed, edits a new file: the outside file is byte-for-byte unchanged', async () => {
    const obs = await run({
      command: 'str_replace',
      path: 'x',
      old_str: 'root:/root',
      new_str: 'root:/home',
    });
    assert.equal(obs.is_error, false, textOf(obs));
    assertOutsideUnchanged();
    assert.equal(readFileSync(ws.path('x'), 'utf8'), OUTSIDE_TEXT.replace('root:/root', 'root:/home'));
    const inside = statSync(ws.path('x'));
    assert.equal(inside.nlink, 1, 'the workspace file is a file of its own');
    assert.equal(statSync(outsideFile).nlink, 1);
    assert.equal(inside.mode & 0o777, 0o640, 'the mode is kept');
    // Now an ordinary workspace file: the next edit is LOW again.
    assert.equal(rate({ command: 'str_replace', path: 'x', old_str: 'a', new_str: 'b' }).risk, 'LOW');
  });

  it('insert and undo_edit leave the outside file alone too', async () => {
    const inserted = await run({
      command: 'insert',
      path: 'x',
      insert_line: 0,
      new_str: 'evil::0:0::/:/bin/sh',
    });
    assert.equal(inserted.is_error, false, textOf(inserted));
    assertOutsideUnchanged();
    assert.match(readFileSync(ws.path('x'), 'utf8'), /^evil::0:0::\/:\/bin\/sh\nroot:/);

    // The workspace file is linked out again before the undo: the undo must not write through either.
    const relinked = join(dirname(outsideFile), 'relinked');
    linkSync(ws.path('x'), relinked);
    const before = readFileSync(relinked);
    const undone = await run({ command: 'undo_edit', path: 'x' });
    assert.equal(undone.is_error, false, textOf(undone));
    assert.equal(readFileSync(ws.path('x'), 'utf8'), OUTSIDE_TEXT);
    assert.deepEqual(readFileSync(relinked), before, 'the other link of the edited file changed');
    assertOutsideUnchanged();
  });

  it('a symlink in the workspace to a hard-linked workspace file stays a symlink; its target is replaced', async () => {
    ws.write({ 'real.txt': 'one\n' });
    linkSync(ws.path('real.txt'), join(dirname(outsideFile), 'real-copy'));
    symlinkSync('real.txt', ws.path('alias.txt'));
    assert.equal(
      rate({ command: 'str_replace', path: 'alias.txt', old_str: 'one', new_str: 'two' }).risk,
      'MEDIUM',
    );
    const obs = await run({ command: 'str_replace', path: 'alias.txt', old_str: 'one', new_str: 'two' });
    assert.equal(obs.is_error, false, textOf(obs));
    assert.equal(readlinkSync(ws.path('alias.txt')), 'real.txt');
    assert.equal(readFileSync(ws.path('real.txt'), 'utf8'), 'two\n');
    assert.equal(readFileSync(join(dirname(outsideFile), 'real-copy'), 'utf8'), 'one\n');
  });
});
