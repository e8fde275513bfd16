// In an untrusted workspace no external ACP agent starts: Start Agent Task with… refuses, and a
// conversation that names an agent ends its turn with an error that says why, the agent's program
// never run.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { logbook, workspaceRoot } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('logbook');
const marker = () => join(workspaceRoot(), 'acp-agent-started.txt');

describe('External ACP agents: untrusted workspace', function () {
  this.timeout(60_000);
  beforeEach(async () => {
    // The "agent" only leaves a file behind: had it started, the file would be there.
    await cfg().update(
      'acp.agents',
      {
        writer: {
          command: process.execPath,
          args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker())}, 'started')`],
        },
      },
      vscode.ConfigurationTarget.Global,
    );
  });
  afterEach(async () => {
    await cfg().update('acp.agents', undefined, vscode.ConfigurationTarget.Global);
    rmSync(marker(), { force: true });
  });

  it('Start Agent Task with… starts no conversation', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const { service } = await logbook();
    const before = service.list().length;
    const id = await vscode.commands.executeCommand('logbook.startAgentTaskWith', 'writer', 'Do it');
    assert.equal(id, undefined);
    assert.equal(service.list().length, before);
    assert.equal(existsSync(marker()), false);
  });

  it('a conversation that names an agent stops with an error, the agent not started', async () => {
    const { service } = await logbook();
    const session = await service.create('writer');
    await session.send('Do it');
    assert.equal(await session.settled(), 'error');
    const events = await session.conversation.events();
    const text = JSON.stringify(events);
    assert.match(text, /not trusted, so Logbook starts no external agent/);
    // The agent's bundle throws its own copy of LlmError: its kind still reaches the conversation.
    const errors = events.filter((e) => e.kind === 'ConversationErrorEvent').map((e) => e.code);
    assert.deepEqual(errors, ['llm_bad_request']);
    assert.equal(existsSync(marker()), false);
    await service.delete(session.id);
  });
});
