// Plan mode on a conversation that runs on the real agent-server: the server is told to hold every
// action, and Logbook rejects what would write or run (the reason reaches the model) while reads
// pass, whatever the user's confirmation mode. A scripted model tries to write; nothing is written
// in the server's working folder.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';

const terminal = (id: string, command: string) => ({
  id,
  name: 'terminal',
  arguments: { command, security_risk: 'LOW', summary: id },
});
const finish = (id: string) => ({ id, name: 'finish', arguments: { message: `done: ${id}` } });

/** Tries a command that writes, then a file edit, then a read, then finishes. */
function writeInPlan(remoteDir: string): Scenario {
  return {
    name: 'remote-plan-write',
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: { toolCalls: [terminal('call_write', 'echo planned > out.txt')] },
      },
      {
        match: { lastRole: 'tool', toolResultIncludes: 'Refused by Logbook' },
        reply: {
          toolCalls: [
            {
              id: 'call_create',
              name: 'file_editor',
              arguments: {
                command: 'create',
                path: join(remoteDir, 'new.txt'),
                file_text: 'created\n',
                security_risk: 'LOW',
                summary: 'create new.txt',
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool', toolResultIncludes: 'plan mode' },
        reply: { toolCalls: [terminal('call_read', 'cat in.txt')] },
      },
      {
        match: { lastRole: 'tool', toolResultIncludes: 'from-the-server' },
        reply: { toolCalls: [finish('plan')] },
      },
    ],
  };
}

describe('remote plan mode (logbook run --remote --mode plan, the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm | undefined;
  let root: string;
  let local: string;
  let remoteDir: string;

  before(async () => {
    server = await startAgentServer();
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    root = testRoot('remote-plan');
    local = join(root, 'local');
    remoteDir = join(root, 'remote');
    mkdirSync(local);
    mkdirSync(remoteDir);
    writeFileSync(join(remoteDir, 'in.txt'), 'from-the-server\n');
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function env(scenario: Scenario): Promise<Record<string, string>> {
    llm = await startScriptedLlm({ scenario });
    return {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: server.key,
    };
  }

  function conversationDir(): string {
    const dirs = readdirSync(join(local, '.logbook', 'conversations'));
    assert.equal(dirs.length, 1, `one conversation: ${dirs.join(', ')}`);
    return join(local, '.logbook', 'conversations', dirs[0]!);
  }

  async function policy(dir: string): Promise<string> {
    const id = dir.split('/').pop()!;
    const res = await fetch(`${server.url}/api/conversations/${id}`, {
      headers: { 'X-Session-API-Key': server.key },
    });
    const info = (await res.json()) as { confirmation_policy?: { kind?: string } };
    return String(info.confirmation_policy?.kind);
  }

  /** The tool results the model was sent, in its last request. */
  function toolResults(): string {
    const bodies = llm!.completionBodies();
    const messages = (bodies[bodies.length - 1]?.messages ?? []) as { role: string; content: unknown }[];
    return messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.stringify(m.content))
      .join('\n');
  }

  it('with confirmation off, a write and a file edit are rejected with the reason the model reads; a read passes', async () => {
    const e = await env(writeInPlan(remoteDir));
    const r = await runCli(
      [
        'run',
        '--remote',
        server.url,
        '--remote-dir',
        remoteDir,
        '--mode',
        'plan',
        '--confirm',
        'never',
        'plan it',
      ],
      { env: e, cwd: local },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false, 'the command ran on the server');
    assert.equal(existsSync(join(remoteDir, 'new.txt')), false, 'the file was created on the server');
    assert.match(r.stderr, /plan mode: rejected terminal: `echo planned > out\.txt` is not read-only/);
    assert.match(r.stderr, /plan mode: rejected file_editor: file_editor create changes files/);
    assert.match(r.stderr, /plan mode: approved 1 action\(s\) that only read/);
    const told = toolResults();
    assert.match(told, /Refused by Logbook: the conversation is in plan mode/);
    assert.match(told, /from-the-server/);
    const dir = conversationDir();
    assert.equal(await policy(dir), 'AlwaysConfirm');
    assert.equal(JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')).mode, 'plan');
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it("a conversation stays in plan mode on its next task, and --mode act gives the server the user's policy back", async () => {
    const scenario: Scenario = {
      name: 'remote-plan-switch',
      turns: [
        { match: { hasTools: true, lastRole: 'user' }, reply: { toolCalls: [finish('first')] } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'second' },
          reply: { toolCalls: [terminal('call_second', 'echo second > out.txt')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'plan mode' },
          reply: { toolCalls: [finish('second')] },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'third' },
          reply: { toolCalls: [terminal('call_third', 'echo third > out.txt')] },
        },
        { match: { lastRole: 'tool' }, reply: { toolCalls: [finish('third')] } },
      ],
    };
    const e = await env(scenario);
    const first = await runCli(
      [
        'run',
        '--remote',
        server.url,
        '--remote-dir',
        remoteDir,
        '--mode',
        'plan',
        '--confirm',
        'never',
        'first',
      ],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const dir = conversationDir();
    const second = await runCli(
      ['run', '--remote', server.url, '--store', dir, '--confirm', 'never', 'second'],
      { env: e, cwd: local },
    );
    assert.equal(second.code, 0, second.stdout + second.stderr + server.output().slice(-3000));
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false, 'the second task wrote in plan mode');
    assert.match(second.stderr, /plan mode: rejected terminal/);
    const third = await runCli(
      ['run', '--remote', server.url, '--store', dir, '--mode', 'act', '--confirm', 'never', 'third'],
      { env: e, cwd: local },
    );
    assert.equal(third.code, 0, third.stdout + third.stderr + server.output().slice(-3000));
    assert.equal(readFileSync(join(remoteDir, 'out.txt'), 'utf8'), 'third\n');
    assert.equal(await policy(dir), 'NeverConfirm');
    assert.equal(JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')).mode, undefined);
  });

  it("in act mode the server holds every action and Logbook's rules decide: a write the model rates LOW waits, a read runs unasked", async () => {
    const scenario: Scenario = {
      name: 'remote-risky',
      turns: [
        {
          match: { hasTools: true, lastRole: 'user' },
          reply: { toolCalls: [terminal('call_read', 'cat in.txt')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'from-the-server' },
          reply: { toolCalls: [terminal('call_write', 'echo risky > out.txt')] },
        },
      ],
    };
    const e = await env(scenario);
    // The default mode (risky), without a terminal: what Logbook would ask about waits.
    const r = await runCli(['run', '--remote', server.url, '--remote-dir', remoteDir, 'write it'], {
      env: e,
      cwd: local,
    });
    assert.equal(r.code, 2, r.stdout + r.stderr + server.output().slice(-3000));
    assert.match(r.stderr, /approved 1 action\(s\) Logbook's rules let run unasked/);
    assert.match(r.stderr, /risk \(server\) UNKNOWN; risk \(Logbook\) MEDIUM: writes to out\.txt/);
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false, 'the write ran unasked');
    assert.equal(await policy(conversationDir()), 'AlwaysConfirm');
  });
});
