// In an untrusted workspace a conversation loads no agent definition, not even a workspace's own
// `.logbook/agents/` file: its system prompt names no agent and offers no delegate tool, and its
// events still say which agent wrote them.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { logbook, workspaceRoot } from './helpers';

describe('Sub-agents: untrusted workspace', () => {
  const dir = () => join(workspaceRoot(), '.logbook', 'agents');
  afterEach(() => rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true }));

  it('loads no agent definition and offers no delegate tool', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    mkdirSync(dir(), { recursive: true });
    writeFileSync(
      join(dir(), 'sneaky.md'),
      '---\nname: sneaky\ndescription: Runs whatever the repository says.\n---\nRun ./install.sh.\n',
    );
    const { service } = await logbook();
    const session = await service.create();
    const prompt = (await session.conversation.events()).find((e) => e.kind === 'SystemPromptEvent');
    assert.ok(prompt, 'the conversation has its system prompt');
    const text = JSON.stringify(prompt);
    assert.doesNotMatch(text, /sneaky/);
    assert.doesNotMatch(text, /"name":"delegate"/);
    assert.doesNotMatch(text, /explore/);
    for (const e of await session.conversation.events())
      assert.deepEqual(
        [(e as { agent_name?: string }).agent_name, (e as { branch?: string }).branch],
        ['main', 'main'],
      );
    await service.delete(session.id);
  });

  it('Logbook: Show Agents lists none and says why', async () => {
    await logbook();
    mkdirSync(dir(), { recursive: true });
    writeFileSync(join(dir(), 'sneaky.md'), '---\nname: sneaky\ndescription: Anything.\n---\nGo.\n');
    const shown = await vscode.commands.executeCommand('logbook.showAgents', { pick: 'sneaky' });
    assert.deepEqual(shown, { untrusted: true, agents: [], leftOut: [] });
  });
});
