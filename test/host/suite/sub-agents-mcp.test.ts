// A delegated agent whose definition names MCP tools (`server/tool`) gets exactly those of the
// window's servers in the real extension host (the reference server from npm): the child is offered
// `echo` and none of the server's other tools, and its call runs in its own log. Show Agents names
// a definition whose server the settings do not configure, and leaves it out.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ShowAgentsResult } from '../../../src/host/vscode/agents/show-agents';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('logbook');
const everything = () => ({
  command: process.execPath,
  args: [
    join(
      vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    ),
    'stdio',
  ],
});

function defineAgent(name: string, tools: string): void {
  const dir = join(workspaceRoot(), '.logbook', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.md`),
    `---\nname: ${name}\ndescription: Echoes things.\ntools: ${tools}\n---\nEcho what you are given.\n`,
  );
}

describe('Sub-agents: MCP tools a definition names', function () {
  this.timeout(90_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    await cfg().update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    await (await logbook()).service.mcp.settled();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the child gets the named tool of the window’s server, and none of its others', async () => {
    const { service } = await logbook();
    await cfg().update('mcp.servers', { everything: everything() }, vscode.ConfigurationTarget.Global);
    await service.mcp.settled();
    defineAgent('echoer', '[everything/echo]');
    llm = await scriptedModel({
      name: 'host-agent-mcp',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'echo through an agent' },
          reply: {
            toolCalls: [
              {
                id: 'call_delegate',
                name: 'delegate',
                arguments: { command: 'delegate', ids: ['echoer'], tasks: { echoer: 'Echo "from vscode".' } },
              },
            ],
          },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'Echo "from vscode"' },
          reply: { toolCalls: [{ id: 'call_echo', name: 'echo', arguments: { message: 'from vscode' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Echo: from vscode' },
          reply: { toolCalls: [{ id: 'call_fin', name: 'finish', arguments: { message: 'echoed it' } }] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'echoed it' }, reply: { content: 'Done.' } },
      ],
    });
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'echo through an agent');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);

    const names = (i: number) =>
      (llm!.completionBodies()[i]!['tools'] as { function: { name: string } }[]).map((t) => t.function.name);
    const parent = names(0);
    assert.ok(parent.includes('echo') && parent.includes('get-sum'), parent.join(', '));
    const child = names(1);
    assert.ok(child.includes('echo'), `the child is offered echo: ${child.join(', ')}`);
    for (const other of ['get-sum', 'terminal', 'file_editor'])
      assert.ok(!child.includes(other), `the child is not offered ${other}: ${child.join(', ')}`);

    const card = service.header(id)!.children![0]!;
    const childLog = (await service.childEventsAfter(id, card.conversationId, -1)).map((e) => e.event);
    const echoed = childLog.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'echo');
    assert.ok(echoed, "the echo ran in the child's log");
    assert.match(JSON.stringify(echoed), /Echo: from vscode/);
    assert.equal(llm.remainingTurns(), 0);
  });

  it('Show Agents leaves out a definition naming a server the settings do not configure', async () => {
    await logbook();
    defineAgent('echoer', '[everything/echo]');
    const shown = await vscode.commands.executeCommand<ShowAgentsResult>('logbook.showAgents', {
      pick: 'explore',
    });
    assert.deepEqual([...shown.agents], ['explore']);
    assert.equal(shown.leftOut.length, 1);
    assert.match(shown.leftOut[0]!, /echoer\.md: no MCP server is configured for everything\/echo/);
  });
});
