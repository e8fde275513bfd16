// In an untrusted workspace a mention of the git diff runs no git (a repository's config can make
// git run programs); the message says so instead.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ImageStore } from '../../../src/core/attachments/image-store';
import { resolveAttachments } from '../../../src/host/vscode/mentions/resolve-attachments';
import { TerminalHistory } from '../../../src/host/vscode/mentions/terminal-history';

describe('mentions: untrusted workspace', () => {
  it('attaches no git diff, and says why', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const dir = mkdtempSync(join(tmpdir(), 'logbook-untrusted-'));
    const terminals = new TerminalHistory();
    try {
      const { texts } = await resolveAttachments([{ kind: 'diff' }], {
        images: new ImageStore(dir),
        terminals,
        confirm: async () => assert.fail('nothing to confirm'),
      });
      assert.deepEqual(texts, [
        '--- Attached git diff ---\n[Not attached: git does not run in an untrusted workspace.]',
      ]);
    } finally {
      terminals.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
