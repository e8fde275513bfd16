// `logbook acp` against a client that says no, cancels its answer, or sends garbage. A held action
// runs only on the user's "allow": a rejection or a cancelled permission request is recorded as the
// user's rejection and nothing runs, in act mode and in plan mode; "Always allow" writes a command
// prefix to the user's config file, never more; bad JSON-RPC gets an error and the session goes on.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AcpTestClient } from '../../support/acp-client';
import { cliBundle, testConfigDir, testSigningKey, testCheckpointsDir } from '../cli/cli-runner';
import { CliFixture, readLogJson, terminalCall } from '../cli/fixtures';

describe('hostile: logbook acp permissions and bad input', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  const clients: AcpTestClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop();
    await fx.cleanup();
  });

  async function session(env: Record<string, string>, mode: 'act' | 'plan', args: string[] = []) {
    const ws = realpathSync(fx.tmp());
    const c = await AcpTestClient.start(env, args);
    clients.push(c);
    await c.initialize();
    const { sessionId } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    if (mode === 'plan') await c.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    return { c, ws, sessionId, dir: join(ws, '.logbook', 'conversations', sessionId) };
  }

  for (const mode of ['act', 'plan'] as const) {
    // Plan mode refuses writes before anyone is asked; a read still asks under --confirmation-mode always.
    const command = mode === 'act' ? 'echo written > note.txt' : 'ls -la';
    for (const how of ['rejected', 'cancelled'] as const) {
      it(`${mode} mode: a permission request ${how} by the client rejects the action; nothing runs`, async () => {
        const env = await fx.startLlm({
          name: `acp-${how}-${mode}`,
          turns: [
            { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_held', command)] } },
            {
              match: { lastRole: 'tool', toolResultIncludes: how === 'rejected' ? 'rejected' : 'cancelled' },
              reply: { content: 'Understood, I left it.' },
            },
          ],
        });
        const { c, ws, sessionId, dir } = await session(env, mode, ['--confirmation-mode', 'always']);
        c.answer = async (req) =>
          how === 'cancelled'
            ? { outcome: { outcome: 'cancelled' } }
            : {
                outcome: {
                  outcome: 'selected',
                  optionId: req.options.find((o) => o.kind === 'reject_once')!.optionId,
                },
              };
        const res = await c.agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'do it' }],
        });
        assert.equal(res.stopReason, 'end_turn', c.stderr);
        assert.equal(c.permissions.length, 1);
        const asked = c.permissions[0]!;
        assert.deepEqual(
          asked.options.map((o) => o.kind),
          ['allow_once', 'allow_always', 'reject_once'],
        );
        assert.match(asked.toolCall.title ?? '', new RegExp(`${command.split(' ')[0]}.*\\(risk \\w+\\)`));
        assert.ok(!existsSync(join(ws, 'note.txt')), 'nothing was written');
        assert.match(c.text('agent_message_chunk'), /Understood/);
        const failed = (c.of('tool_call_update') as { status?: string | null }[]).some(
          (u) => u.status === 'failed',
        );
        assert.ok(failed, 'the editor sees the tool call fail');
        await c.stop();
        const events = await readLogJson(dir);
        const rejection = events.find((e) => e.kind === 'UserRejectObservation');
        assert.ok(rejection, 'the rejection is recorded as the user decision');
        assert.match(String(rejection.rejection_reason), how === 'rejected' ? /rejected/ : /cancelled/);
        assert.ok(!events.some((e) => e.kind === 'ObservationEvent' && e.tool_name === 'terminal'));
      });
    }
  }

  it('"Always allow" adds the command prefix to the user config file, and answers the next such command', async () => {
    const env = await fx.startLlm({
      name: 'acp-always',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('call_1', 'git init -q first')] } },
        { match: { lastRole: 'tool' }, reply: { toolCalls: [terminalCall('call_2', 'git init -q second')] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Both made.' } },
      ],
    });
    // A config folder of this test's own: the rule must not reach other tests' runs.
    const configHome = fx.tmp('logbook-acp-config-');
    const { c, ws, sessionId } = await session({ ...env, XDG_CONFIG_HOME: configHome }, 'act', [
      '--confirmation-mode',
      'always',
    ]);
    c.answer = async (req) => ({
      outcome: {
        outcome: 'selected',
        optionId: req.options.find((o) => o.kind === 'allow_always')!.optionId,
      },
    });
    const res = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'two repos' }],
    });
    assert.equal(res.stopReason, 'end_turn', c.stderr);
    assert.equal(c.permissions.length, 1, 'the second command is answered by the rule');
    assert.match(c.permissions[0]!.options[1]!.name, /"git init"/);
    assert.ok(existsSync(join(ws, 'first', '.git')) && existsSync(join(ws, 'second', '.git')));
    const config = JSON.parse(readFileSync(join(configHome, 'logbook', 'config.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.ok((config['confirmation.allowRules'] as string[]).includes('git init'));
  });

  it('an editor offering fs/*: a write through a symlink to outside the workspace reaches neither the editor nor the file, even allowed', async () => {
    const env = await fx.startLlm({
      name: 'acp-editor-symlink',
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
                  path: 'link.txt',
                  old_str: 'kept',
                  new_str: 'changed',
                  security_risk: 'LOW',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Stopped.' } },
      ],
    });
    const outside = realpathSync(fx.tmp('logbook-acp-outside-'));
    const target = join(outside, 'secret.txt');
    writeFileSync(target, 'kept\n');
    const ws = realpathSync(fx.tmp());
    symlinkSync(target, join(ws, 'link.txt'));
    const c = await AcpTestClient.start(env);
    clients.push(c);
    await c.initialize(true);
    const { sessionId } = await c.agent.request('session/new', { cwd: ws, mcpServers: [] });
    // Whatever is asked is allowed: the bound does not rest on the user's answer.
    const res = await c.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'edit link.txt' }],
    });
    assert.equal(res.stopReason, 'end_turn', c.stderr);
    assert.equal(readFileSync(target, 'utf8'), 'kept\n');
    assert.deepEqual(
      c.fsCalls.filter((f) => f.method === 'write'),
      [],
    );
  });

  it('bad JSON-RPC input gets an error response, and the session goes on', async () => {
    const env = await fx.startLlm({ name: 'acp-bad', turns: [] });
    const ws = realpathSync(fx.tmp());
    const cli = await cliBundle();
    const child = spawn(process.execPath, [cli, 'acp'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOGBOOK_SIGNING_KEY: testSigningKey(),
        XDG_CONFIG_HOME: testConfigDir(),
        LOGBOOK_CHECKPOINTS_DIR: testCheckpointsDir(),
        ...env,
      },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const replies: Record<string, unknown>[] = [];
    const waiting: (() => void)[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      replies.push(JSON.parse(line) as Record<string, unknown>);
      waiting.splice(0).forEach((w) => w());
    });
    const send = (line: string) => child.stdin.write(line + '\n');
    const reply = async (id: number | null): Promise<Record<string, unknown>> => {
      for (;;) {
        const found = replies.find((r) => r.id === id && ('result' in r || 'error' in r));
        if (found) return found;
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve);
          setTimeout(() => reject(new Error(`no reply to ${id}; stderr:\n${stderr}`)), 15_000);
        });
      }
    };
    const error = (r: Record<string, unknown>) => r.error as { code: number; message: string } | undefined;
    try {
      send('this is not json');
      assert.equal(error(await reply(null))?.code, -32700);
      send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }));
      assert.ok('result' in (await reply(1)));
      send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method', params: {} }));
      assert.equal(error(await reply(2))?.code, -32601);
      send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/new', params: { cwd: 42 } }));
      assert.equal(error(await reply(3))?.code, -32602);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'session/new',
          params: { cwd: 'relative', mcpServers: [] },
        }),
      );
      assert.match(error(await reply(4))?.message ?? '', /absolute/);
      send(
        JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'session/new', params: { cwd: ws, mcpServers: [] } }),
      );
      const created = await reply(5);
      const sessionId = (created.result as { sessionId: string }).sessionId;
      send('{"jsonrpc":"2.0","id":6,"method":"session/set_mode","params":{"sessionId":');
      assert.equal(error(await reply(null))?.code, -32700);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'session/set_mode',
          params: { sessionId, modeId: 'yolo' },
        }),
      );
      assert.match(error(await reply(7))?.message ?? '', /act and plan/);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 8,
          method: 'session/prompt',
          params: { sessionId: 'nope', prompt: [] },
        }),
      );
      assert.match(error(await reply(8))?.message ?? '', /No open session/);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 10,
          method: 'session/prompt',
          params: { sessionId, prompt: [] },
        }),
      );
      const empty = error(await reply(10));
      assert.equal(empty?.code, -32602);
      assert.match(empty?.message ?? '', /no text/);
      // After all of it, the session still answers.
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'session/set_mode',
          params: { sessionId, modeId: 'plan' },
        }),
      );
      assert.ok('result' in (await reply(9)), stderr);
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
