// `logbook acp` driven by a client built on the ACP SDK's own client app, over the real stdio of a
// spawned process, with the scripted model: a turn streams chunks and a tool call with its diff,
// a cancel stops a turn mid-command, and a session loads from its log after a restart.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { AcpTestClient } from '../../support/acp-client';
import { everythingStdio } from '../mcp/mcp-support';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson, terminalCall } from './fixtures';

const CREATE = {
  id: 'call_create',
  name: 'file_editor',
  arguments: {
    command: 'create',
    path: 'hello.txt',
    file_text: 'hello logbook\n',
    security_risk: 'LOW',
    summary: 'create hello.txt',
  },
};

function toolCalls(c: AcpTestClient) {
  return c.of('tool_call') as Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>[];
}
function toolUpdates(c: AcpTestClient) {
  return c.of('tool_call_update') as Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>[];
}

describe('logbook acp (a real process, the SDK client)', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  const clients: AcpTestClient[] = [];
  const start = async (env: Record<string, string>, args: string[] = []) => {
    const c = await AcpTestClient.start(env, args);
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop();
    await fx.cleanup();
  });

  it('initialize, session/new, session/prompt: streamed chunks, a tool call with its diff, a signed conversation', async () => {
    const env = await fx.startLlm({
      name: 'acp-create',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'greeting' },
          reply: {
            reasoning: 'A file is the simplest greeting.',
            content: 'I will create the file.',
            toolCalls: [CREATE],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: { content: 'Created hello.txt.', usage: { prompt: 1200, completion: 30, cost: 0.25 } },
        },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const c = await start(env);
    const init = await c.initialize();
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.ok(init.agentCapabilities?.sessionCapabilities?.list, 'the session list is offered');

    const { sessionId, modes } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    assert.equal(modes?.currentModeId, 'act');
    assert.deepEqual(modes?.availableModes.map((m) => m.id).sort(), ['act', 'plan']);
    const res = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write a greeting' }],
    });
    assert.equal(res.stopReason, 'end_turn', c.stderr);
    const [info] = c.of('session_info_update') as Extract<
      SessionUpdate,
      { sessionUpdate: 'session_info_update' }
    >[];
    assert.equal(info?.title, 'write a greeting');

    // Streamed: more than one chunk each, in the order the model sent them.
    assert.ok(c.of('agent_thought_chunk').length > 1, 'reasoning streams in chunks');
    assert.equal(c.text('agent_thought_chunk'), 'A file is the simplest greeting.');
    assert.equal(c.text('agent_message_chunk'), 'I will create the file.Created hello.txt.');
    const [call] = toolCalls(c);
    assert.equal(call?.kind, 'edit');
    assert.equal(call?.status, 'pending');
    assert.equal(call?.title, `Create ${join(ws, 'hello.txt')}`);
    assert.deepEqual(call?.locations, [{ path: join(ws, 'hello.txt') }]);
    const done = toolUpdates(c).find((u) => u.toolCallId === call!.toolCallId && u.status === 'completed');
    const diff = done?.content?.find((x) => x.type === 'diff');
    assert.deepEqual(diff && { ...diff }, {
      type: 'diff',
      path: join(ws, 'hello.txt'),
      oldText: null,
      newText: 'hello logbook\n',
    });
    assert.ok(toolUpdates(c).some((u) => u.toolCallId === call!.toolCallId && u.status === 'in_progress'));
    // Usage after each model call: the last one held its prompt and its reply; the window is unknown.
    const usage = c.of('usage_update') as Extract<SessionUpdate, { sessionUpdate: 'usage_update' }>[];
    assert.equal(usage.length, 2, 'one usage update per model call');
    assert.equal(usage.at(-1)?.used, 1230);
    assert.equal(usage.at(-1)?.size, 0);
    assert.deepEqual(usage.at(-1)?.cost, { amount: 0.25, currency: 'USD' });
    assert.deepEqual(usage.at(-1)?._meta, { logbook: { sizeUnknown: true } });
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello logbook\n');
    assert.equal(await c.stop(), 0, c.stderr);

    // The session is a conversation where `logbook run` puts one; the CLI reads, verifies and restores it.
    const dir = join(ws, '.logbook', 'conversations', sessionId);
    const show = await runCli(['show', dir, '--json']);
    assert.equal(show.code, 0, printed(show));
    assert.equal((JSON.parse(show.stdout) as { status: string }).status, 'finished');
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
    const events = await readLogJson(dir);
    const action = events.find((e) => e.kind === 'ActionEvent')!;
    const restore = await runCli(['restore', dir, '--at', action.id as string, '--yes']);
    assert.equal(restore.code, 0, printed(restore));
    assert.ok(!existsSync(join(ws, 'hello.txt')), 'restored to before the edit');
  });

  it('the task list streams as a plan; a held file edit asks with its diff, and runs once allowed', async () => {
    const env = await fx.startLlm({
      name: 'acp-plan-diff',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_plan',
                name: 'task_tracker',
                arguments: {
                  command: 'plan',
                  task_list: [
                    { title: 'Write the greeting', status: 'in_progress' },
                    { title: 'Say so', status: 'todo' },
                  ],
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { toolCalls: [CREATE] } },
        { match: { lastRole: 'tool', toolResultIncludes: 'Created' }, reply: { content: 'Done.' } },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const c = await start(env, ['--confirmation-mode', 'always']);
    await c.initialize();
    const { sessionId } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const res = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'greet' }],
    });
    assert.equal(res.stopReason, 'end_turn', c.stderr);
    const plans = c.of('plan') as Extract<SessionUpdate, { sessionUpdate: 'plan' }>[];
    assert.deepEqual(
      plans.at(-1)?.entries.map((e) => [e.content, e.status]),
      [
        ['Write the greeting', 'in_progress'],
        ['Say so', 'pending'],
      ],
    );
    const asked = c.permissions.find((p) => p.toolCall.kind === 'edit');
    assert.ok(asked, 'the edit was asked about');
    const diff = asked.toolCall.content?.find((x) => x.type === 'diff');
    assert.deepEqual(diff && { ...diff }, {
      type: 'diff',
      path: join(ws, 'hello.txt'),
      oldText: null,
      newText: 'hello logbook\n',
    });
    assert.deepEqual(asked.toolCall.locations, [{ path: join(ws, 'hello.txt') }]);
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello logbook\n');
  });

  it('an editor offering fs/*: the file tool reads its unsaved buffer and writes through it', async () => {
    const env = await fx.startLlm({
      name: 'acp-editor-files',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_edit',
                name: 'file_editor',
                arguments: {
                  command: 'str_replace',
                  path: 'greeting.txt',
                  old_str: 'unsaved',
                  new_str: 'edited',
                  security_risk: 'LOW',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'Edited' }, reply: { content: 'Edited.' } },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const file = join(ws, 'greeting.txt');
    writeFileSync(file, 'hello on disk\n');
    const c = await start(env);
    c.buffers.set(file, 'hello unsaved\n');
    await c.initialize(true);
    const { sessionId } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const res = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'edit it' }],
    });
    assert.equal(res.stopReason, 'end_turn', c.stderr);
    assert.deepEqual(c.fsCalls.at(-1), { method: 'write', path: file, content: 'hello edited\n' });
    assert.ok(c.fsCalls.some((f) => f.method === 'read' && f.path === file));
    assert.equal(readFileSync(file, 'utf8'), 'hello edited\n');
    const diff = toolUpdates(c)
      .flatMap((u) => u.content ?? [])
      .find((x) => x.type === 'diff');
    assert.equal(diff?.type === 'diff' ? diff.oldText : undefined, 'hello unsaved\n');
  });

  it("the editor's MCP servers start with the session, and their tools answer", async () => {
    const env = await fx.startLlm({
      name: 'acp-editor-mcp',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [{ id: 'call_echo', name: 'echo', arguments: { message: 'from the editor' } }],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'from the editor' }, reply: { content: 'Echoed.' } },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const c = await start(env);
    const init = await c.initialize();
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
    const { sessionId } = await c.agent.request('session/new', {
      cwd: ws,
      mcpServers: [{ name: 'the everything server', ...everythingStdio, env: [] }],
    });
    const res = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'echo' }],
    });
    assert.equal(res.stopReason, 'end_turn', c.stderr);
    assert.match(c.text('agent_message_chunk'), /Echoed\./);
    assert.match(c.stderr, /MCP server "the-everything-server" started/);
  });

  it('session/cancel mid-command: the command stops, the turn ends cancelled, the log says paused', async () => {
    const env = await fx.startLlm({
      name: 'acp-cancel',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_sleep', 'sleep 60')] } },
        { match: { lastRole: 'user', lastContentIncludes: 'again' }, reply: { content: 'Here again.' } },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const c = await start(env);
    await c.initialize();
    const { sessionId } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    const turn = c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'wait a while' }],
    });
    await c.until(() => toolUpdates(c).some((u) => u.status === 'in_progress'));
    const before = Date.now();
    await c.agent.notify('session/cancel', { sessionId });
    assert.equal((await turn).stopReason, 'cancelled');
    assert.ok(Date.now() - before < 20_000, 'the sleep did not run out');
    const failed = toolUpdates(c).find((u) => u.status === 'completed' || u.status === 'failed');
    assert.ok(failed, 'the command is answered');

    // The session goes on: the next prompt runs a new turn.
    const next = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'are you there again?' }],
    });
    assert.equal(next.stopReason, 'end_turn', c.stderr);
    assert.match(c.text('agent_message_chunk'), /Here again\./);
    await c.stop();
    const events = await readLogJson(join(ws, '.logbook', 'conversations', sessionId));
    assert.ok(
      events.some((e) => e.kind === 'PauseEvent'),
      'the pause is recorded',
    );
  });

  it('SIGTERM (an editor stopping its agent) mid-command: the process ends, the log records the pause', async () => {
    const env = await fx.startLlm({
      name: 'acp-sigterm',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_sleep', 'sleep 60')] } },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const c = await start(env);
    await c.initialize();
    const { sessionId } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    void c.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait a while' }] })
      .catch(() => undefined);
    await c.until(() => toolUpdates(c).some((u) => u.status === 'in_progress'));
    const exited = new Promise<number | null>((resolve) => c.child.once('exit', (code) => resolve(code)));
    c.child.kill('SIGTERM');
    await exited;
    const dir = join(ws, '.logbook', 'conversations', sessionId);
    const events = await readLogJson(dir);
    assert.ok(
      events.some((e) => e.kind === 'PauseEvent'),
      c.stderr,
    );
    const show = await runCli(['show', dir, '--json']);
    assert.equal((JSON.parse(show.stdout) as { status: string }).status, 'paused', printed(show));
  });

  for (const choice of ['skip', 'rerun'] as const)
    it(`after a crash mid-command, the action left in doubt is asked about (${choice}), never run again unasked`, async () => {
      // The first run marks its start and waits; a run again finds the mark and ends at once.
      const command = 'echo once >> runs.txt && if [ ! -e started ]; then touch started; sleep 60; fi';
      const env = await fx.startLlm({
        name: `acp-in-doubt-${choice}`,
        turns: [
          { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_count', command)] } },
          ...(choice === 'rerun'
            ? [{ match: { lastRole: 'tool' as const }, reply: { content: 'Ran it again.' } }]
            : []),
          { match: { lastRole: 'user', lastContentIncludes: 'go on' }, reply: { content: 'Going on.' } },
        ],
      });
      // No key in the environment: the CLI runs as one process, so SIGKILL ends the agent itself.
      const { OPENAI_API_KEY: _key, ...noKey } = env;
      const ws = realpathSync(fx.tmp());
      const first = await start(noKey);
      await first.initialize();
      const { sessionId } = await first.agent.request('session/new', { cwd: ws, mcpServers: [] });
      void first.agent
        .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'count' }] })
        .catch(() => undefined);
      await first.until(() => toolUpdates(first).some((u) => u.status === 'in_progress'));
      for (let i = 0; i < 200 && !existsSync(join(ws, 'started')); i++)
        await new Promise((r) => setTimeout(r, 50));
      const killed = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGKILL');
      await killed;

      const second = await start(noKey);
      await second.initialize();
      await second.agent.request('session/load', { sessionId, cwd: ws, mcpServers: [] });
      const kind = choice === 'rerun' ? 'allow_once' : 'reject_once';
      second.answer = async (req) => ({
        outcome: { outcome: 'selected', optionId: req.options.find((o) => o.kind === kind)!.optionId },
      });
      const res = await second.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go on' }],
      });
      assert.equal(res.stopReason, 'end_turn', second.stderr);
      assert.equal(second.permissions.length, 1);
      assert.match(second.permissions[0]!.toolCall.title ?? '', /echo once.*result is unknown/);
      assert.equal(
        readFileSync(join(ws, 'runs.txt'), 'utf8'),
        choice === 'rerun' ? 'once\nonce\n' : 'once\n',
        'run again only when the user said so',
      );
      assert.match(
        second.text('agent_message_chunk'),
        choice === 'rerun' ? /Ran it again\.Going on\./ : /^Going on\.$/,
      );
    });

  it('session/load after a restart replays the conversation from its log, and the session goes on', async () => {
    const env = await fx.startLlm({
      name: 'acp-load',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'greeting' },
          reply: { reasoning: 'Simple.', content: 'I will create the file.', toolCalls: [CREATE] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Created hello.txt.' } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'what did you' },
          reply: { content: 'I made hello.txt.' },
        },
      ],
    });
    const ws = realpathSync(fx.tmp());
    const first = await start(env);
    await first.initialize();
    const { sessionId } = await first.agent.request('session/new', { cwd: ws, mcpServers: [] });
    await first.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write a greeting' }],
    });
    const liveCall = toolCalls(first)[0]!;
    assert.equal(await first.stop(), 0, first.stderr);

    const second = await start(env);
    await second.initialize();
    const list = await second.agent.request('session/list', { cwd: ws });
    assert.deepEqual(
      list.sessions.map((s) => [s.sessionId, s.cwd, s.title]),
      [[sessionId, ws, 'write a greeting']],
      'each session with its title',
    );
    const loaded = await second.agent.request('session/load', { sessionId, cwd: ws, mcpServers: [] });
    assert.equal(loaded.modes?.currentModeId, 'act');
    assert.equal(second.text('user_message_chunk'), 'write a greeting');
    assert.equal(second.text('agent_thought_chunk'), 'Simple.');
    assert.equal(second.text('agent_message_chunk'), 'I will create the file.Created hello.txt.');
    const replayed = toolCalls(second)[0];
    assert.equal(replayed?.toolCallId, liveCall.toolCallId, 'the same tool call, by the action id');
    assert.equal(replayed?.title, liveCall.title);
    const diff = toolUpdates(second)
      .flatMap((u) => u.content ?? [])
      .find((x) => x.type === 'diff');
    assert.equal(diff?.type === 'diff' ? diff.newText : undefined, 'hello logbook\n');

    const before = second.updates.length;
    const res = await second.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'what did you do?' }],
    });
    assert.equal(res.stopReason, 'end_turn', second.stderr);
    assert.match(
      second.updates
        .slice(before)
        .map((n) =>
          n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text'
            ? n.update.content.text
            : '',
        )
        .join(''),
      /I made hello\.txt\./,
    );
    // A session id that names no conversation of the folder is a clear error.
    await assert.rejects(
      second.agent.request('session/load', { sessionId: '../../etc', cwd: ws, mcpServers: [] }),
      /No conversation/,
    );
  });
});
