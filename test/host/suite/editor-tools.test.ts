// Tools of other extensions (the editor's language-model tools API) in the real extension host:
// offered only with logbook.tools.includeEditorTools on, asked for before they run, and logged
// like MCP tools. The tool comes from a second extension loaded with this one
// (test/host/fixtures/lm-tool-extension).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('logbook');
const toolNames = (llm: ScriptedLlm, i: number) =>
  ((llm.completionBodies()[i]?.['tools'] ?? []) as { function: { name: string } }[]).map(
    (t) => t.function.name,
  );

describe('editor tools (vscode.lm.tools)', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await cfg().update('tools.includeEditorTools', undefined, vscode.ConfigurationTarget.Global);
  });

  async function registered(): Promise<void> {
    await vscode.extensions.getExtension('logbook-test.logbook-test-lm-tool')?.activate();
    const lm = (vscode as unknown as { lm: { tools: readonly { name: string }[] } }).lm;
    const end = Date.now() + 10_000;
    while (!lm.tools.some((t) => t.name === 'reverse_text')) {
      if (Date.now() > end) throw new Error('the test tool was never registered');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('are not offered by default', async () => {
    await registered();
    llm = await scriptedModel({ name: 'editor-tools-off', turns: [{ reply: { content: 'Hi.' } }] });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'hello');
    assert.equal(await (await service.session(id)).settled(), 'finished');
    assert.ok(!toolNames(llm, 0).includes('reverse_text'), toolNames(llm, 0).join(', '));
  });

  it('with the setting on: offered, confirmed, run, logged as MCPToolAction/Observation', async () => {
    await registered();
    await cfg().update('tools.includeEditorTools', true, vscode.ConfigurationTarget.Global);
    llm = await scriptedModel({
      name: 'editor-tools-on',
      turns: [
        {
          reply: {
            toolCalls: [
              { id: 'call_rev', name: 'reverse_text', arguments: { text: 'logbook', security_risk: 'LOW' } },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'reversed: koobgol' },
          reply: { content: 'Reversed.' },
        },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'reverse it');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    assert.ok(toolNames(llm, 0).includes('reverse_text'));
    const header = service.header(id)!;
    assert.equal(header.pendingRisks?.[0]?.risk, 'MEDIUM');
    await service.approve(id, header.pendingActionIds);
    assert.equal(await session.settled(), 'finished');
    const events = await session.conversation.events();
    const action = events.find((e) => e.kind === 'ActionEvent');
    assert.ok(action && action.kind === 'ActionEvent');
    assert.deepEqual(action.action, { data: { text: 'logbook' }, kind: 'MCPToolAction' });
    const obs = events.find((e) => e.kind === 'ObservationEvent');
    assert.ok(obs && obs.kind === 'ObservationEvent');
    assert.equal(obs.observation.kind, 'MCPToolObservation');
    assert.deepEqual(obs.observation.content, [{ type: 'text', text: 'reversed: koobgol' }]);
  });
});
