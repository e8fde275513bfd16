import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { observationNewContent } from '../../../src/core/events';
import { createFileEditorTool, type FileEditorArgs } from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace, textOf } from './workspace';

describe('file_editor tool', () => {
  let ws: TestWorkspace;
  let editor: ReturnType<typeof createFileEditorTool>;
  const run = (args: Partial<FileEditorArgs> & Pick<FileEditorArgs, 'command' | 'path'>) =>
    ws.run(editor, args as FileEditorArgs);
  const read = (name: string) => readFileSync(ws.path(name), 'utf8');

  beforeEach(() => {
    ws = createWorkspace();
    editor = createFileEditorTool();
  });
  afterEach(() => ws.dispose());

  describe('view', () => {
    it('numbers lines like cat -n and resolves a relative path against the workspace', async () => {
      ws.write({ 'a.txt': 'alpha\nbeta\ngamma\n' });
      const obs = await run({ command: 'view', path: 'a.txt' });
      assert.equal(obs.is_error, false);
      assert.equal(obs.path, ws.path('a.txt'));
      assert.match(
        textOf(obs),
        /^Here is the result of running `cat -n` on .*a\.txt:\n     1\talpha\n     2\tbeta\n     3\tgamma$/,
      );
    });

    it('honours view_range, with -1 reading to the end', async () => {
      ws.write({ 'a.txt': 'l1\nl2\nl3\nl4\nl5\n' });
      const middle = textOf(await run({ command: 'view', path: 'a.txt', view_range: [2, 3] }));
      assert.match(middle, /     2\tl2\n     3\tl3$/);
      assert.doesNotMatch(middle, /l1|l4/);
      const tail = textOf(await run({ command: 'view', path: 'a.txt', view_range: [4, -1] }));
      assert.match(tail, /     4\tl4\n     5\tl5$/);
    });

    it('rejects a view_range starting past the end, or ending before it starts', async () => {
      ws.write({ 'a.txt': 'one\ntwo\n' });
      const past = await run({ command: 'view', path: 'a.txt', view_range: [5, 6] });
      assert.equal(past.is_error, true);
      assert.match(textOf(past), /has lines 1 to 2/);
      const backwards = await run({ command: 'view', path: 'a.txt', view_range: [2, 1] });
      assert.equal(backwards.is_error, true);
    });

    it('truncates a large file at a line boundary and says how to read on', async () => {
      editor = createFileEditorTool({ viewLimits: { maxChars: 200 } });
      ws.write({ 'big.txt': Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n') });
      const text = textOf(await run({ command: 'view', path: 'big.txt' }));
      const shown = text.split('\n').filter((l) => /^\s+\d+\t/.test(l));
      assert.ok(shown.length > 3 && shown.length < 100, `showed ${shown.length} lines`);
      assert.match(
        text,
        new RegExp(`Showing lines 1-${shown.length} of 100.*view_range \\[${shown.length + 1}, -1\\]`),
      );
    });

    it('lists a directory two levels deep, without hidden entries, node_modules unopened', async () => {
      ws.write({
        'src/index.ts': '',
        'src/deep/inner/x.ts': '',
        '.git/config': '',
        'node_modules/pkg/index.js': '',
        'README.md': '',
      });
      const text = textOf(await run({ command: 'view', path: '.' }));
      const root = ws.root + '/';
      assert.ok(text.includes(`\n${root}src/index.ts`));
      assert.ok(text.includes(`\n${root}src/deep/`));
      assert.ok(!text.includes('inner'), 'third level is not listed');
      assert.ok(!text.includes('.git'), 'hidden entries are left out');
      assert.ok(
        text.includes(`\n${root}node_modules/`) && !text.includes('pkg'),
        'node_modules is not expanded',
      );
    });

    it('reports a missing path as an error', async () => {
      const obs = await run({ command: 'view', path: 'nope.txt' });
      assert.equal(obs.is_error, true);
      assert.match(textOf(obs), /does not exist/);
    });
  });

  describe('create', () => {
    it("creates a file (and its folders); the new content is the action's file_text, not repeated", async () => {
      const obs = await run({ command: 'create', path: 'deep/new.txt', file_text: 'hello\n' });
      assert.equal(obs.is_error, false);
      assert.equal(read('deep/new.txt'), 'hello\n');
      assert.equal(obs.prev_exist, false);
      assert.equal(obs.old_content, null);
      assert.equal(obs.new_content, null);
      assert.equal(obs.new_content_from_action, 'file_text');
      assert.equal(
        observationNewContent(obs, { action: { kind: 'FileEditorAction', file_text: 'hello\n' } }),
        'hello\n',
      );
    });

    it('refuses to overwrite an existing file', async () => {
      ws.write({ 'a.txt': 'keep me' });
      const obs = await run({ command: 'create', path: 'a.txt', file_text: 'replaced' });
      assert.equal(obs.is_error, true);
      assert.match(textOf(obs), /already exists/);
      assert.equal(read('a.txt'), 'keep me');
    });
  });

  describe('str_replace', () => {
    it('replaces a unique match, returning old and new content and a numbered snippet', async () => {
      ws.write({ 'a.js': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
      const obs = await run({
        command: 'str_replace',
        path: 'a.js',
        old_str: 'const b = 2;',
        new_str: 'const b = 20;',
      });
      assert.equal(obs.is_error, false);
      assert.equal(read('a.js'), 'const a = 1;\nconst b = 20;\nconst c = 3;\n');
      assert.equal(obs.old_content, 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
      assert.equal(obs.new_content, read('a.js'));
      assert.equal(obs.prev_exist, true);
      assert.match(textOf(obs), /     2\tconst b = 20;/);
    });

    it('refuses when old_str is not found, and leaves the file alone', async () => {
      ws.write({ 'a.js': 'x = 1\n' });
      const obs = await run({ command: 'str_replace', path: 'a.js', old_str: 'y = 1', new_str: 'y = 2' });
      assert.equal(obs.is_error, true);
      assert.match(textOf(obs), /not found/);
      assert.equal(read('a.js'), 'x = 1\n');
    });

    it('refuses several matches, naming the count and the line numbers', async () => {
      ws.write({ 'a.js': 'foo()\nbar()\nfoo()\nbaz()\nfoo()\n' });
      const obs = await run({ command: 'str_replace', path: 'a.js', old_str: 'foo()', new_str: 'qux()' });
      assert.equal(obs.is_error, true);
      assert.match(textOf(obs), /occurs 3 times .*lines 1, 3, 5/);
      assert.equal(read('a.js'), 'foo()\nbar()\nfoo()\nbaz()\nfoo()\n');
    });

    it('counts overlapping matches as ambiguous', async () => {
      ws.write({ 'a.txt': 'aaa\n' });
      const obs = await run({ command: 'str_replace', path: 'a.txt', old_str: 'aa', new_str: 'b' });
      assert.equal(obs.is_error, true);
      assert.match(textOf(obs), /occurs 2 times/);
    });

    it('deletes old_str when new_str is omitted, and rejects a no-op', async () => {
      ws.write({ 'a.txt': 'keep\ndrop\nkeep\n' });
      await run({ command: 'str_replace', path: 'a.txt', old_str: 'drop\n' });
      assert.equal(read('a.txt'), 'keep\nkeep\n');
      const same = await run({
        command: 'str_replace',
        path: 'a.txt',
        old_str: 'keep\nkeep',
        new_str: 'keep\nkeep',
      });
      assert.equal(same.is_error, true);
    });

    it('matches LF text in a CRLF file and keeps CRLF line endings', async () => {
      ws.write({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
      const obs = await run({
        command: 'str_replace',
        path: 'win.txt',
        old_str: 'one\ntwo',
        new_str: 'one\n2',
      });
      assert.equal(obs.is_error, false, textOf(obs));
      assert.equal(read('win.txt'), 'one\r\n2\r\nthree\r\n');
    });
  });

  describe('insert', () => {
    it('inserts after line N, with 0 meaning the top', async () => {
      ws.write({ 'a.txt': 'one\ntwo\n' });
      await run({ command: 'insert', path: 'a.txt', insert_line: 1, new_str: 'one and a half' });
      assert.equal(read('a.txt'), 'one\none and a half\ntwo\n');
      await run({ command: 'insert', path: 'a.txt', insert_line: 0, new_str: 'zero\n' });
      assert.equal(read('a.txt'), 'zero\none\none and a half\ntwo\n');
      await run({ command: 'insert', path: 'a.txt', insert_line: 4, new_str: 'end' });
      assert.equal(read('a.txt'), 'zero\none\none and a half\ntwo\nend\n');
    });

    it('rejects a line past the end', async () => {
      ws.write({ 'a.txt': 'one\ntwo\n' });
      const obs = await run({ command: 'insert', path: 'a.txt', insert_line: 3, new_str: 'x' });
      assert.equal(obs.is_error, true);
      assert.match(textOf(obs), /has 2 lines, so use 0 to 2/);
      assert.equal(read('a.txt'), 'one\ntwo\n');
    });
  });

  describe('undo_edit', () => {
    it('reverts edits one by one, newest first', async () => {
      ws.write({ 'a.txt': 'v1\n' });
      await run({ command: 'str_replace', path: 'a.txt', old_str: 'v1', new_str: 'v2' });
      await run({ command: 'insert', path: 'a.txt', insert_line: 1, new_str: 'more' });
      assert.equal(read('a.txt'), 'v2\nmore\n');
      const first = await run({ command: 'undo_edit', path: 'a.txt' });
      assert.equal(first.is_error, false);
      assert.equal(read('a.txt'), 'v2\n');
      assert.equal(first.old_content, 'v2\nmore\n');
      assert.equal(first.new_content, 'v2\n');
      await run({ command: 'undo_edit', path: 'a.txt' });
      assert.equal(read('a.txt'), 'v1\n');
      const nothing = await run({ command: 'undo_edit', path: 'a.txt' });
      assert.equal(nothing.is_error, true);
    });

    it('undoes a creation by deleting the file', async () => {
      await run({ command: 'create', path: 'new.txt', file_text: 'x' });
      await run({ command: 'undo_edit', path: 'new.txt' });
      assert.equal(existsSync(ws.path('new.txt')), false);
    });

    it('keeps history per tool instance: another instance cannot undo', async () => {
      ws.write({ 'a.txt': 'v1\n' });
      await run({ command: 'str_replace', path: 'a.txt', old_str: 'v1', new_str: 'v2' });
      const other = createFileEditorTool();
      const obs = await ws.run(other, { command: 'undo_edit', path: 'a.txt' } as FileEditorArgs);
      assert.equal(obs.is_error, true);
      assert.equal(read('a.txt'), 'v2\n');
    });
  });
});
