// VS Code opens its conversations through the session factory both hosts share: a session offers
// exactly the factory's tool set for the editor's settings (the CLI's side: test/unit/host/
// session-factory.test.ts), and a setting that shapes the set (logbook.web.searxngUrl) changes it here too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DELEGATE_TOOL_NAME } from '../../../src/core/agents/delegate-tool';
import { TRANSFER_TOOL_NAME } from '../../../src/core/agents/transfer-tool';
import { agentTools, webSearchFrom } from '../../../src/host/node/session/agent-tools';
import { logbook } from './helpers';

describe('the session factory in VS Code', function () {
  this.timeout(60_000);
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  const created: string[] = [];

  afterEach(async () => {
    await cfg().update('web.searxngUrl', undefined, vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    for (const id of created.splice(0)) await service.delete(id);
  });

  /**
   * The names the factory gives for a search service at `searxngUrl`, whatever the other settings,
   * and the main agent's own two (it may hand work to the agents the workspace defines).
   */
  const factoryNames = (searxngUrl: string) => {
    const search = webSearchFrom(searxngUrl);
    return [
      ...agentTools({
        terminalTimeoutSec: 30,
        web: {
          rules: () => ({ allowPrivateAddresses: false, allowedHosts: [] }),
          ...(search ? { search } : {}),
        },
      }).map((t) => t.name),
      DELEGATE_TOOL_NAME,
      TRANSFER_TOOL_NAME,
    ];
  };

  async function openedToolNames(): Promise<string[]> {
    const { service } = await logbook();
    const session = await service.create();
    created.push(session.id);
    return session.toolNames;
  }

  it("a new conversation offers the factory's tools: fetch, and no web_search without a search service", async () => {
    const names = await openedToolNames();
    assert.deepEqual(names, factoryNames(''));
    assert.ok(names.includes('fetch') && !names.includes('web_search'), names.join(', '));
  });

  it('logbook.web.searxngUrl adds web_search, as the factory does for the same setting', async () => {
    await cfg().update('web.searxngUrl', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    const names = await openedToolNames();
    assert.deepEqual(names, factoryNames('http://127.0.0.1:9'));
    assert.ok(names.includes('web_search'), names.join(', '));
  });
});
