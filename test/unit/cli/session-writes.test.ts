// A run that continues a conversation records the same session.json and kept record as the run
// before it: each is written (two syncs) only when its text changes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepRecord, keptRecordFile } from '../../../src/host/node/cli/kept-record';
import {
  newSessionInfo,
  readSessionInfo,
  SESSION_FILE,
  writeSessionInfo,
} from '../../../src/host/node/cli/session-file';

describe('session.json and the kept record, written again', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-session-writes-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const info = newSessionInfo({
    id: 'c1',
    workspace: '/work/space',
    confirmation: 'risky',
    max_iterations: null,
    max_tool_calls_per_reply: null,
    model: 'm',
    base_url: 'http://127.0.0.1:1/v1',
    demo: false,
    mcp_config: null,
  });
  // A durable write goes through a temporary file renamed over the old one: a new inode.
  const inode = (file: string) => statSync(file).ino;

  it('session.json: the same text is left as it is; a change is written', () => {
    writeSessionInfo(dir, info);
    const file = join(dir, SESSION_FILE);
    const before = inode(file);
    writeSessionInfo(dir, { ...info });
    assert.equal(inode(file), before, 'rewritten with the same text');
    writeSessionInfo(dir, { ...info, title: 'Fix the tests' });
    assert.notEqual(inode(file), before);
    assert.equal(readSessionInfo(dir)?.title, 'Fix the tests');
  });

  it('the kept record in the config folder: the same', () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), HOME: dir };
    const conversation = join(dir, 'conversation');
    keepRecord(env, conversation, info);
    const file = keptRecordFile(env, conversation);
    const before = inode(file);
    keepRecord(env, conversation, { ...info });
    assert.equal(inode(file), before, 'rewritten with the same text');
    keepRecord(env, conversation, { ...info, confirmation: 'always' });
    assert.notEqual(inode(file), before);
    assert.match(readFileSync(file, 'utf8'), /"confirmation.mode": "always"/);
  });
});
