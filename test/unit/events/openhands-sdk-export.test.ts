import * as assert from 'node:assert/strict';
import { createEvent, type Event, eventsToMessages } from '../../../src/core/events';
import { SdkExporter } from '../../../src/core/events/openhands-sdk-export';
import { sdkEventError } from '../../support/openhands-sdk-schema';

const call = { id: 'call_bad', name: 'terminal', arguments: '{"command": ', origin: 'completion' };

describe('SdkExporter: events as the OpenHands SDK persists them', () => {
  it('rebuilds the call an older log answered with an error only, so the SDK keeps the turn', () => {
    const legacyError = createEvent('AgentErrorEvent', {
      error: 'Invalid arguments for tool "terminal"',
      tool_name: 'terminal',
      tool_call_id: 'call_bad',
      tool_call: call,
      llm_response_id: 'resp_1',
    });
    const exporter = new SdkExporter();
    const out = exporter.convert(legacyError);
    assert.deepEqual(
      out.map((e) => e.kind),
      ['ActionEvent', 'AgentErrorEvent'],
    );
    for (const e of out) assert.equal(sdkEventError(e), null, JSON.stringify(e));
    const [action, error] = out as unknown as [Record<string, unknown>, Record<string, unknown>];
    assert.equal(action.action, null);
    assert.equal(action.llm_response_id, 'resp_1');
    assert.ok(!('tool_call' in error) && !('llm_response_id' in error));
    // The same call, answered by the same error, in what the model reads.
    const tools = eventsToMessages(out).filter((m) => m.role === 'tool');
    assert.deepEqual(
      tools.map((m) => m.tool_call_id),
      ['call_bad'],
    );
    assert.equal(new SdkExporter().convert(legacyError)[0]!.id, action.id, 'a stable id');
  });

  it('leaves an error that answers a recorded call as it is, without the Logbook-only fields', () => {
    const action = createEvent('ActionEvent', {
      action: { kind: 'TerminalAction', command: 'sleep 100' },
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      tool_call: { ...call, id: 'call_1', arguments: '{"command": "sleep 100"}' },
      llm_response_id: 'resp_2',
    });
    const error = createEvent('AgentErrorEvent', {
      error: 'The user stopped the agent before this action ran.',
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      llm_response_id: 'resp_2',
    });
    const exporter = new SdkExporter();
    const out: Event[] = [...exporter.convert(action), ...exporter.convert(error)];
    assert.deepEqual(
      out.map((e) => e.kind),
      ['ActionEvent', 'AgentErrorEvent'],
    );
    for (const e of out) assert.equal(sdkEventError(e), null, JSON.stringify(e));
    assert.deepEqual(exporter.notes.droppedFields, { 'AgentErrorEvent.llm_response_id': 1 });
  });

  it('writes built-in and outside tools as SDK tool definitions with their kind', () => {
    const prompt = createEvent('SystemPromptEvent', {
      system_prompt: { type: 'text', text: 'You are an agent.' },
      tools: [
        {
          type: 'function',
          function: { name: 'terminal', description: 'Run a command', parameters: { type: 'object' } },
        },
        {
          type: 'function',
          function: { name: 'github_search', description: 'Search', parameters: { type: 'object' } },
        },
      ],
    });
    const [out] = new SdkExporter().convert(prompt) as unknown as [Record<string, unknown>];
    assert.equal(sdkEventError(out), null);
    const tools = out.tools as Record<string, unknown>[];
    assert.deepEqual(
      tools.map((t) => t.kind),
      ['TerminalTool', 'MCPToolDefinition'],
    );
    assert.deepEqual((tools[1]!.mcp_tool as { name: string }).name, 'github_search');
  });
});
