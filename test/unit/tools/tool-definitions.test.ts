import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEvent, parseEvent, type Event } from '../../../src/core/events';
import {
  createTerminalTool,
  defaultTools,
  payloadSchemasOf,
  toolDefinition,
  validateToolCall,
} from '../../../src/core/tools';
import { createWorkspace, type TestWorkspace } from './workspace';

type Schema = { type: string; properties: Record<string, Record<string, unknown>>; required?: string[] };

describe('tool definitions', () => {
  const tools = defaultTools();

  it('uses the OpenHands tool names and action kinds', () => {
    assert.deepEqual(
      tools.map((t) => [t.name, t.actionKind, t.readOnly]),
      [
        ['terminal', 'TerminalAction', false],
        ['file_editor', 'FileEditorAction', false],
        ['task_tracker', 'TaskTrackerAction', true],
        ['glob', 'GlobAction', true],
        ['grep', 'GrepAction', true],
        ['think', 'ThinkAction', true],
        ['finish', 'FinishAction', true],
      ],
    );
  });

  it('produces Chat Completions function definitions from the zod schemas', () => {
    for (const tool of tools) {
      const def = toolDefinition(tool);
      assert.equal(def.type, 'function');
      assert.equal(def.function.name, tool.name);
      assert.ok(def.function.description.length > 40, `${tool.name} has a real description`);
      const params = def.function.parameters as Schema;
      assert.equal(params.type, 'object');
      assert.equal('$schema' in params, false);
      assert.doesNotMatch(JSON.stringify(params), /9007199254740991/, 'no noise bounds');
      assert.doesNotMatch(JSON.stringify(params), /prefixItems/, 'no tuples: some servers reject them');
    }
    const terminal = toolDefinition(tools[0]!).function.parameters as Schema;
    assert.deepEqual(Object.keys(terminal.properties), [
      'command',
      'is_input',
      'timeout',
      'reset',
      'security_risk',
      'summary',
    ]);
    assert.deepEqual(terminal.properties.security_risk!.enum, ['LOW', 'MEDIUM', 'HIGH']);
  });

  it('requires security_risk and summary from the model exactly for tools that are not read-only', () => {
    for (const tool of tools) {
      const params = toolDefinition(tool).function.parameters as Schema;
      const required = params.required ?? [];
      assert.equal(required.includes('security_risk'), !tool.readOnly, tool.name);
      assert.equal(required.includes('summary'), !tool.readOnly, tool.name);
      assert.equal('security_risk' in params.properties, !tool.readOnly, tool.name);
    }
  });

  describe("the tools' payload schemas, given to the event codec", () => {
    const payloads = payloadSchemasOf(tools);
    let ws: TestWorkspace;
    beforeEach(() => (ws = createWorkspace()));
    afterEach(() => ws.dispose());

    const observationEvent = (observation: unknown) =>
      createEvent(
        'ObservationEvent',
        {
          source: 'environment',
          observation,
          action_id: 'a',
          tool_name: 'terminal',
          tool_call_id: 'c',
        } as never,
        payloads,
      );

    it('still accepts the real OpenHands events', () => {
      const lines = readFileSync(
        join(__dirname, '..', '..', 'fixtures', 'openhands', 'real-events.jsonl'),
        'utf8',
      )
        .split('\n')
        .filter((l) => l.trim() !== '');
      for (const [index, line] of lines.entries()) {
        const r = parseEvent(line, { index, payloads });
        assert.ok(r.ok, r.ok ? '' : r.error.message);
      }
    });

    it('round-trips what the tools produce, and rejects a malformed TerminalObservation', async () => {
      const v = validateToolCall(tools, 'terminal', '{"command": "echo hi"}');
      assert.ok(v.ok);
      const observation = await ws.run(createTerminalTool(), v.args as never);
      const event: Event = observationEvent(observation);
      const parsed = parseEvent(JSON.stringify(event), { payloads });
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);

      const json = JSON.parse(JSON.stringify(event)) as { observation: Record<string, unknown> };
      json.observation.exit_code = 'zero';
      const broken = parseEvent(JSON.stringify(json), { payloads });
      assert.equal(broken.ok, false);
      assert.throws(() => observationEvent({ ...observation, exit_code: 'zero' }), /exit_code/);
    });
  });
});
