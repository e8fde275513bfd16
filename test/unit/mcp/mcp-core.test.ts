import * as assert from 'node:assert/strict';
import { PolicyGate } from '../../../src/core/agent/policy-gate';
import { planModeRefusal } from '../../../src/core/agent/plan-mode';
import { createEvent, type ActionEvent } from '../../../src/core/events';
import {
  annotationRisk,
  argumentsSchema,
  assignToolNames,
  createMcpTool,
  type McpServerPort,
} from '../../../src/core/mcp';
import { SecretRedactor, serverSecrets } from '../../../src/core/secrets';
import {
  defaultTools,
  parametersOf,
  toolDefinition,
  validateToolCall,
  type WebPort,
  type WebSearchPort,
} from '../../../src/core/tools';
import { parseMcpServers } from '../../../src/host/node/mcp';
import { builtInToolNames } from '../../../src/host/node/session/agent-tools';
import { expandReferences } from '../../../src/host/node/mcp/references';

const server: McpServerPort = { name: 'srv', callTool: async () => ({ content: [] }) };
const schema = {
  type: 'object',
  properties: { path: { type: 'string' }, depth: { type: 'integer' }, mode: { enum: ['a', 'b'] } },
  required: ['path'],
  additionalProperties: false,
};

function actionFor(name: string, args: Record<string, unknown>): ActionEvent {
  return createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'MCPToolAction', data: args },
    tool_name: name,
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name, arguments: JSON.stringify(args) },
    llm_response_id: 'r1',
    security_risk: 'UNKNOWN',
  } as never) as ActionEvent;
}

describe('MCP tools: risk, names, schemas', () => {
  it('rates by annotations: read-only LOW, destructive HIGH, open world MEDIUM, none MEDIUM', () => {
    assert.deepEqual(
      [
        annotationRisk('s', { readOnlyHint: true }),
        annotationRisk('s', { destructiveHint: true }),
        annotationRisk('s', { readOnlyHint: false, destructiveHint: false, openWorldHint: true }),
        annotationRisk('s', undefined),
        annotationRisk('s', { title: 'only a title' }),
        annotationRisk('s', { destructiveHint: false, openWorldHint: false }),
        annotationRisk('s', { readOnlyHint: false }),
      ].map((r) => `${r.risk}${r.readOnly ? '/ro' : ''}`),
      ['LOW/ro', 'HIGH', 'MEDIUM', 'MEDIUM', 'MEDIUM', 'LOW', 'MEDIUM'],
    );
  });

  it('contradictory hints take the highest rating; read-only only when nothing else says otherwise', () => {
    const rate = (a: Parameters<typeof annotationRisk>[1]) => {
      const r = annotationRisk('s', a);
      return `${r.risk}${r.readOnly ? '/ro' : ''}`;
    };
    assert.equal(rate({ readOnlyHint: true, destructiveHint: true }), 'HIGH');
    assert.equal(rate({ readOnlyHint: true, openWorldHint: true }), 'MEDIUM');
    assert.equal(rate({ readOnlyHint: true, destructiveHint: true, openWorldHint: true }), 'HIGH');
    assert.equal(rate({ destructiveHint: true, openWorldHint: false }), 'HIGH');
    assert.equal(rate({ readOnlyHint: false, openWorldHint: true }), 'MEDIUM');
    assert.equal(rate({ readOnlyHint: true, destructiveHint: false, openWorldHint: false }), 'LOW/ro');
    assert.equal(rate({ readOnlyHint: true, openWorldHint: false }), 'LOW/ro');
    const both = annotationRisk('s', { readOnlyHint: true, destructiveHint: true });
    assert.match(both.reasons[0]!, /s marks this tool destructive/);
    assert.match(both.reasons.join(' '), /read-only hint is contradicted/);
  });

  it('plan mode refuses an MCP tool whose read-only hint another hint contradicts, and the gate asks', () => {
    const tool = (name: string, annotations: Record<string, boolean>) =>
      createMcpTool(server, { name, inputSchema: schema, annotations }, { exposedName: name });
    const lookup = tool('lookup', { readOnlyHint: true });
    const fetchUrl = tool('fetch_url', { readOnlyHint: true, openWorldHint: true });
    const wipe = tool('wipe', { readOnlyHint: true, destructiveHint: true });
    assert.equal(planModeRefusal(lookup, { path: 'x' }, ['/ws']), null);
    assert.match(
      planModeRefusal(fetchUrl, { path: 'x' }, ['/ws']) ?? '',
      /fetch_url is not a read-only tool/,
    );
    assert.match(planModeRefusal(wipe, { path: 'x' }, ['/ws']) ?? '', /wipe is not a read-only tool/);
    const tools = [lookup, fetchUrl, wipe];
    const gate = new PolicyGate(
      () => tools as never,
      () => ({ mode: 'risky' }),
    );
    const [l, f, w] = gate.decide([
      actionFor('lookup', { path: 'x', security_risk: 'LOW' }),
      actionFor('fetch_url', { path: 'x', security_risk: 'LOW' }),
      actionFor('wipe', { path: 'x', security_risk: 'LOW' }),
    ]);
    assert.deepEqual([l!.risk, l!.confirm], ['LOW', false]);
    assert.deepEqual([f!.risk, f!.confirm], ['MEDIUM', true]);
    assert.deepEqual([w!.risk, w!.confirm], ['HIGH', true]);
  });

  it('the model rating and the annotations: the higher wins; alwaysAllow skips the question', () => {
    const destructive = createMcpTool(
      server,
      { name: 'drop', inputSchema: schema, annotations: { destructiveHint: true } },
      { exposedName: 'drop' },
    );
    const additive = createMcpTool(
      server,
      { name: 'add', inputSchema: schema, annotations: { destructiveHint: false, openWorldHint: false } },
      { exposedName: 'add' },
    );
    const allowed = createMcpTool(
      server,
      { name: 'note', inputSchema: schema },
      { exposedName: 'note', alwaysAllow: true },
    );
    const tools = [destructive, additive, allowed];
    const gate = new PolicyGate(
      () => tools as never,
      () => ({ mode: 'risky' }),
    );
    const [d, low, high, note] = gate.decide([
      actionFor('drop', { path: 'x', security_risk: 'LOW' }),
      actionFor('add', { path: 'x', security_risk: 'LOW' }),
      actionFor('add', { path: 'x', security_risk: 'HIGH' }),
      actionFor('note', { path: 'x' }),
    ]);
    assert.deepEqual([d!.risk, d!.confirm], ['HIGH', true]);
    assert.deepEqual([low!.risk, low!.confirm], ['LOW', false]);
    assert.deepEqual([high!.risk, high!.confirm], ['HIGH', true]);
    assert.deepEqual([note!.risk, note!.confirm], ['MEDIUM', false]);
    assert.match(note!.reasons[0]!, /always allowed/);
  });

  it('sends the server schema as is, with the risk arguments added to tools with side effects', () => {
    const rw = createMcpTool(
      server,
      { name: 'w', description: 'Writes.', inputSchema: schema },
      { exposedName: 'w' },
    );
    const ro = createMcpTool(
      server,
      { name: 'r', inputSchema: schema, annotations: { readOnlyHint: true } },
      { exposedName: 'r' },
    );
    const def = toolDefinition(rw as never);
    assert.equal(def.function.description, 'Writes. (MCP server "srv")');
    const params = parametersOf(rw as never) as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(params.properties).sort(), [
      'depth',
      'mode',
      'path',
      'security_risk',
      'summary',
    ]);
    assert.deepEqual(params.required.sort(), ['path', 'security_risk', 'summary']);
    assert.deepEqual(parametersOf(ro as never), schema);
    assert.equal(ro.readOnly, true);
  });

  it('validates leniently: required, top-level types and enums; unknown constructs pass', () => {
    const tools = [
      createMcpTool(server, { name: 'w', inputSchema: schema }, { exposedName: 'w' }),
    ] as never[];
    const ok = validateToolCall(tools, 'w', JSON.stringify({ path: 'a', depth: '2', security_risk: 'LOW' }));
    assert.ok(ok.ok);
    assert.deepEqual(ok.action, { data: { path: 'a', depth: 2 }, kind: 'MCPToolAction' });
    assert.equal(ok.security_risk, 'LOW');
    const missing = validateToolCall(tools, 'w', '{"depth": 1}');
    assert.ok(!missing.ok && /path: required/.test(missing.error));
    const badEnum = validateToolCall(tools, 'w', '{"path": "a", "mode": "c"}');
    assert.ok(!badEnum.ok && /mode: must be one of "a", "b"/.test(badEnum.error));
    // A schema the check does not understand never refuses a call.
    const odd = argumentsSchema({ properties: { x: { anyOf: [{ type: 'string' }] } } });
    assert.ok(odd.safeParse({ x: 3, extra: true }).success);
  });

  it('names: own names first, a clash gets the server in front, odd characters are replaced', () => {
    const { assigned, notes } = assignToolNames(
      ['terminal'],
      [
        { server: 'a', tool: { name: 'terminal' } },
        { server: 'a', tool: { name: 'search' } },
        { server: 'b', tool: { name: 'search' } },
        { server: 'b', tool: { name: 'do.thing' } },
      ],
    );
    assert.deepEqual(
      assigned.map((a) => a.exposed),
      ['a_terminal', 'search', 'b_search', 'do_thing'],
    );
    assert.equal(notes.length, 3);
  });

  it("names: the agents' own tools are taken too, so an MCP tool never shadows a delegated agent's escalate", () => {
    const clashing = ['escalate', 'delegate', 'transfer_to_agent', 'fetch', 'terminal'];
    const { assigned } = assignToolNames(
      builtInToolNames(),
      clashing.map((name) => ({ server: 'srv', tool: { name } })),
    );
    assert.deepEqual(
      assigned.map((a) => a.exposed),
      clashing.map((name) => `srv_${name}`),
    );
  });

  it('names: every built-in tool, the web ones included, is a name MCP tools must not take', () => {
    const web = { fetch: async () => ({}) } as unknown as WebPort;
    const search = { search: async () => [] } as unknown as WebSearchPort;
    const tools = defaultTools({ web, webSearch: search }).map((t) => t.name);
    const reserved = builtInToolNames();
    assert.deepEqual(
      tools.filter((name) => !reserved.includes(name)),
      [],
    );
  });
});

describe('MCP configuration', () => {
  it('reads the Claude Desktop shape and says which entries are left out', () => {
    const { servers, problems } = parseMcpServers({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server'], env: { A: '1' } },
        web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:tok}' } },
        off: { command: 'x', disabled: true },
        bad: { args: [] },
        'bad name!': { command: 'x' },
        ftp: { url: 'ftp://example.com' },
      },
    });
    assert.deepEqual([...servers.keys()], ['files', 'web']);
    assert.equal(problems.length, 3);
    assert.match(problems.join('\n'), /"bad" is left out: command/);
    assert.match(problems.join('\n'), /"ftp" is left out: url/);
  });

  it('fills in ${secret:...} and ${env:...} references and reports the values to redact', async () => {
    const out = await expandReferences(
      { Authorization: 'Bearer ${secret:tok}', X: '${env:HOME_DIR}/x' },
      async (kind, name) =>
        kind === 'secret' && name === 'tok' ? 'sekret-value-123' : kind === 'env' ? '/home/u' : undefined,
    );
    assert.deepEqual(out.values, { Authorization: 'Bearer sekret-value-123', X: '/home/u/x' });
    assert.deepEqual(out.secrets, ['sekret-value-123', '/home/u']);
    await assert.rejects(
      expandReferences({ A: '${secret:missing}' }, async () => undefined),
      /secret "missing"/,
    );
  });

  it('names every env value, credential headers and referenced values as secrets of the entry', () => {
    const found = serverSecrets('gh', {
      env: { GITHUB_TOKEN: 'ghp_literal_value_1', DEBUG: '1' },
      headers: { Authorization: 'Bearer header-token-22', Accept: 'application/json' },
      referenced: ['from-a-reference'],
    });
    assert.deepEqual(
      found.map((f) => `${f.name}=${f.value}`),
      [
        'MCP gh GITHUB_TOKEN=ghp_literal_value_1',
        'MCP gh DEBUG=1',
        'MCP gh Authorization header=Bearer header-token-22',
        'MCP gh Authorization header=header-token-22',
        'MCP gh secret=from-a-reference',
      ],
    );
    // The redactor skips the one-character value; the rest are replaced.
    const r = new SecretRedactor(found);
    assert.equal(
      r.redactText('DEBUG=1 ghp_literal_value_1 token header-token-22 application/json'),
      'DEBUG=1 [redacted MCP gh GITHUB_TOKEN] token [redacted MCP gh Authorization header] application/json',
    );
  });
});

describe('joinToolSources', () => {
  it('offers every source, the same array while none changes, and gathers their notices', async () => {
    const { joinToolSources } = await import('../../../src/core/agent/tool-sources');
    const a = [createMcpTool(server, { name: 'x', inputSchema: schema }, { exposedName: 'x' })];
    let b = [createMcpTool(server, { name: 'y', inputSchema: schema }, { exposedName: 'y' })];
    let prepared = 0;
    const joined = joinToolSources([
      {
        prepare: async () => void prepared++,
        tools: () => a as never,
        takeNotices: () => [{ source: 'a', message: 'm' }],
      },
      { prepare: async () => void prepared++, tools: () => b as never, takeNotices: () => [] },
    ]);
    await joined.prepare();
    assert.equal(prepared, 2);
    const first = joined.tools();
    assert.deepEqual(
      first.map((t) => t.name),
      ['x', 'y'],
    );
    assert.equal(joined.tools(), first);
    b = [];
    assert.deepEqual(
      joined.tools().map((t) => t.name),
      ['x'],
    );
    assert.deepEqual(joined.takeNotices(), [{ source: 'a', message: 'm' }]);
  });
});

describe('MCP error text', () => {
  it('reduces an HTML error page to its text and clips long messages', async () => {
    const { readable } = await import('../../../src/host/node/mcp/mcp-connection');
    assert.equal(
      readable(
        'Error POSTing to endpoint: <!DOCTYPE html>\n<html><body><pre>Cannot POST /sse</pre></body></html>\n',
      ),
      'Error POSTing to endpoint: Cannot POST /sse',
    );
    assert.equal(readable('x'.repeat(1000)).length, 600);
    assert.equal(readable('a < b and c > d'), 'a < b and c > d');
  });
});

describe('MCP events in an OpenHands V0 trajectory', () => {
  it('become call_tool_mcp actions and mcp observations', async () => {
    const { exportV0Trajectory } = await import('../../../src/core/events');
    const action = actionFor('echo', { message: 'hi' });
    const obs = createEvent('ObservationEvent', {
      observation: {
        kind: 'MCPToolObservation',
        content: [{ type: 'text', text: 'Echo: hi' }],
        is_error: false,
        tool_name: 'echo',
      },
      action_id: action.id,
      tool_name: 'echo',
      tool_call_id: 'call_1',
    } as never);
    const [a, o] = exportV0Trajectory([action, obs as never]);
    assert.equal(a!.action, 'call_tool_mcp');
    assert.deepEqual(a!.args, { name: 'echo', arguments: { message: 'hi' }, thought: '' });
    assert.equal(o!.observation, 'mcp');
    assert.equal(o!.content, 'Echo: hi');
    assert.deepEqual(o!.extras, { name: 'echo', arguments: {} });
  });
});
