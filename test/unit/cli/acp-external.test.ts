// `logbook run --agent NAME`: an external ACP agent run instead of Logbook's own loop. The agent
// here is `logbook acp` itself (a real child process on the scripted model), so both ends of the
// protocol are real: its text is recorded as the reply, its write becomes a file_editor action
// that Logbook's gate rates, confirms and checkpoints, and the log verifies.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../../support/llm-server';
import { cliBundle, printed, runCli, testCheckpointsDir, testConfigDir, testSigningKey } from './cli-runner';
import { CliFixture, readLogJson } from './fixtures';

// An edit of a file that exists: `logbook acp` writes those through its client (new files it writes itself).
const EDIT = {
  id: 'call_edit',
  name: 'file_editor',
  arguments: {
    command: 'str_replace',
    path: 'hello.txt',
    old_str: 'hello',
    new_str: 'hello from the agent',
    security_risk: 'LOW',
    summary: 'edit hello.txt',
  },
};

/** A workspace with the file the agent edits. */
export function workspaceWithHello(fx: CliFixture): string {
  const ws = realpathSync(fx.tmp());
  writeFileSync(join(ws, 'hello.txt'), 'hello\n');
  return ws;
}

export const GREETING: Scenario = {
  name: 'acp-external-greeting',
  turns: [
    {
      match: { lastRole: 'user', lastContentIncludes: 'greeting' },
      reply: {
        reasoning: 'A file is the simplest greeting.',
        content: 'I will create the file. ',
        toolCalls: [EDIT],
      },
    },
    { match: { lastRole: 'tool' }, reply: { content: 'Edited hello.txt.' } },
  ],
};

const SETTINGS_EDIT: Scenario = {
  name: 'acp-external-settings',
  turns: [
    {
      match: { lastRole: 'user', lastContentIncludes: 'greeting' },
      reply: {
        content: 'I will add a test script. ',
        toolCalls: [
          {
            id: 'call_settings',
            name: 'file_editor',
            arguments: {
              command: 'str_replace',
              path: 'package.json',
              old_str: '"scripts": {}',
              new_str: '"scripts": { "test": "node t.js" }',
              security_risk: 'LOW',
              summary: 'add a test script',
            },
          },
        ],
      },
    },
    { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
  ],
};

/** The inner agent: `logbook acp` on the scripted model, asking nothing itself (the outer asks). */
export async function innerAgentEnv(
  fx: CliFixture,
  scenario: Scenario,
  innerConfirmation: 'never' | 'always' = 'never',
): Promise<Record<string, string>> {
  const llm = await fx.startLlm(scenario);
  const cli = await cliBundle();
  const names = [
    'OPENAI_BASE_URL',
    'OPENAI_API_KEY',
    'LOGBOOK_MODEL',
    'LOGBOOK_SIGNING_KEY',
    'XDG_CONFIG_HOME',
    'LOGBOOK_CHECKPOINTS_DIR',
  ];
  const agents = {
    inner: {
      command: process.execPath,
      args: [cli, 'acp', '--confirmation-mode', innerConfirmation, '--sandbox', 'off'],
      env: names,
    },
  };
  return {
    ...llm,
    LOGBOOK_SIGNING_KEY: testSigningKey(),
    XDG_CONFIG_HOME: testConfigDir(),
    LOGBOOK_CHECKPOINTS_DIR: testCheckpointsDir(),
    LOGBOOK_ACP_AGENTS: JSON.stringify(agents),
  };
}

/** The outer conversation: the one whose session.json names the agent. */
export function outerDir(ws: string): string {
  const root = join(ws, '.logbook', 'conversations');
  const found = readdirSync(root).filter(
    (d) =>
      (JSON.parse(readFileSync(join(root, d, 'session.json'), 'utf8')) as { model: string }).model ===
      'acp:inner',
  );
  assert.equal(found.length, 1, `one conversation runs the agent in ${root}`);
  return join(root, found[0]!);
}

describe('logbook run --agent (an external ACP agent: logbook acp itself)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('a prompt: the agent text and thought recorded, its write a file_editor action, the log verifies', async () => {
    const env = await innerAgentEnv(fx, GREETING);
    const ws = workspaceWithHello(fx);
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'write a greeting', '--agent', 'inner', '--sandbox', 'off'],
      {
        env,
        timeoutMs: 60_000,
      },
    );
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello from the agent\n');
    // The run prints the agent's own tool calls as they are recorded.
    assert.match(r.stdout, /^\[agent tool\] /m);
    const dir = outerDir(ws);
    const events = (await readLogJson(dir)).map(
      (s) => s as { kind?: string; source?: string; [k: string]: unknown },
    );
    const actions = events.filter((e) => e.kind === 'ActionEvent').map((e) => JSON.stringify(e));
    // The agent read the file, then wrote it: both through the file tool.
    assert.equal(actions.length, 2, JSON.stringify(events.map((e) => e.kind)));
    assert.ok(actions.every((a) => a.includes('"tool_name":"file_editor"')));
    assert.match(actions[0]!, /"command":"view"/);
    assert.match(actions[1]!, /"command":"str_replace"/);
    const replies = JSON.stringify(events.filter((e) => e.kind === 'MessageEvent' && e.source === 'agent'));
    assert.match(replies, /Edited hello\.txt\./);
    assert.ok(
      events.some(
        (e) => e.kind === 'ConversationStateUpdateEvent' && JSON.stringify(e).includes('acp_tool_call'),
      ),
      'the agent own tool calls are kept as ACP payloads',
    );
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
    const show = await runCli(['show', dir]);
    assert.equal(show.code, 0, printed(show));
    assert.match(show.stdout, /status\s+finished/);
  });

  it('a write the policy holds lands only after approve, with a checkpoint before it', async () => {
    // The agent adds a package script, which runs later: the default policy holds the write.
    const env = await innerAgentEnv(fx, SETTINGS_EDIT);
    const ws = realpathSync(fx.tmp());
    const held = join(ws, 'package.json');
    writeFileSync(held, '{ "scripts": {} }\n');
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'write a greeting', '--agent', 'inner', '--sandbox', 'off'],
      { env, timeoutMs: 60_000 },
    );
    assert.equal(r.code, 2, printed(r));
    assert.equal(readFileSync(held, 'utf8'), '{ "scripts": {} }\n', 'nothing written before the answer');
    const dir = outerDir(ws);
    const served = fx.llm!.requests.length;
    const approve = await runCli(['approve', dir], { env, timeoutMs: 60_000 });
    // The agent stopped with run: approve carries the write out and asks no other model to go on.
    assert.match(
      approve.stdout + approve.stderr,
      /The agent "inner" stopped when logbook run ended/,
      printed(approve),
    );
    assert.equal(fx.llm!.requests.length, served, 'no model was asked after approve');
    assert.equal(readFileSync(held, 'utf8'), '{ "scripts": { "test": "node t.js" } }\n', printed(approve));
    // A checkpoint is recorded after the write was asked and before its result.
    const events = (await readLogJson(dir)) as { kind?: string; key?: string }[];
    const action = events.findIndex(
      (e) => e.kind === 'ActionEvent' && JSON.stringify(e).includes('str_replace'),
    );
    const result = events.findIndex((e, i) => i > action && e.kind === 'ObservationEvent');
    const checkpoint = events.findIndex((e, i) => i > action && e.key === 'checkpoint');
    assert.ok(
      action >= 0 && checkpoint > action && checkpoint < result,
      JSON.stringify(events.map((e) => e.kind + ':' + (e.key ?? ''))),
    );
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
  });

  it('the agent asks permission for its edit: the gate holds it, the user rejects, nothing is written', async () => {
    // The inner logbook asks before each action; the request reaches Logbook's gate as an action.
    const env = await innerAgentEnv(fx, GREETING, 'always');
    const ws = workspaceWithHello(fx);
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'write a greeting', '--agent', 'inner', '--sandbox', 'off'],
      { env, timeoutMs: 60_000 },
    );
    assert.equal(r.code, 2, printed(r));
    const dir = outerDir(ws);
    const held = JSON.stringify(await readLogJson(dir));
    assert.ok(held.includes('"tool_name":"agent_permission"'), printed(r));
    const reject = await runCli(['reject', dir, '--reason', 'not now'], { env, timeoutMs: 60_000 });
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello\n', printed(reject));
    assert.match(
      JSON.stringify(await readLogJson(dir)),
      /UserRejectObservation[^]*not now|not now[^]*UserRejectObservation/,
    );
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
  });

  it('an unknown agent name is a usage error naming the ones there are; nothing starts', async () => {
    const env = await innerAgentEnv(fx, GREETING);
    const ws = realpathSync(fx.tmp());
    const r = await runCli(['run', '--workspace', ws, '--task', 'x', '--agent', 'nope'], { env });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /no agent "nope" in acp\.agents \(there are: inner\)/);
    assert.ok(!existsSync(join(ws, '.logbook')));
  });

  it('an agent that speaks no JSON-RPC: a clear error event, the log keeps the task and verifies', async () => {
    const env = await innerAgentEnv(fx, GREETING);
    const ws = realpathSync(fx.tmp());
    const script = join(ws, 'garbage-agent.js');
    writeFileSync(
      script,
      'process.stdout.write(\'this is not json\\n{"jsonrpc":"2.0"\\n\'); setTimeout(() => process.exit(3), 300);\n',
    );
    const agents = { inner: { command: process.execPath, args: [script] } };
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'write a greeting', '--agent', 'inner', '--sandbox', 'off'],
      {
        env: { ...env, LOGBOOK_ACP_AGENTS: JSON.stringify(agents) },
        timeoutMs: 60_000,
      },
    );
    assert.notEqual(r.code, 0, printed(r));
    const dir = outerDir(ws);
    const events = await readLogJson(dir);
    const text = JSON.stringify(events);
    assert.match(text, /write a greeting/);
    assert.match(text, /The agent \\"inner\\"/);
    const verify = await runCli(['verify', dir]);
    assert.equal(verify.code, 0, printed(verify));
  });
});
