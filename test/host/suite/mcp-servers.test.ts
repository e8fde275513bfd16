// MCP servers from `logbook.mcp.servers` in the real extension host: the server starts when a
// conversation runs, its unannotated tool waits for the confirmation the chat sends, the call
// round-trips, a changed entry restarts it and a removed one stops it; Add MCP Server writes the
// setting and keeps the secret out of it.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, until } from './helpers';

const faultServer = () =>
  join(
    vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
    'test',
    'support',
    'mcp-fault-server.mjs',
  );
const cfg = () => vscode.workspace.getConfiguration('logbook');

describe('MCP servers from logbook.mcp.servers', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await cfg().update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    await (await logbook()).service.mcp.settled();
  });

  it('starts the configured server, asks before its unannotated tool, runs it once the chat confirms', async () => {
    const { service } = await logbook();
    await cfg().update(
      'mcp.servers',
      { faults: { command: process.execPath, args: [faultServer()] } },
      vscode.ConfigurationTarget.Global,
    );
    llm = await scriptedModel({
      name: 'host-mcp',
      turns: [
        {
          match: { lastContentIncludes: 'note it' },
          reply: {
            toolCalls: [
              {
                id: 'call_plain',
                name: 'plain',
                arguments: { note: 'from vscode', security_risk: 'LOW', summary: 'note' },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'noted: from vscode' },
          reply: { content: 'Noted.' },
        },
      ],
    });
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'note it');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'waiting_for_confirmation');
    const tools = (llm.completionBodies()[0]!['tools'] as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    assert.ok(tools.includes('plain') && tools.includes('shout'), tools.join(', '));
    assert.deepEqual(
      service.mcp.running().map((r) => r.server),
      ['faults'],
    );
    const header = service.header(id)!;
    assert.equal(header.pendingActionIds.length, 1);
    assert.equal(header.pendingRisks?.[0]?.risk, 'MEDIUM');
    // What the chat's Confirm sends.
    await service.approve(id, header.pendingActionIds);
    assert.equal(await session.settled(), 'finished');
    const events = await session.conversation.events();
    const obs = events.find((e) => e.kind === 'ObservationEvent');
    assert.ok(obs && obs.kind === 'ObservationEvent');
    assert.equal(obs.observation.kind, 'MCPToolObservation');
    assert.match(JSON.stringify(obs.observation.content), /noted: from vscode/);
    assert.equal(llm.remainingTurns(), 0);

    // A removed entry stops the server.
    await cfg().update('mcp.servers', {}, vscode.ConfigurationTarget.Global);
    await service.mcp.settled();
    assert.deepEqual(service.mcp.running(), []);
  });

  it('Add MCP Server writes the entry with a ${secret:} reference and keeps the value in secret storage', async () => {
    const { service } = await logbook();
    const name = await vscode.commands.executeCommand<string>('logbook.addMcpServer', {
      name: 'docs',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: '${secret:docs.token}' },
      secrets: { 'docs.token': 'Bearer host-test-token-123' },
    });
    assert.equal(name, 'docs');
    const written = cfg().inspect<Record<string, unknown>>('mcp.servers')?.globalValue;
    assert.deepEqual(written, {
      docs: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: '${secret:docs.token}' } },
    });
    assert.doesNotMatch(JSON.stringify(cfg().get('mcp.servers')), /host-test-token/);
    await service.mcp.settled();
    // Nothing listens there: the conversation says the server could not start and goes on.
    llm = await scriptedModel({ name: 'host-mcp-down', turns: [{ reply: { content: 'No tools needed.' } }] });
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'hello');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');
    const notice = (await session.conversation.events()).find(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'tool_source',
    );
    assert.ok(notice, 'the failure is recorded');
    assert.match(JSON.stringify(notice), /The MCP server \\"docs\\" could not start/);
    // The reference was filled in from secret storage: what failed is the connection, not the secret.
    assert.doesNotMatch(JSON.stringify(notice), /is not set/);
    assert.doesNotMatch(JSON.stringify(await session.conversation.events()), /host-test-token/);
  });

  it('a value written in an entry’s env is redacted from the conversation and the Output channel', async () => {
    const api = await logbook();
    const { service } = api;
    const token = 'host-env-literal-token-9f3d';
    await cfg().update(
      'mcp.servers',
      {
        leaky: {
          command: process.execPath,
          args: ['-e', 'console.error("starting with " + process.env.LEAKY); process.exit(3)'],
          env: { LEAKY: token },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await service.mcp.settled();
    llm = await scriptedModel({
      name: 'host-mcp-leaky',
      turns: [{ reply: { content: 'No tools needed.' } }],
    });
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'hello');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');
    const events = JSON.stringify(await session.conversation.events());
    assert.match(events, /starting with \[redacted MCP leaky LEAKY\]/);
    assert.ok(!events.includes(token), 'the value is not in the log');
    // The window's redaction set has it, so the Output channel (and its file) does not show it.
    assert.ok(service.knownSecrets.some((s) => s.value === token));
    const probe = `env-redaction-probe-${Date.now()}`;
    api.log.info(`${probe} ${token}`);
    const root = dirname(api.logUri.fsPath);
    const filesUnder = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) =>
        statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)],
      );
    let text = '';
    await until(() => {
      text = filesUnder(root)
        .map((f) => readFileSync(f, 'utf8'))
        .filter((t) => t.includes(probe))
        .join('\n');
      return text !== '';
    }, 'the probe line in the Output channel file');
    assert.match(text, new RegExp(`${probe} \\[redacted MCP leaky LEAKY\\]`));
    assert.ok(!text.includes(token), 'no value in the Output channel file');
  });

  it('a running server’s resources (after @) and prompts (after a leading /) are offered and attached when the message is sent', async () => {
    const { service } = await logbook();
    const everything = join(
      vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    );
    await cfg().update(
      'mcp.servers',
      { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      vscode.ConfigurationTarget.Global,
    );
    await service.mcp.settled();
    assert.ok(
      !(await service.mentionCandidates('')).some((m) => m.kind === 'resource'),
      'no server runs before a conversation does: typing @ starts none',
    );
    llm = await scriptedModel({
      name: 'host-mcp-resource',
      turns: [
        { match: { lastContentIncludes: 'start' }, reply: { content: 'Started.' } },
        { match: { lastContentIncludes: '--- Attached resource' }, reply: { content: 'Read it.' } },
      ],
    });
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'start');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');

    const items = (await service.mentionCandidates('')).filter((m) => m.kind === 'resource');
    assert.ok(items.length > 0, 'the running server’s resources are offered');
    const item = items.find((m) => /text/i.test(m.detail ?? '') || /\/1$/.test(m.path ?? '')) ?? items[0]!;
    assert.equal(item.server, 'everything');
    await service.sendMessage('read this', {
      mentions: [{ kind: 'resource', server: 'everything', uri: item.path! }],
    });
    assert.equal(await session.settled(), 'finished');
    const users = (await session.conversation.events()).filter(
      (e) => e.kind === 'MessageEvent' && e.source === 'user',
    );
    const last = JSON.stringify(users.at(-1));
    assert.ok(
      last.includes(`--- Attached resource ${item.path} of MCP server \\"everything\\" ---`),
      last.slice(0, 400),
    );
    assert.equal(llm.remainingTurns(), 0, 'the model read the attached resource');

    // A "/" that starts the message: the prompts that need no arguments, got when it is sent.
    const prompts = await service.mentionCandidates('', true);
    assert.ok(prompts.length > 0 && prompts.every((m) => m.kind === 'prompt'), JSON.stringify(prompts));
    const prompt = prompts[0]!;
    await llm.close();
    llm = await scriptedModel({
      name: 'host-mcp-prompt',
      turns: [{ match: { lastContentIncludes: '--- Attached prompt' }, reply: { content: 'Prompted.' } }],
    });
    await service.sendMessage(`/${prompt.label} now`, {
      mentions: [{ kind: 'prompt', server: 'everything', name: prompt.path! }],
    });
    assert.equal(await session.settled(), 'finished');
    const lastUser = JSON.stringify(
      (await session.conversation.events())
        .filter((e) => e.kind === 'MessageEvent' && e.source === 'user')
        .at(-1),
    );
    assert.ok(
      lastUser.includes(`--- Attached prompt \\"${prompt.path}\\" of MCP server`),
      lastUser.slice(0, 400),
    );
    assert.match(lastUser, /user: /);
    assert.equal(llm.remainingTurns(), 0);
  });
});
