// The file tools use the path the risk rules judged: the same resolution, never the raw text.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { analyzeAction } from '../../../src/core/security';
import {
  createFileEditorTool,
  createGlobTool,
  createGrepTool,
  type FileEditorArgs,
} from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace, textOf } from './workspace';

describe('file tools: one path, judged as it is used', () => {
  let ws: TestWorkspace;
  let outside: string;

  beforeEach(() => {
    ws = createWorkspace();
    outside = join(dirname(ws.root), 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'planted outside\n');
    symlinkSync(outside, ws.path('link'));
  });
  afterEach(() => ws.dispose());

  const editor = (args: Partial<FileEditorArgs> & Pick<FileEditorArgs, 'command' | 'path'>) =>
    ws.run(createFileEditorTool(), args as FileEditorArgs);

  it('a path with leading whitespace is used trimmed, and that trimmed path is what was rated', async () => {
    for (const pad of [' ', '\n', '\t', '\u00a0', '\ufeff']) {
      const raw = `${pad}${outside}/secret.txt`;
      const obs = await editor({ command: 'view', path: raw });
      assert.equal(obs.path, join(outside, 'secret.txt'), JSON.stringify(pad));
      const rating = analyzeAction('file_editor', { command: 'view', path: raw }, [ws.root]);
      assert.equal(rating.risk, 'MEDIUM', JSON.stringify(pad));
      assert.match(rating.reasons.join(' '), new RegExp(`${outside}/secret\\.txt, outside the workspace`));
    }
    // Nothing named " <outside>" was created inside the workspace either.
    assert.deepEqual(readdirSync(ws.root).sort(), ['link']);
  });

  it('refuses control characters with an error the model reads, before touching any file', async () => {
    for (const command of ['create', 'view', 'str_replace', 'insert', 'undo_edit'] as const) {
      const obs = await editor({
        command,
        path: 'evil\nname.txt',
        file_text: 'x',
        old_str: 'a',
        new_str: 'b',
        insert_line: 0,
      });
      assert.equal(obs.is_error, true, command);
      assert.match(textOf(obs), /control or invisible character U\+000A/, command);
    }
    const bidi = await editor({ command: 'create', path: 'invoice\u202etxt.exe', file_text: 'x' });
    assert.equal(bidi.is_error, true);
    assert.deepEqual(readdirSync(ws.root).sort(), ['link']);
    for (const tool of [createGlobTool(), createGrepTool()]) {
      const obs = await ws.run(tool, { pattern: 'x', path: `src\u0000/../..` });
      assert.equal(obs.is_error, true, tool.name);
      assert.match(textOf(obs), /control or invisible character U\+0000/);
    }
  });

  it('glob and grep search the trimmed path that was rated', async () => {
    const grep = await ws.run(createGrepTool(), { pattern: 'planted', path: ` ${outside}` });
    assert.equal(grep.search_path, outside);
    assert.equal(
      analyzeAction('grep', { pattern: 'planted', path: ` ${outside}` }, [ws.root]).risk,
      'MEDIUM',
    );
    const glob = await ws.run(createGlobTool(), { pattern: '*.txt', path: `\t${outside}` });
    assert.equal(glob.search_path, outside);
  });

  it('create through a symlinked folder is judged outside the workspace, and refused there', async () => {
    const rating = analyzeAction('file_editor', { command: 'create', path: 'link/new.txt', file_text: 'x' }, [
      ws.root,
    ]);
    assert.equal(rating.risk, 'LOW');
    assert.match(
      rating.reasons.join(' '),
      /refused without touching anything: .*a symlink to .*outside the folders/,
    );
    const obs = await ws.run(createFileEditorTool(), {
      command: 'create',
      path: 'link/new.txt',
      file_text: 'x',
    });
    assert.equal(obs.is_error, true);
    assert.match(textOf(obs), /^Refused: .*outside the folders the agent may write/);
    assert.ok(!existsSync(join(outside, 'new.txt')));
  });
});
