// `logbook run --runtime-api URL`: a runtime API of the test's own (test/support/
// runtime-api-stand-in.ts) starts the real agent-server on /start; the task runs there as with
// `--remote`, and no key reaches argv, the output or the conversation's folder.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { type RuntimeApiStandIn, startRuntimeApiStandIn } from '../support/runtime-api-stand-in';
import { runCli } from '../unit/cli/cli-runner';

const COMMAND_THEN_FINISH: Scenario = {
  name: 'runtime-command',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: {
              command: 'echo runtime-ok > out.txt',
              security_risk: 'LOW',
              summary: 'write out.txt',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Wrote out.txt.' } }] },
    },
  ],
};

describe('logbook run --runtime-api (a runtime API starting the real agent-server)', function () {
  this.timeout(180_000);
  let api: RuntimeApiStandIn | undefined;
  let llm: ScriptedLlm | undefined;
  let root: string;
  let local: string;
  let remoteDir: string;

  beforeEach(() => {
    root = testRoot('run-runtime');
    local = join(root, 'local');
    remoteDir = join(root, 'remote');
    mkdirSync(local);
    mkdirSync(remoteDir);
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
    await llm?.close();
    llm = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function env(key: string): Promise<Record<string, string>> {
    llm = await startScriptedLlm({ scenario: COMMAND_THEN_FINISH });
    return {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_RUNTIME_API_KEY: key,
    };
  }

  function conversations(): string[] {
    const base = join(local, '.logbook', 'conversations');
    return existsSync(base) ? readdirSync(base).map((d) => join(base, d)) : [];
  }

  function segments(dir: string): string {
    return readdirSync(join(dir, 'segments'))
      .map((f) => readFileSync(join(dir, 'segments', f), 'utf8'))
      .join('');
  }

  it('starts a server for a new session, runs the task there end to end, and leaves the runtime running', async () => {
    api = await startRuntimeApiStandIn();
    const e = await env(api.key);
    const args = ['run', '--runtime-api', api.url, '--image', 'example/agent-server:test'];
    const r = await runCli([...args, '--remote-dir', remoteDir, '--confirm', 'never', 'write out.txt'], {
      env: e,
      cwd: local,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(remoteDir, 'out.txt'), 'utf8'), 'runtime-ok\n');
    // The SDK's start request, the runtime API's key in X-API-Key on every request.
    const start = api.requests.find((q) => q.method === 'POST' && q.path === '/start');
    assert.ok(start, JSON.stringify(api.requests));
    const b = start.body as Record<string, unknown>;
    assert.equal(b.image, 'example/agent-server:test');
    assert.match(String(b.session_id), /^logbook-[0-9a-f-]{36}$/);
    assert.match(String(b.command), /-m openhands\.agent_server --port 60000$/);
    assert.ok(api.requests.every((q) => q.apiKey === api!.key));
    assert.ok(api.requests.some((q) => q.method === 'GET' && q.path === `/sessions/${String(b.session_id)}`));
    assert.ok(!api.requests.some((q) => q.path === '/pause'), 'paused without being asked');
    const server = api.servers.get(String(b.session_id))!;
    // The folder records the runtime API and session, the server's URL, and no key.
    const [dir, ...others] = conversations();
    assert.ok(dir && others.length === 0);
    const origin = JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(origin.runtime, {
      api_url: api.url,
      session_id: b.session_id,
      runtime_id: `rt-${String(b.session_id)}`,
    });
    assert.equal(origin.server, server.url);
    // Neither key is printed, recorded beside the log or in it.
    for (const secret of [api.key, server.key]) {
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'a key was printed');
      assert.ok(!readFileSync(join(dir, 'remote.json'), 'utf8').includes(secret), 'a key in remote.json');
      assert.ok(!segments(dir).includes(secret), 'a key in the log');
    }
    assert.match(r.stderr, new RegExp(`keeps running on ${api.url}; pause it with POST ${api.url}/pause`));
    const show = await runCli(['show', dir, '--json'], { env: e });
    assert.equal(show.code, 0, show.stderr);
    assert.equal((JSON.parse(show.stdout) as { status: string }).status, 'finished');
    assert.match(segments(dir), new RegExp(`"received_from":\\{"server":"${server.url}"`));
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('--pause-runtime pauses the runtime once the run ends', async () => {
    api = await startRuntimeApiStandIn();
    const e = await env(api.key);
    const r = await runCli(
      [
        'run',
        '--runtime-api',
        api.url,
        '--pause-runtime',
        '--remote-dir',
        remoteDir,
        '--confirm',
        'never',
        'write',
      ],
      { env: e, cwd: local },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const session = String((api.requests[0]!.body as Record<string, unknown>).session_id);
    assert.deepEqual(
      api.requests.filter((q) => q.path === '/pause').map((q) => q.body),
      [{ runtime_id: `rt-${session}` }],
    );
    assert.match(r.stderr, /runtime rt-logbook-\S+ paused on/);
  });

  it('a wrong runtime API key is refused clearly; nothing starts and the key is not printed', async () => {
    api = await startRuntimeApiStandIn();
    const e = await env('not-the-key');
    const r = await runCli(['run', '--runtime-api', api.url, '--remote-dir', remoteDir, 'write out.txt'], {
      env: e,
      cwd: local,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /logbook run --runtime-api: the runtime API at http:\S+ refused the key \(HTTP 401\): check LOGBOOK_RUNTIME_API_KEY/,
    );
    assert.ok(!r.stderr.includes('not-the-key'));
    assert.equal(api.servers.size, 0);
    assert.deepEqual(conversations(), []);
  });

  it('a runtime that never becomes ready times out clearly, and no conversation is started', async () => {
    api = await startRuntimeApiStandIn({ ready: 'never' });
    const e = await env(api.key);
    const t0 = Date.now();
    const r = await runCli(
      ['run', '--runtime-api', api.url, '--runtime-timeout', '2', '--remote-dir', remoteDir, 'write out.txt'],
      { env: e, cwd: local },
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(Date.now() - t0 < 30_000, 'the wait was not bounded');
    assert.match(r.stderr, /was not ready after 2 s \(last status: pending\)/);
    assert.match(r.stderr, /keeps running on http:\S+; pause it with POST/);
    assert.deepEqual(conversations(), []);
  });

  it('without LOGBOOK_RUNTIME_API_KEY it says what to set, and asks nothing of the API', async () => {
    api = await startRuntimeApiStandIn();
    const e = await env(api.key);
    delete e.LOGBOOK_RUNTIME_API_KEY;
    const r = await runCli(['run', '--runtime-api', api.url, 'write out.txt'], { env: e, cwd: local });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /set LOGBOOK_RUNTIME_API_KEY to the runtime API's key/);
    assert.deepEqual(api.requests, []);
  });

  it('a later run --store asks the runtime API again for the server and its key, resuming the paused runtime', async () => {
    api = await startRuntimeApiStandIn();
    llm = await startScriptedLlm({
      scenario: {
        name: 'runtime-continue',
        turns: [
          { match: { lastRole: 'user', lastContentIncludes: 'first' }, reply: { content: 'Nothing to do.' } },
          {
            match: { lastRole: 'user', lastContentIncludes: 'second' },
            reply: {
              toolCalls: [
                {
                  id: 'call_second',
                  name: 'terminal',
                  arguments: { command: 'echo second > two.txt', security_risk: 'LOW', summary: 'write' },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool' },
            reply: { toolCalls: [{ id: 'call_done', name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      },
    });
    const e: Record<string, string> = {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_RUNTIME_API_KEY: api.key,
    };
    const args = ['run', '--runtime-api', api.url, '--confirm', 'never'];
    const first = await runCli([...args, '--pause-runtime', '--remote-dir', remoteDir, 'first'], {
      env: e,
      cwd: local,
    });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const [dir] = conversations();
    const session = String((api.requests[0]!.body as Record<string, unknown>).session_id);
    const server = api.servers.get(session)!;
    // Another runtime API's URL than the one that started it: refused, nothing asked.
    const before = api.requests.length;
    const other = await runCli(['run', '--runtime-api', 'http://127.0.0.1:9', '--store', dir!, 'second'], {
      env: e,
      cwd: local,
    });
    assert.equal(other.code, 1, other.stdout + other.stderr);
    assert.match(
      other.stderr,
      new RegExp(`was started by the runtime API at ${api.url}, not http://127\.0\.0\.1:9`),
    );
    // No LOGBOOK_REMOTE_KEY: the runtime API gives the server's key again.
    const r = await runCli([...args, '--store', dir!, 'second'], { env: e, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(remoteDir, 'two.txt'), 'utf8'), 'second\n');
    const asked = api.requests.slice(before).map((q) => `${q.method} ${q.path}`);
    assert.deepEqual(asked.slice(0, 2), [`GET /sessions/${session}`, 'POST /resume'], asked.join(', '));
    assert.ok(
      api.requests.some(
        (q) => q.path === '/resume' && (q.body as { runtime_id?: string }).runtime_id === `rt-${session}`,
      ),
    );
    assert.match(r.stderr, /is paused; resuming it on/);
    for (const secret of [api.key, server.key]) {
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'a key was printed');
      assert.ok(!readFileSync(join(dir!, 'remote.json'), 'utf8').includes(secret), 'a key in remote.json');
      assert.ok(!segments(dir!).includes(secret), 'a key in the log');
    }
    const verify = await runCli(['verify', dir!], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });
});
