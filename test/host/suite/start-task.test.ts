import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LogbookApi } from '../../../src/host/vscode/extension';

const EXTENSION_ID = 'logbook.logbook-agent';

async function api(): Promise<LogbookApi> {
  const ext = vscode.extensions.getExtension<LogbookApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this extension host`);
  return ext.activate();
}

describe('Logbook: Start Agent Task', () => {
  it('contributes its commands to the command palette and registers them on activation', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (ext.packageJSON.contributes.commands as { command: string; title: string }[]).map(
      (c) => c.command,
    );
    assert.ok(contributed.includes('logbook.startTask'));
    await api();
    const all = await vscode.commands.getCommands(true);
    for (const id of [
      'logbook.startTask',
      'logbook.newConversation',
      'logbook.openConversation',
      'logbook.pause',
      'logbook.resume',
      'logbook.stop',
    ]) {
      assert.ok(all.includes(id), `command ${id} is not registered`);
    }
  });

  it('starts a conversation whose first event is the task, and makes it active', async () => {
    const { service } = await api();
    const before = service.list().length;
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Add a subtract function');
    assert.equal(typeof id, 'string');
    assert.equal(service.list().length, before + 1);
    assert.equal(service.activeId, id);
    const [first] = service.active!.eventsAfter(-1);
    assert.equal(first?.event.kind, 'MessageEvent');
    assert.equal(first?.event['source'], 'user');
    assert.deepEqual((first?.event['llm_message'] as { content: unknown }).content, [
      { type: 'text', text: 'Add a subtract function' },
    ]);
  });

  it('does nothing when given an empty task', async () => {
    const { service } = await api();
    const before = service.list().length;
    // An all-blank argument falls back to the input box; dismissing it must start nothing.
    const pending = vscode.commands.executeCommand<string | undefined>('logbook.startTask', '   ');
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await pending, undefined);
    assert.equal(service.list().length, before);
  });
});
