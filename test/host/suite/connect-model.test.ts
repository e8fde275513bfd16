// Leaving the demo: the empty chat names the demo's tasks only while the demo model answers, and
// Logbook: Connect a Model writes the endpoint and model to Settings and the key to SecretStorage.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import { DEMO_TASKS } from '../../../src/host/node/demo-model/demo-model';
import { startDemoServer } from '../../../src/host/node/demo-model/demo-server';
import { startScriptedLlm } from '../../support/llm-server';
import { logbook, recordingWebview, until } from './helpers';

const KEY = 'sk-test-connect-0123456789abcdef';

describe('Connecting a real model after the demo', function () {
  this.timeout(60_000);
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  afterEach(async () => {
    for (const key of ['model.baseURL', 'model.name', 'model.provider'])
      await cfg().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('logbook.setApiKey', '');
  });

  /** What the empty chat is told on load, with the settings as they are now. */
  async function emptyState(): Promise<unknown> {
    const { service } = await logbook();
    await service.setActive(undefined);
    const view = recordingWebview();
    const log = { info: () => undefined, warn: () => undefined, error: (m: string) => assert.fail(m) };
    const controller = new ChatController(view.port, service, log);
    try {
      view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
      await until(() => view.posted.some((m) => m.type === 'conversation'), 'the empty state');
      return view.posted.find((m) => m.type === 'conversation');
    } finally {
      controller.dispose();
    }
  }

  it('the empty chat offers the demo tasks only while the demo model is the endpoint', async () => {
    const demo = await startDemoServer('vscode');
    try {
      await cfg().update('model.baseURL', demo.baseUrl, vscode.ConfigurationTarget.Global);
      await cfg().update('model.name', 'demo', vscode.ConfigurationTarget.Global);
      assert.deepEqual((await emptyState()) as object, {
        type: 'conversation',
        header: null,
        defaultMode: 'act',
        demoTasks: [...DEMO_TASKS],
      });
      await cfg().update('model.name', 'gpt-4o-mini', vscode.ConfigurationTarget.Global);
      const real = (await emptyState()) as { demoTasks?: unknown };
      assert.equal(real.demoTasks, undefined, 'a real model: no demo tasks');
    } finally {
      await demo.close();
    }
  });

  it('Connect a Model writes the endpoint and model to Settings, the key to SecretStorage; the next task uses them', async () => {
    const llm = await startScriptedLlm({
      scenario: { name: 'connect', turns: [{ reply: { content: 'Connected.' } }] },
    });
    try {
      const { service } = await logbook();
      await cfg().update('model.provider', 'vscode', vscode.ConfigurationTarget.Global);
      const connected = await vscode.commands.executeCommand('logbook.connectModel', {
        baseUrl: llm.baseUrl,
        model: 'scripted-model',
        apiKey: KEY,
      });
      assert.deepEqual(connected, { baseUrl: llm.baseUrl, model: 'scripted-model', apiKey: KEY });
      assert.equal(cfg().get('model.provider'), 'openai', 'back to the endpoint from an editor model');
      assert.equal(cfg().get('model.baseURL'), llm.baseUrl);
      assert.equal(cfg().get('model.name'), 'scripted-model');
      assert.ok(!JSON.stringify(cfg()).includes(KEY), 'the key is not in settings');
      const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Say hello');
      assert.equal(await (await service.session(id)).settled(), 'finished');
      const call = llm.requests.find((r) => r.path.endsWith('/chat/completions'));
      assert.equal(call?.headers['authorization'], `Bearer ${KEY}`);
      assert.equal((call?.body as { model?: string } | undefined)?.model, 'scripted-model');
    } finally {
      await llm.close();
    }
  });
});
