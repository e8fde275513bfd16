// A definition's `tools` names MCP tools as `server/tool` or `server/*`: the CLI's delegated agents
// get those tools of the main session's servers (the reference server from npm here), and only
// those; a definition naming a server that is not configured is left out, with why, when loaded.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAgentDefinition } from '../../../src/core/agents/definition';
import { loadAgents } from '../../../src/host/node/agents/agent-files';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson } from '../cli/fixtures';
import { everythingStdio } from '../mcp/mcp-support';
import { type Json, toolsOfferedFor } from './agents-fixture';

const definition = (name: string, tools: string) =>
  `---\nname: ${name}\ndescription: Uses some tools.\ntools: ${tools}\n---\nDo the task.\n`;

describe('MCP tools named by agent definitions', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  function workspace(defs: Record<string, string>): string {
    const ws = fx.tmp();
    mkdirSync(join(ws, '.logbook', 'agents'), { recursive: true });
    for (const [name, tools] of Object.entries(defs))
      writeFileSync(join(ws, '.logbook', 'agents', `${name}.md`), definition(name, tools));
    return ws;
  }

  it('a reference without a server or a tool is an error of the file', () => {
    for (const bad of ['/echo', 'everything/']) {
      const parsed = parseAgentDefinition(definition('a', `[${bad}]`), 'a.md');
      assert.equal(parsed.ok, false, bad);
      assert.match(parsed.ok ? '' : parsed.error, /^a\.md: .*server\/tool.*server\/\*/);
    }
    const ok = parseAgentDefinition(definition('a', '[think, everything/echo, everything/*]'), 'a.md');
    assert.ok(ok.ok);
    assert.deepEqual(ok.agent.tools, ['think', 'everything/echo', 'everything/*']);
  });

  it('a tool of a server that is not configured leaves the definition out, naming it', () => {
    const ws = workspace({ echoer: '[everything/echo, think]', thinker: '[think]' });
    const loaded = loadAgents({
      workspace: ws,
      env: { XDG_CONFIG_HOME: fx.tmp() },
      trusted: true,
      mcpServers: ['docs'],
    });
    assert.deepEqual(
      loaded.agents.map((a) => a.name),
      ['explore', 'thinker'],
    );
    assert.equal(loaded.errors.length, 1);
    assert.match(
      loaded.errors[0]!,
      /echoer\.md: no MCP server is configured for everything\/echo \(configured: docs\)/,
    );
    const none = loadAgents({ workspace: ws, env: { XDG_CONFIG_HOME: fx.tmp() }, trusted: true });
    assert.match(none.errors[0]!, /everything\/echo \(none is configured\)/);
    const known = loadAgents({
      workspace: ws,
      env: { XDG_CONFIG_HOME: fx.tmp() },
      trusted: true,
      mcpServers: ['everything'],
    });
    assert.deepEqual(known.errors, []);
    assert.ok(known.agents.some((a) => a.name === 'echoer'));
  });

  it('`logbook agents --mcp-config` checks the servers a definition names', async () => {
    const ws = workspace({ echoer: '[everything/echo]' });
    const config = join(fx.tmp(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdio } }));
    const without = await runCli(['agents', '--workspace', ws]);
    assert.equal(without.code, 1, printed(without));
    assert.match(without.stderr, /no MCP server is configured for everything\/echo/);
    const withConfig = await runCli(['agents', '--workspace', ws, '--mcp-config', config]);
    assert.equal(withConfig.code, 0, printed(withConfig));
    assert.match(withConfig.stdout, /tools: everything\/echo/);
  });

  it("the CLI's delegated agents get the MCP tools their definitions name, and only those", async () => {
    const ws = workspace({
      echoer: '[everything/echo]',
      all: '[everything/*, think]',
      plain: '[think]',
      typo: '[everything/ehco, think]',
    });
    const config = join(fx.tmp(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdio } }));
    const task = (id: string) => `task of ${id}`;
    const finish = (id: string, message: string) => ({
      toolCalls: [{ id: `fin-${id}`, name: 'finish', arguments: { message } }],
    });
    await fx.startLlm({
      name: 'mcp-for-agents',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'use the agents' },
          reply: {
            toolCalls: [
              {
                id: 'call_delegate',
                name: 'delegate',
                arguments: {
                  command: 'delegate',
                  ids: ['echoer', 'all', 'plain', 'typo'],
                  tasks: Object.fromEntries(['echoer', 'all', 'plain', 'typo'].map((id) => [id, task(id)])),
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: task('echoer') },
          reply: { toolCalls: [{ id: 'call_echo', name: 'echo', arguments: { message: 'from a child' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Echo: from a child' },
          reply: finish('echoer', 'echoed'),
        },
        { match: { lastRole: 'user', lastContentIncludes: task('all') }, reply: finish('all', 'all seen') },
        {
          match: { lastRole: 'user', lastContentIncludes: task('plain') },
          reply: finish('plain', 'plain seen'),
        },
        {
          match: { lastRole: 'user', lastContentIncludes: task('typo') },
          reply: finish('typo', 'typo seen'),
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'typo seen' }, reply: { content: 'Done.' } },
      ],
    });
    const r = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--mcp-config',
        config,
        '--confirmation-mode',
        'never',
        '--task',
        'use the agents',
      ],
      { env: fx.env() },
    );
    assert.equal(r.code, 0, printed(r));
    const bodies = fx.llm!.completionBodies() as Json[];
    const main = toolsOfferedFor(bodies, 'use the agents');
    assert.ok(
      main.includes('echo') && main.includes('get-sum'),
      'the main agent has every tool of the server',
    );

    assert.deepEqual(toolsOfferedFor(bodies, task('echoer')).sort(), ['echo', 'escalate', 'finish']);
    const all = toolsOfferedFor(bodies, task('all'));
    for (const name of main.filter((n) => !['delegate', 'transfer_to_agent'].includes(n) && !isBuiltIn(n)))
      assert.ok(all.includes(name), `everything/* offers ${name}`);
    assert.ok(all.includes('think') && !all.includes('terminal'));
    assert.deepEqual(toolsOfferedFor(bodies, task('plain')).sort(), ['escalate', 'finish', 'think']);
    assert.deepEqual(toolsOfferedFor(bodies, task('typo')).sort(), ['escalate', 'finish', 'think']);

    // The echo ran in the child's own log; the misspelt tool is named in the typo agent's.
    const dir = onlyConversationDir(ws);
    const logs = await Promise.all(
      (existsSync(join(dir, 'agents')) ? readdirSync(join(dir, 'agents')) : []).map((n) =>
        readLogJson(join(dir, 'agents', n)),
      ),
    );
    const echoed = logs.find((l) => l.some((e) => e.kind === 'ObservationEvent' && e.tool_name === 'echo'));
    assert.ok(echoed, "the echo's result is in a child's log");
    assert.match(JSON.stringify(echoed), /Echo: from a child/);
    const notice = logs
      .flat()
      .find((e) => e.key === 'tool_source' && /everything\/ehco/.test(JSON.stringify(e.value)));
    assert.ok(notice, "the misspelt MCP tool is told in the agent's log");
    assert.match(JSON.stringify(notice.value), /offers no tool \\"ehco\\" \(it offers: .*echo/);
  });

  it('after a handoff, the agent that took over is offered the MCP tools its definition names', async () => {
    const ws = workspace({ echoer: '[everything/echo, think]' });
    const config = join(fx.tmp(), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdio } }));
    await fx.startLlm({
      name: 'mcp-after-handoff',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'hand it over' },
          reply: {
            toolCalls: [{ id: 'c_t', name: 'transfer_to_agent', arguments: { agent_name: 'echoer' } }],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the echoer agent' },
          reply: { toolCalls: [{ id: 'c_sum', name: 'get-sum', arguments: { a: 1, b: 2 } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'has no get-sum tool' },
          reply: { toolCalls: [{ id: 'c_echo', name: 'echo', arguments: { message: 'handed over' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Echo: handed over' },
          reply: { toolCalls: [{ id: 'c_f', name: 'finish', arguments: { message: 'done' } }] },
        },
      ],
    });
    const r = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--mcp-config',
        config,
        '--confirmation-mode',
        'never',
        '--task',
        'hand it over',
      ],
      { env: fx.env() },
    );
    assert.equal(r.code, 0, printed(r));
    const bodies = fx.llm!.completionBodies() as Json[];
    const names = (b: Json) =>
      ((b.tools as Json[]) ?? []).map((t) => String((t.function as Json).name)).sort();
    assert.ok(names(bodies[0]!).includes('get-sum'));
    for (const after of bodies.slice(1))
      assert.deepEqual(names(after), ['echo', 'finish', 'think', 'transfer_to_agent']);
  });
});

const BUILT_IN = new Set([
  'terminal',
  'file_editor',
  'task_tracker',
  'think',
  'finish',
  'glob',
  'grep',
  'fetch',
  'web_search',
]);
function isBuiltIn(name: string): boolean {
  return BUILT_IN.has(name);
}
