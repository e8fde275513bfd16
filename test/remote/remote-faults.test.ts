// `logbook run --remote` when things go wrong between Logbook and the real agent-server: a
// rejection with a reason, a WebSocket that drops in the middle of a stream, a server that
// disappears. Run with `npm run test:remote`.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { basename, join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { until } from '../support/poll';
import { runCli } from '../unit/cli/cli-runner';
import { runInTerminal, terminalAvailable } from '../unit/cli/terminal-runner';

/** A command, then (after the model's held second call) the finish. */
function scenario(hold?: string): Scenario {
  return {
    name: 'remote-faults',
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          content: 'Listing first.',
          toolCalls: [
            {
              id: 'call_ls',
              name: 'terminal',
              arguments: { command: 'echo listed', security_risk: 'LOW', summary: 'list' },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: {
          ...(hold ? { holdUntilReleased: hold } : {}),
          toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }],
        },
      },
    ],
  };
}

/** A TCP relay in front of the server whose connections the test can cut. */
async function relay(target: string): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(port), hostname);
    open.add(inbound);
    open.add(outbound);
    inbound.pipe(outbound).pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port: relayPort } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${relayPort}`,
    cut: () => {
      for (const s of open) s.destroy();
      open.clear();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function logged(dir: string): { id: string; kind: string; [k: string]: unknown }[] {
  return readdirSync(join(dir, 'segments'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as { id: string; kind: string });
}

describe('logbook run --remote when things go wrong (the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm | undefined;
  let root: string;
  let local: string;
  let remoteDir: string;

  beforeEach(async () => {
    server = await startAgentServer();
    root = testRoot('remote-faults');
    local = join(root, 'local');
    remoteDir = join(root, 'remote');
    mkdirSync(local);
    mkdirSync(remoteDir);
  });
  afterEach(async () => {
    llm?.release('second');
    await llm?.close();
    llm = undefined;
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  async function env(s: Scenario): Promise<Record<string, string>> {
    llm = await startScriptedLlm({ scenario: s });
    return {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: server.key,
    };
  }

  function conversationDir(): string {
    const dirs = readdirSync(join(local, '.logbook', 'conversations'));
    assert.equal(dirs.length, 1);
    return join(local, '.logbook', 'conversations', dirs[0]!);
  }

  async function serverEventIds(id: string): Promise<string[]> {
    const res = await fetch(`${server.url}/api/conversations/${id}/events/search?limit=100`, {
      headers: { 'X-Session-API-Key': server.key },
    });
    return ((await res.json()) as { items: { id: string }[] }).items.map((e) => e.id);
  }

  it('a rejection with a reason reaches the server, the model reads it, and the agent goes on', async function () {
    if (!terminalAvailable()) this.skip();
    const e = await env(scenario());
    const r = await runInTerminal(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'list'],
      { env: e, cwd: local, answers: [{ after: /Approve\?/, text: 'not now, just finish' }] },
    );
    assert.equal(r.code, 0, r.screen);
    const events = logged(conversationDir());
    const reject = events.find((ev) => ev.kind === 'UserRejectObservation');
    assert.equal(reject?.rejection_reason, 'not now, just finish');
    assert.equal(
      events.filter((ev) => ev.kind === 'ObservationEvent' && ev.tool_name === 'terminal').length,
      0,
    );
    // The model's second request carried the reason as the command's result.
    const second = JSON.stringify(llm!.completionBodies()[1]?.messages);
    assert.match(second, /not now, just finish/);
  });

  it('a WebSocket dropped in the middle of the stream resumes: nothing lost, nothing doubled', async () => {
    const front = await relay(server.url);
    try {
      const e = await env(scenario('second'));
      const run = runCli(
        ['run', '--remote', front.url, '--remote-dir', remoteDir, '--confirm', 'never', 'list'],
        {
          env: e,
          cwd: local,
        },
      );
      // The model holds its second answer: the stream is mid-conversation.
      await until(() => (llm?.completionBodies().length ?? 0) >= 2, 'the second model call', 60_000);
      front.cut();
      await new Promise((r) => setTimeout(r, 300));
      llm!.release('second');
      const r = await run;
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /the event stream dropped .*resumed after the last event received/);
      const dir = conversationDir();
      const ids = logged(dir).map((ev) => ev.id);
      assert.equal(new Set(ids).size, ids.length, 'an event written twice');
      const missing = (await serverEventIds(basename(dir))).filter((id) => !ids.includes(id));
      assert.deepEqual(missing, [], 'server events missing from the local log');
      const verify = await runCli(['verify', dir], { env: e });
      assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    } finally {
      await front.close();
    }
  });

  it('a server that disappears: a clear message, and every event received stays in the signed log', async () => {
    const e = await env(scenario('second'));
    const run = runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'never', 'list'],
      {
        env: e,
        cwd: local,
      },
    );
    await until(() => (llm?.completionBodies().length ?? 0) >= 2, 'the second model call', 60_000);
    const dir = conversationDir();
    await until(
      () => logged(dir).some((ev) => ev.kind === 'ObservationEvent'),
      'the command result in the log',
    );
    server.kill();
    const r = await run;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /the agent-server at http:\/\/127\.0\.0\.1:\d+ is gone/);
    assert.match(
      r.stderr,
      /event\(s\) received are in .*; the conversation's state on the server is unknown \(last known: running\)/,
    );
    const events = logged(dir);
    assert.ok(events.some((ev) => ev.kind === 'ObservationEvent'));
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });
});
