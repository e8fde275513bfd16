// A workspace file hard-linked to a file outside the workspace (`ln /etc/x ws/x`, made before the
// agent runs), in the real extension host: the agent's edit waits for confirmation with the
// hard-link reason, and the VS Code file port (WorkspaceEdit, then VS Code's save, which writes in
// place) first makes the path a file of its own, so the file outside keeps every byte. An open
// buffer with unsaved text stays as it is and is saved into the new file.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { WorkspaceFilePort } from '../../../src/host/vscode/ports/workspace-file-port';
import { pathToUri } from '../../../src/host/vscode/ports/workspace-paths';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const OUTSIDE_TEXT = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n';

describe('hard links: an edit never writes through to the other link', () => {
  let llm: ScriptedLlm | undefined;
  let outsideDir: string;
  let outsideFile: string;
  let insideDir: string;
  let inside: string;
  const refuseOutside = async () => false;
  const assertOutsideUnchanged = () =>
    assert.deepEqual(readFileSync(outsideFile), Buffer.from(OUTSIDE_TEXT), 'the file outside changed');

  beforeEach(() => {
    const id = randomUUID().slice(0, 8);
    // Beside the workspace folder: outside it, yet on the same file system (a hard link needs that).
    outsideDir = join(dirname(workspaceRoot()), `hardlink-outside-${id}`);
    insideDir = join(workspaceRoot(), `hardlink-test-${id}`);
    mkdirSync(outsideDir);
    mkdirSync(insideDir);
    outsideFile = join(outsideDir, 'passwd');
    writeFileSync(outsideFile, OUTSIDE_TEXT);
    chmodSync(outsideFile, 0o640);
    inside = join(insideDir, 'passwd');
    linkSync(outsideFile, inside);
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(insideDir, { recursive: true, force: true });
    rmSync(outsideDir, { recursive: true, force: true });
  });

  it('the port edits a closed hard-linked file as a file of its own (mode kept)', async () => {
    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    await port.writeText(inside, OUTSIDE_TEXT.replace('/root:', '/home/root:'));
    assertOutsideUnchanged();
    assert.equal(readFileSync(inside, 'utf8'), OUTSIDE_TEXT.replace('/root:', '/home/root:'));
    const st = statSync(inside);
    assert.equal(st.nlink, 1);
    assert.equal(st.mode & 0o777, 0o640);
  });

  it('an open dirty buffer keeps its unsaved text, gets the edit and is saved into the new file', async () => {
    const editor = await vscode.window.showTextDocument(pathToUri(inside));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '# user\n'));
    assert.equal(editor.document.isDirty, true);

    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    const seen = await port.readText(inside);
    assert.equal(seen, `# user\n${OUTSIDE_TEXT}`);
    await port.writeText(inside, seen!.replace('daemon', 'DAEMON'));

    const expected = `# user\n${OUTSIDE_TEXT.replace('daemon', 'DAEMON')}`;
    assert.equal(editor.document.getText(), expected);
    assert.equal(editor.document.isDirty, false, 'saved after the edit');
    assert.equal(readFileSync(inside, 'utf8'), expected);
    assert.equal(statSync(inside).nlink, 1);
    assertOutsideUnchanged();

    // The user's Ctrl+Z still takes back the agent's edit, in the same editor.
    await vscode.window.showTextDocument(editor.document, { preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), `# user\n${OUTSIDE_TEXT}`);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assertOutsideUnchanged();
  });

  it('the agent: str_replace rated LOW by the model waits with the hard-link reason; approved, only the workspace file changes', async () => {
    const path = relative(workspaceRoot(), inside);
    llm = await scriptedModel({
      name: 'host-hard-link-str-replace',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_edit',
                name: 'file_editor',
                arguments: {
                  command: 'str_replace',
                  path,
                  old_str: 'root:/root',
                  new_str: 'root:/home/root',
                  security_risk: 'LOW',
                  summary: 'change the home folder',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'Edited' }, reply: { content: 'Done.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Change the home folder');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    const header = service.header(id)!;
    const [pending] = header.pendingRisks ?? [];
    assert.equal(pending?.risk, 'MEDIUM', JSON.stringify(header.pendingRisks));
    assert.match(
      pending?.reason ?? '',
      /passwd has 2 hard links: writing it in place would also change the same file elsewhere; Logbook writes a new copy instead/,
    );
    assertOutsideUnchanged();

    await service.approve(id, header.pendingActionIds);
    assert.equal(await session.settled(), 'finished');
    assert.equal(llm.remainingTurns(), 0);
    assert.equal(readFileSync(inside, 'utf8'), OUTSIDE_TEXT.replace('root:/root', 'root:/home/root'));
    assertOutsideUnchanged();
  });
});
