import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

const KEY = 'sk-test-logbook-secret-0123456789';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('API key', () => {
  let llm: ScriptedLlm | undefined;
  after(async () => {
    await vscode.commands.executeCommand('logbook.setApiKey', '');
    await llm?.close();
  });

  it('lives in SecretStorage: it reaches the endpoint but never the log, settings or an export', async () => {
    llm = await scriptedModel({ name: 'key', turns: [{ reply: { content: 'Key check done.' } }] });
    const { service } = await logbook();
    await vscode.commands.executeCommand('logbook.setApiKey', KEY);
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Check the key');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');

    const auth = llm.requests.find((r) => r.path.endsWith('/chat/completions'))?.headers['authorization'];
    assert.equal(auth, `Bearer ${KEY}`);
    for (const file of filesUnder(join(service.root, id))) {
      assert.ok(!readFileSync(file, 'utf8').includes(KEY), `${file} contains the key`);
    }
    const settings = JSON.stringify(vscode.workspace.getConfiguration('logbook'));
    assert.ok(!settings.includes(KEY));
    const exportDir = mkdtempSync(join(tmpdir(), 'logbook-export-'));
    const exported = join(exportDir, 'conversation.json');
    let text: string;
    try {
      await vscode.commands.executeCommand('logbook.exportConversation', id, 'json', exported);
      text = readFileSync(exported, 'utf8');
    } finally {
      rmSync(exportDir, { recursive: true, force: true });
    }
    assert.ok(text.includes('Key check done.'), 'the export has the conversation');
    assert.ok(!text.includes(KEY), 'the export has no key');
  });
});
