import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapCallArguments, mapFolders, outsideTheCopy } from '../../../src/core/agent/replay-paths';
import type { ActionEvent } from '../../../src/core/events';

const maps = [
  { from: '/home/u/ws', to: '/copy/workspace' },
  { from: '/home/u/ws/.logbook/conv', to: '/copy/conversation' },
];

const action = (name: string, args: Record<string, unknown>): ActionEvent =>
  ({
    tool_name: name,
    tool_call: { id: 'c', name, arguments: JSON.stringify(args) },
  }) as unknown as ActionEvent;

describe('a replay maps the recorded folders into its copy', () => {
  it('maps a folder only where it starts a path of its own, the longest first', () => {
    assert.equal(mapFolders('/home/u/ws/a.txt', maps), '/copy/workspace/a.txt');
    assert.equal(mapFolders('/home/u/ws', maps), '/copy/workspace');
    assert.equal(
      mapFolders('cat "/home/u/ws/a b" > /home/u/ws/c', maps),
      'cat "/copy/workspace/a b" > /copy/workspace/c',
    );
    assert.equal(mapFolders('/home/u/ws/.logbook/conv/x', maps), '/copy/conversation/x');
    // Another folder that only begins with the same letters, or one further down: left alone.
    assert.equal(mapFolders('/home/u/ws2/a', maps), '/home/u/ws2/a');
    assert.equal(mapFolders('/mnt/home/u/ws/a', maps), '/mnt/home/u/ws/a');
  });

  it("maps every string of a call's arguments, and leaves text that is not JSON as it is", () => {
    const mapped = JSON.parse(
      mapCallArguments(JSON.stringify({ path: '/home/u/ws/a', nested: { list: ['/home/u/ws/b'] } }), maps),
    ) as unknown;
    assert.deepEqual(mapped, { path: '/copy/workspace/a', nested: { list: ['/copy/workspace/b'] } });
    assert.equal(mapCallArguments('{not json /home/u/ws', maps), '{not json /home/u/ws');
  });

  it('refuses a path argument that leads outside the copy, through a symlink too', () => {
    const root = mkdtempSync(join(tmpdir(), 'replay-paths-'));
    try {
      const ws = join(root, 'workspace');
      mkdirSync(ws);
      symlinkSync('/etc', join(ws, 'out'));
      assert.equal(
        outsideTheCopy(action('file_editor', { command: 'view', path: join(ws, 'a') }), root, ws),
        null,
      );
      assert.equal(outsideTheCopy(action('file_editor', { command: 'view', path: 'sub/a' }), root, ws), null);
      assert.match(
        outsideTheCopy(
          action('file_editor', { command: 'create', path: '/etc/x', file_text: '/etc/y' }),
          root,
          ws,
        )!,
        /\/etc\/x leads outside the replay's copy/,
      );
      assert.match(
        outsideTheCopy(action('file_editor', { command: 'view', path: '../../x' }), root, ws)!,
        /outside/,
      );
      assert.match(
        outsideTheCopy(action('file_editor', { command: 'view', path: 'out/passwd' }), root, ws)!,
        /outside/,
      );
      assert.match(outsideTheCopy(action('mcp_read', { file_path: '/home/x' }), root, ws)!, /outside/);
      // A file's contents are not a path; a command's text is the sandbox's to confine.
      assert.equal(outsideTheCopy(action('terminal', { command: 'cat /etc/hostname' }), root, ws), null);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
