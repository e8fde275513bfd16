import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';
import { BASELINE_SCHEME } from '../../../src/host/vscode/review/virtual-documents';

describe('Logbook: Start Agent Task', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('contributes its commands to the command palette and registers them on activation', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    assert.ok(contributed.includes('logbook.startTask'));
    await logbook();
    const all = await vscode.commands.getCommands(true);
    for (const id of contributed) assert.ok(all.includes(id), `command ${id} is not registered`);
  });

  it('starts a conversation from the task argument and the agent edits the workspace through VS Code', async () => {
    llm = await scriptedModel({
      name: 'host-start-task',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'subtract' },
          reply: {
            content: 'Adding the function.',
            toolCalls: [
              {
                id: 'call_edit',
                name: 'file_editor',
                arguments: {
                  command: 'str_replace',
                  path: 'src/math.js',
                  old_str: 'module.exports = { add };',
                  new_str:
                    'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
                  security_risk: 'LOW',
                  summary: 'add subtract()',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'subtract' },
          reply: {
            toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Added subtract().' } }],
          },
        },
      ],
    });
    const { service } = await logbook();
    const before = service.list().length;
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Add a subtract function');
    assert.equal(typeof id, 'string');
    assert.equal(service.activeId, id);
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(service.list().length, before + 1);
    const text = readFileSync(join(workspaceRoot(), 'src', 'math.js'), 'utf8');
    assert.match(text, /function subtract\(a, b\)/);
    const kinds = (await session.conversation.events()).map((e) => e.kind);
    assert.deepEqual(
      kinds.filter((k) => ['MessageEvent', 'ActionEvent', 'ObservationEvent'].includes(k)),
      ['MessageEvent', 'ActionEvent', 'ObservationEvent', 'ActionEvent', 'ObservationEvent'],
    );
    assert.ok(existsSync(join(service.root, id)), 'the conversation is stored under the workspace storage');
    // "Open diff" on the edit shows the file before the agent against now.
    const edit = (await session.conversation.events()).find(
      (e) => e.kind === 'ActionEvent' && e.tool_name === 'file_editor',
    )!;
    await service.openDiff(id, edit.id);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.equal(input.original.scheme, BASELINE_SCHEME);
    assert.equal(input.modified.fsPath, join(workspaceRoot(), 'src', 'math.js'));
    const original = await vscode.workspace.openTextDocument(input.original);
    assert.doesNotMatch(original.getText(), /subtract/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.equal(llm.remainingTurns(), 0);
  });

  it('does nothing when the task prompt is dismissed', async () => {
    const { service } = await logbook();
    const before = service.list().length;
    const pending = vscode.commands.executeCommand<string | undefined>('logbook.startTask', '   ');
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await pending, undefined);
    assert.equal(service.list().length, before);
  });
});
