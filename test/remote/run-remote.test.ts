// `logbook run --remote` against the real OpenHands agent-server (test/support/agent-server.ts),
// whose model calls go to the scripted OpenAI-compatible server. Run with `npm run test:remote`.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';
import { runInTerminal, terminalAvailable } from '../unit/cli/terminal-runner';

const COMMAND_THEN_FINISH: Scenario = {
  name: 'remote-command',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        content: 'I will write the file.',
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: {
              command: 'echo remote-ok > out.txt',
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

const SLOW_COMMAND_THEN_FINISH: Scenario = {
  name: 'remote-slow-command',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_slow',
            name: 'terminal',
            arguments: {
              command: 'sleep 2; echo one > one.txt',
              security_risk: 'LOW',
              summary: 'slow write',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: {
        toolCalls: [
          {
            id: 'call_two',
            name: 'terminal',
            arguments: { command: 'echo done > done.txt', security_risk: 'LOW', summary: 'second write' },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
    },
  ],
};

describe('logbook run --remote (the real agent-server)', function () {
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
    root = testRoot('run-remote');
    local = join(root, 'local');
    remoteDir = join(root, 'remote');
    mkdirSync(local);
    mkdirSync(remoteDir);
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function env(scenario: Scenario, key = server.key): Promise<Record<string, string>> {
    llm = await startScriptedLlm({ scenario });
    return {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: key,
    };
  }

  async function serverEvents(
    id: string,
  ): Promise<{ id: string; kind: string; parent_id?: string | null }[]> {
    const res = await fetch(`${server.url}/api/conversations/${id}/events/search?limit=100`, {
      headers: { 'X-Session-API-Key': server.key },
    });
    return ((await res.json()) as { items: { id: string; kind: string; parent_id?: string | null }[] }).items;
  }

  function loggedEvents(dir: string): {
    id: string;
    kind: string;
    parent_id?: string | null;
    received_from?: { server: string; parent_id?: string };
  }[] {
    return readdirSync(join(dir, 'segments'))
      .sort()
      .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as { id: string; kind: string });
  }

  function conversationDir(): string {
    const dirs = readdirSync(join(local, '.logbook', 'conversations'));
    assert.equal(dirs.length, 1, `one conversation: ${dirs.join(', ')}`);
    return join(local, '.logbook', 'conversations', dirs[0]!);
  }

  it('a command confirmed from Logbook runs on the server; every event is in the signed log, show and verify read it', async function () {
    if (!terminalAvailable()) this.skip();
    const e = await env(COMMAND_THEN_FINISH);
    const r = await runInTerminal(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'write out.txt'],
      { env: e, cwd: local, answers: [{ after: /Approve\?/, text: 'y' }] },
    );
    assert.equal(r.code, 0, r.screen + server.output().slice(-3000));
    assert.match(r.screen, /\$ echo remote-ok > out\.txt/);
    // The question shows the server's rating and Logbook's own, with its reason. The server's
    // agent rates nothing without a security analyzer of its own: its rating reads UNKNOWN.
    assert.match(r.screen, /risk \(server\) UNKNOWN; risk \(Logbook\) MEDIUM: writes to out\.txt/);
    assert.equal(readFileSync(join(remoteDir, 'out.txt'), 'utf8'), 'remote-ok\n');
    const dir = conversationDir();
    const show = await runCli(['show', dir, '--json'], { env: e });
    assert.equal(show.code, 0, show.stderr);
    assert.equal((JSON.parse(show.stdout) as { status: string }).status, 'finished');
    // Every event the server holds is in the local log, once.
    const held = await serverEvents(basename(dir));
    const ids = held.map((ev) => ev.id);
    const logged = loggedEvents(dir);
    assert.deepEqual(
      ids.filter((id) => !logged.some((l) => l.id === id)),
      [],
      'server events missing from the local log',
    );
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    for (const l of logged) assert.equal(l.received_from?.server, server.url, `${l.kind} ${l.id} not marked`);
    // One line in arrival order; the parent the server named is kept in received_from.
    const parents = new Map(held.map((ev) => [ev.id, ev.parent_id ?? null]));
    logged.forEach((l, i) => {
      assert.equal(l.parent_id ?? null, i === 0 ? null : logged[i - 1]!.id, `${l.kind} ${l.id} off the line`);
      if (parents.has(l.id)) assert.equal(l.received_from?.parent_id ?? null, parents.get(l.id));
    });
    assert.ok(
      logged.some((l) => l.received_from?.parent_id !== undefined),
      'no server parent kept',
    );
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('without a terminal a held action exits 2 and leaves the conversation waiting on the server', async () => {
    const e = await env(COMMAND_THEN_FINISH);
    const r = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'write out.txt'],
      { env: e, cwd: local },
    );
    assert.equal(r.code, 2, r.stdout + r.stderr);
    // Said once, and only once the held action has arrived (the status can come before it).
    assert.equal(r.stderr.match(/wait for confirmation on the server/g)?.length, 1, r.stderr);
    assert.match(r.stderr, /\b1 action\(s\) wait/);
    assert.match(r.stderr, /risk \(server\) UNKNOWN; risk \(Logbook\) MEDIUM: writes to out\.txt/);
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false);
  });

  it('after exit 2, logbook approve answers on the server and streams on to the end, nothing doubled', async () => {
    const e = await env(COMMAND_THEN_FINISH);
    const first = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'write out.txt'],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 2, first.stdout + first.stderr);
    const dir = conversationDir();
    const r = await runCli(['approve', dir], { env: e, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    assert.match(r.stderr, /approved on http/);
    assert.match(r.stdout, /result finish: Wrote out\.txt\./);
    assert.equal(readFileSync(join(remoteDir, 'out.txt'), 'utf8'), 'remote-ok\n');
    const ids = (await serverEvents(basename(dir))).map((ev) => ev.id);
    const logged = loggedEvents(dir);
    assert.deepEqual(
      ids.filter((id) => !logged.some((l) => l.id === id)),
      [],
      'server events missing from the local log',
    );
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    // Nothing waits any more: a second approve says so.
    const again = await runCli(['approve', dir], { env: e, cwd: local });
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /no action waiting for an answer/);
  });

  it('after exit 2, logbook reject --reason sends the reason the model reads; the agent goes on', async () => {
    const e = await env(COMMAND_THEN_FINISH);
    const first = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'write out.txt'],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 2, first.stdout + first.stderr);
    const dir = conversationDir();
    const r = await runCli(['reject', dir, '--reason', 'not in this folder'], { env: e, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    assert.match(r.stdout, /rejected: not in this folder/);
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false);
    assert.ok(
      llm!.requests.some((q) => JSON.stringify(q).includes('not in this folder')),
      'the model never read the reason',
    );
    const logged = loggedEvents(dir);
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    assert.ok(logged.some((l) => l.kind === 'UserRejectObservation'));
  });

  it('approve on a remote conversation without the key says which server and which variable', async () => {
    const e = await env(COMMAND_THEN_FINISH);
    const first = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'write out.txt'],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 2, first.stdout + first.stderr);
    delete e.LOGBOOK_REMOTE_KEY;
    const r = await runCli(['approve', conversationDir()], { env: e, cwd: local });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /runs on http:\/\/127\.0\.0\.1:\d+; set LOGBOOK_REMOTE_KEY/);
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false);
  });

  it('SIGTERM pauses the conversation on the server (exit 143); run --remote --store resumes it, nothing lost or doubled', async () => {
    const e = await env(SLOW_COMMAND_THEN_FINISH);
    const first = await runCli(
      [
        'run',
        '--remote',
        server.url,
        '--remote-dir',
        remoteDir,
        '--confirm',
        'never',
        'write out.txt slowly',
      ],
      {
        env: e,
        cwd: local,
        onSpawn: (child) => {
          let out = '';
          child.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            if (/action terminal/.test(out) && !child.killed) child.kill('SIGTERM');
          });
        },
      },
    );
    assert.equal(first.code, 143, first.stdout + first.stderr);
    assert.match(first.stderr, /paused on http/);
    const dir = conversationDir();
    assert.ok(first.stderr.includes(`--store ${dir}`), first.stderr);
    const paused = await serverEvents(basename(dir));
    assert.ok(
      paused.some((ev) => ev.kind === 'PauseEvent'),
      `the server recorded no pause: ${JSON.stringify(paused.map((p) => [p.kind, (p as Record<string, unknown>).key]))} ${first.stdout} ${first.stderr}`,
    );
    assert.ok(
      loggedEvents(dir).some((l) => l.kind === 'PauseEvent'),
      'the pause is not in the local log',
    );
    // Paused between steps (the server takes the pause when its loop lets it): not finished.
    assert.ok(
      !paused.some((ev) => (ev as Record<string, unknown>).tool_name === 'finish'),
      'the agent finished before the pause',
    );

    const r = await runCli(['run', '--remote', server.url, '--store', dir], { env: e, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    assert.match(r.stderr, /resumed on http/);
    assert.match(r.stdout, /result finish: Done\./);
    assert.equal(readFileSync(join(remoteDir, 'done.txt'), 'utf8'), 'done\n');
    const ids = (await serverEvents(basename(dir))).map((ev) => ev.id);
    const logged = loggedEvents(dir);
    assert.deepEqual(
      ids.filter((id) => !logged.some((l) => l.id === id)),
      [],
      'server events missing from the local log',
    );
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('run --remote --store refuses a local conversation folder and another server', async () => {
    const e = await env(COMMAND_THEN_FINISH);
    const notRemote = await runCli(['run', '--remote', server.url, '--store', local], { env: e, cwd: local });
    assert.notEqual(notRemote.code, 0);
    assert.match(notRemote.stderr, /holds no remote conversation|not a conversation/);
    const first = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'always', 'write out.txt'],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 2, first.stdout + first.stderr);
    const other = await runCli(['run', '--remote', 'http://127.0.0.1:9', '--store', conversationDir()], {
      env: e,
      cwd: local,
    });
    assert.notEqual(other.code, 0);
    assert.match(other.stderr, /runs on http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9/);
  });

  it('a wrong key is a clear error and writes nothing', async () => {
    const e = await env(COMMAND_THEN_FINISH, 'not-the-key');
    const r = await runCli(['run', '--remote', server.url, '--remote-dir', remoteDir, 'write out.txt'], {
      env: e,
      cwd: local,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /refused the session key \(HTTP 401\): check LOGBOOK_REMOTE_KEY/);
    assert.equal(existsSync(join(local, '.logbook')), false);
  });

  it('no key at all is a usage error naming LOGBOOK_REMOTE_KEY', async () => {
    const e = await env(COMMAND_THEN_FINISH);
    delete e.LOGBOOK_REMOTE_KEY;
    const r = await runCli(['run', '--remote', server.url, 'write out.txt'], { env: e, cwd: local });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /set LOGBOOK_REMOTE_KEY/);
  });
});
