// logbook.model.provider = "vscode": the agent runs on a chat model of the editor (Language Model API),
// here one contributed by a test extension, with the same events, tool calls and token counts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { logbook } from './helpers';

const TEST_EXTENSION = 'logbook-test.editor-model-extension';

interface RecordedPart {
  type: string;
  value?: string;
  name?: string;
  callId?: string;
  input?: Record<string, unknown>;
  content?: RecordedPart[];
}
interface RecordedRequest {
  messages: { role: string; content: RecordedPart[] }[];
  tools: string[];
}

async function editorModel(): Promise<vscode.LanguageModelChat> {
  await logbook(); // its settings are registered once it is up
  await vscode.extensions.getExtension(TEST_EXTENSION)?.activate();
  for (let i = 0; i < 50; i++) {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'logbook-test' });
    if (model) return model;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the test extension registered no chat model');
}

describe('Editor models (logbook.model.provider = vscode)', function () {
  this.timeout(60_000);
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  afterEach(async () => {
    await cfg().update('model.provider', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('model.editorModel', undefined, vscode.ConfigurationTarget.Global);
  });

  it('runs a task on the editor model: its tool call runs, the result goes back as a tool result', async () => {
    const model = await editorModel();
    await cfg().update('model.provider', 'vscode', vscode.ConfigurationTarget.Global);
    await cfg().update('model.editorModel', model.id, vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Print the marker');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);

    const events = await session.conversation.events();
    const action = events.find((e) => e.kind === 'ActionEvent' && e.tool_name === 'terminal');
    assert.ok(action?.kind === 'ActionEvent', 'the editor model’s tool call became an ActionEvent');
    assert.equal(action.tool_call_id, 'lm-call-1');
    const observation = events.find((e) => e.kind === 'ObservationEvent' && e.action_id === action.id);
    assert.match(JSON.stringify(observation), /from-the-editor-model/);
    const last = events.filter((e) => e.kind === 'MessageEvent').at(-1);
    assert.match(JSON.stringify(last), /The terminal said: [^"]*from-the-editor-model/);

    const requests = await vscode.commands.executeCommand<RecordedRequest[]>(
      'logbookTest.editorModelRequests',
    );
    const mine = requests.filter((r) => JSON.stringify(r).includes('Print the marker'));
    assert.equal(mine.length, 2, 'one request per step');
    const [first, second] = mine as [RecordedRequest, RecordedRequest];
    assert.ok(first.tools.includes('terminal') && first.tools.includes('file_editor'), first.tools.join());
    assert.equal(first.messages[0]!.role, 'user', 'the system prompt goes first, as a user turn');
    assert.match(first.messages[0]!.content[0]!.value ?? '', /Logbook|agent/i);
    const call = second.messages.flatMap((m) => m.content).find((p) => p.type === 'tool_call');
    assert.equal(call?.name, 'terminal');
    assert.equal(call?.input?.command, 'echo from-the-editor-model');
    const result = second.messages.at(-1)!.content.find((p) => p.type === 'tool_result');
    assert.equal(result?.callId, 'lm-call-1');
    assert.match(result?.content?.[0]?.value ?? '', /from-the-editor-model/);

    // Tokens as the model's own tokenizer counts them; no price is known.
    const header = session.header();
    assert.ok(header.promptTokens > 0 && header.completionTokens > 0, JSON.stringify(header));
    assert.deepEqual(header.model, { name: model.id, provider: 'vscode' });
  });

  it('names the models there are when the configured one does not exist, and records the error', async () => {
    await editorModel();
    await cfg().update('model.provider', 'vscode', vscode.ConfigurationTarget.Global);
    await cfg().update('model.editorModel', 'no-such-model', vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Anything');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'error');
    const error = session.conversation.state.lastError?.message ?? '';
    assert.match(error, /No editor model "no-such-model"/);
    assert.match(error, /scripted-editor-model/);
  });
});
