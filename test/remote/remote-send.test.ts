// `logbook run --remote URL --store DIR "next task"` against the real OpenHands agent-server: the
// task goes to the server as the conversation's next user message, and its run streams into the
// same local signed log after the last event it holds.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { until } from '../support/poll';
import { runCli } from '../unit/cli/cli-runner';
import { runInTerminal, terminalAvailable } from '../unit/cli/terminal-runner';

const FIRST = 'first task: say hello';
const SECOND = 'second task: write two.txt';

/** Two tasks, each matched by its own text: the second turn answers only the second task. */
function twoTasks(hold?: string): Scenario {
  return {
    name: 'remote-send',
    turns: [
      {
        match: { lastRole: 'user', lastContentIncludes: FIRST },
        reply: {
          ...(hold ? { holdUntilReleased: hold } : {}),
          toolCalls: [{ id: 'call_first', name: 'finish', arguments: { message: 'Hello done.' } }],
        },
      },
      {
        match: { lastRole: 'user', lastContentIncludes: SECOND },
        reply: {
          toolCalls: [
            {
              id: 'call_two',
              name: 'terminal',
              arguments: { command: 'echo two > two.txt', security_risk: 'LOW', summary: 'write two.txt' },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Two written.' } }] },
      },
    ],
  };
}

interface Logged {
  id: string;
  kind: string;
  source?: string;
  parent_id?: string | null;
  received_from?: { server: string };
}

describe('logbook run --remote --store with a new task (the real agent-server)', function () {
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
    root = testRoot('remote-send');
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

  async function env(scenario: Scenario): Promise<Record<string, string>> {
    llm = await startScriptedLlm({ scenario });
    return {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: server.key,
    };
  }

  async function serverEvents(id: string): Promise<{ id: string }[]> {
    const res = await fetch(`${server.url}/api/conversations/${id}/events/search?limit=100`, {
      headers: { 'X-Session-API-Key': server.key },
    });
    return ((await res.json()) as { items: { id: string }[] }).items;
  }

  function loggedEvents(dir: string): Logged[] {
    return readdirSync(join(dir, 'segments'))
      .sort()
      .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as Logged);
  }

  function conversationDir(): string {
    const dirs = existsSync(join(local, '.logbook', 'conversations'))
      ? readdirSync(join(local, '.logbook', 'conversations'))
      : [];
    assert.equal(dirs.length, 1, `one conversation: ${dirs.join(', ')}`);
    return join(local, '.logbook', 'conversations', dirs[0]!);
  }

  function firstRun(e: Record<string, string>): ReturnType<typeof runCli> {
    return runCli(['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'never', FIRST], {
      env: e,
      cwd: local,
    });
  }

  it('a finished conversation takes a second task: the model reads it, the log holds both turns once, show and verify pass', async () => {
    const e = await env(twoTasks());
    const first = await firstRun(e);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const dir = conversationDir();
    const before = loggedEvents(dir);

    const r = await runCli(['run', '--remote', server.url, '--store', dir, SECOND], { env: e, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    assert.match(r.stderr, /sending the task \(the conversation was finished\)/);
    assert.match(r.stdout, /result finish: Two written\./);
    assert.equal(readFileSync(join(remoteDir, 'two.txt'), 'utf8'), 'two\n');
    // The model's request for the second task carried it as the last user message.
    const bodies = llm!.completionBodies();
    const asked = bodies.find((b) => JSON.stringify(b).includes(SECOND));
    assert.ok(asked, 'no model request carried the second task');
    assert.equal(llm!.remainingTurns(), 0);

    const logged = loggedEvents(dir);
    // What the first run wrote is kept as it was, and the second run goes on after it.
    assert.deepEqual(
      logged.slice(0, before.length).map((l) => l.id),
      before.map((l) => l.id),
    );
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    const ids = (await serverEvents(basename(dir))).map((ev) => ev.id);
    assert.deepEqual(
      ids.filter((id) => !logged.some((l) => l.id === id)),
      [],
      'server events missing from the local log',
    );
    const userMessages = logged.filter((l) => l.kind === 'MessageEvent' && l.source === 'user');
    assert.equal(userMessages.length, 2, JSON.stringify(userMessages));
    assert.ok(JSON.stringify(userMessages[1]).includes(SECOND));
    logged.forEach((l, i) => {
      assert.equal(l.parent_id ?? null, i === 0 ? null : logged[i - 1]!.id, `${l.kind} ${l.id} off the line`);
      assert.equal(l.received_from?.server, server.url, `${l.kind} ${l.id} not marked`);
    });

    const show = await runCli(['show', dir, '--json'], { env: e });
    assert.equal(show.code, 0, show.stderr);
    assert.equal((JSON.parse(show.stdout) as { status: string }).status, 'finished');
    const text = await runCli(['show', dir], { env: e });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`events\\s+${logged.length},`), text.stdout);
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('a held action of the second task exits 2 without a terminal, with both ratings', async () => {
    const e = await env(twoTasks());
    const first = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'risky', FIRST],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const dir = conversationDir();
    // The policy is the server's, set at the start: the second task's command is held now.
    const set = await fetch(`${server.url}/api/conversations/${basename(dir)}/confirmation_policy`, {
      method: 'POST',
      headers: { 'X-Session-API-Key': server.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ policy: { kind: 'AlwaysConfirm' } }),
    });
    assert.equal(set.status, 200, await set.text());
    const r = await runCli(['run', '--remote', server.url, '--store', dir, SECOND], { env: e, cwd: local });
    assert.equal(r.code, 2, r.stdout + r.stderr + server.output().slice(-3000));
    assert.match(r.stderr, /risk \(server\) UNKNOWN; risk \(Logbook\) MEDIUM: writes to two\.txt/);
    assert.equal(existsSync(join(remoteDir, 'two.txt')), false);
    // Waiting for an answer, it takes no third task: the answer comes first.
    const third = await runCli(['run', '--remote', server.url, '--store', dir, 'a third task'], {
      env: e,
      cwd: local,
    });
    assert.equal(third.code, 1, third.stdout + third.stderr);
    assert.match(
      third.stderr,
      /waits there for an answer to a held action; answer it first \(logbook approve/,
    );
  });

  it("at a terminal the second task's held action is asked about in place, with both ratings", async function () {
    if (!terminalAvailable()) this.skip();
    const e = await env(twoTasks());
    const first = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'risky', FIRST],
      { env: e, cwd: local },
    );
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const dir = conversationDir();
    const set = await fetch(`${server.url}/api/conversations/${basename(dir)}/confirmation_policy`, {
      method: 'POST',
      headers: { 'X-Session-API-Key': server.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ policy: { kind: 'AlwaysConfirm' } }),
    });
    assert.equal(set.status, 200, await set.text());
    const r = await runInTerminal(['run', '--remote', server.url, '--store', dir, SECOND], {
      env: e,
      cwd: local,
      answers: [{ after: /Approve\?/, text: 'y' }],
    });
    assert.equal(r.code, 0, r.screen + server.output().slice(-3000));
    assert.match(r.screen, /risk \(server\) UNKNOWN; risk \(Logbook\) MEDIUM: writes to two\.txt/);
    assert.equal(readFileSync(join(remoteDir, 'two.txt'), 'utf8'), 'two\n');
    const logged = loggedEvents(dir);
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    const verify = await runCli(['verify', dir], { env: e });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('is refused while the conversation runs on the server, and from another server', async () => {
    const e = await env(twoTasks('first'));
    const first = firstRun(e);
    await until(() => llm!.completionBodies().length > 0, 'the first model call');
    const dir = conversationDir();
    const busy = await runCli(['run', '--remote', server.url, '--store', dir, SECOND], {
      env: e,
      cwd: local,
    });
    llm!.release('first');
    assert.equal((await first).code, 0);
    assert.equal(busy.code, 1, busy.stdout + busy.stderr);
    assert.match(busy.stderr, /takes no new task now: it is running there/);
    // Nothing was sent: the log and the server hold one user message.
    assert.equal(loggedEvents(dir).filter((l) => l.kind === 'MessageEvent' && l.source === 'user').length, 1);
    const other = await runCli(['run', '--remote', 'http://127.0.0.1:9', '--store', dir, SECOND], {
      env: e,
      cwd: local,
    });
    assert.notEqual(other.code, 0);
    assert.match(other.stderr, /runs on http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9/);
  });
});
