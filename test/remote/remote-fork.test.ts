// `logbook fork` of a conversation that ran on the real agent-server: the server makes the copy,
// Logbook records it as a new folder with its own signed log; `fork --at` goes back to an earlier
// event and `run --remote --store` goes on from there. Run with `npm run test:remote`.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';

const write = (id: string, command: string) => ({
  match: { hasTools: true, lastRole: 'user' as const },
  reply: { toolCalls: [{ id, name: 'terminal', arguments: { command, security_risk: 'LOW', summary: id } }] },
});
const finish = (id: string, message: string) => ({
  match: { lastRole: 'tool' as const },
  reply: { toolCalls: [{ id, name: 'finish', arguments: { message } }] },
});

/** The run writes first.txt; the fork, run from the task on, writes fork.txt. */
const SCENARIO: Scenario = {
  name: 'remote-fork',
  turns: [
    write('call_first', 'echo first > first.txt'),
    finish('call_done', 'First done.'),
    write('call_fork', 'echo fork > fork.txt'),
    finish('call_fork_done', 'Fork done.'),
  ],
};

interface Logged {
  id: string;
  kind: string;
  source?: string;
  parent_id?: string | null;
  received_from?: { server: string; parent_id?: string };
}

function loggedEvents(dir: string): Logged[] {
  return readdirSync(join(dir, 'segments'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as Logged);
}

describe('logbook fork of a remote conversation (the real agent-server)', function () {
  this.timeout(180_000);
  let server: AgentServer;
  let llm: ScriptedLlm;
  let root: string;
  let local: string;
  let remoteDir: string;
  let source: string;
  let env: Record<string, string>;

  async function serverEvents(id: string): Promise<{ id: string; kind: string }[]> {
    const res = await fetch(`${server.url}/api/conversations/${id}/events/search?limit=100`, {
      headers: { 'X-Session-API-Key': server.key },
    });
    return ((await res.json()) as { items: { id: string; kind: string }[] }).items;
  }

  before(async () => {
    server = await startAgentServer();
    root = testRoot('remote-fork');
    local = join(root, 'local');
    remoteDir = join(root, 'remote');
    mkdirSync(local);
    mkdirSync(remoteDir);
    llm = await startScriptedLlm({ scenario: SCENARIO });
    env = {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_REMOTE_KEY: server.key,
    };
    const r = await runCli(
      ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'never', 'write first.txt'],
      { env, cwd: local },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    const dirs = readdirSync(join(local, '.logbook', 'conversations'));
    source = join(local, '.logbook', 'conversations', dirs[0]!);
  });
  after(async () => {
    await llm?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('fork makes a new remote conversation, recorded in its own folder with what the server copied', async () => {
    const before = loggedEvents(source).length;
    const r = await runCli(['fork', source], { env, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    const dir = r.stdout.trim();
    assert.equal(dirname(dir), dirname(source));
    assert.notEqual(basename(dir), basename(source));
    const origin = JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')) as Record<string, string>;
    // The same working folder: the fork's change is taken against its source's start.
    const { base_commit: base } = JSON.parse(readFileSync(join(source, 'remote.json'), 'utf8')) as Record<
      string,
      string
    >;
    assert.match(base ?? '', /^[0-9a-f]{40}$/);
    assert.deepEqual(origin, {
      server: server.url,
      conversation_id: basename(dir),
      working_dir: remoteDir,
      base_commit: base,
    });
    const held = (await serverEvents(basename(dir))).map((e) => e.id);
    const logged = loggedEvents(dir);
    assert.ok(held.length > 0);
    assert.deepEqual(
      logged.map((l) => l.id),
      held,
      'the fork log holds what the server copied, in its order',
    );
    for (const l of logged) assert.equal(l.received_from?.server, server.url);
    assert.match(r.stderr, /Run it on with: logbook run --remote http:\S+ --store /);
    const verify = await runCli(['verify', dir], { env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    // The source's log is untouched.
    assert.equal(loggedEvents(source).length, before);
  });

  it('fork --at the task goes back there; run --remote --store goes on from it in the fork', async () => {
    const task = loggedEvents(source).find((l) => l.kind === 'MessageEvent' && l.source === 'user');
    assert.ok(task, 'no task message in the log');
    const r = await runCli(['fork', source, '--at', task.id], { env, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
    const dir = r.stdout.trim();
    const copied = loggedEvents(dir);
    assert.equal(copied.at(-1)?.id, task.id, 'the fork does not end at the task');
    assert.ok(!copied.some((l) => l.kind === 'ActionEvent'), 'the fork kept an action after the task');

    const go = await runCli(['run', '--remote', server.url, '--store', dir], { env, cwd: local });
    assert.equal(go.code, 0, go.stdout + go.stderr + server.output().slice(-3000));
    assert.match(go.stdout, /result finish: Fork done\./);
    assert.equal(readFileSync(join(remoteDir, 'fork.txt'), 'utf8'), 'fork\n');
    const ids = (await serverEvents(basename(dir))).map((e) => e.id);
    const logged = loggedEvents(dir);
    assert.deepEqual(
      ids.filter((id) => !logged.some((l) => l.id === id)),
      [],
      'server events missing from the fork log',
    );
    assert.equal(new Set(logged.map((l) => l.id)).size, logged.length, 'an event written twice');
    const verify = await runCli(['verify', dir], { env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('fork --at an id the log does not hold, and fork of a local folder, are clear errors; restore points at fork', async () => {
    const unknown = await runCli(['fork', source, '--at', 'no-such-event'], { env, cwd: local });
    assert.equal(unknown.code, 1, unknown.stdout + unknown.stderr);
    assert.match(unknown.stderr, /no-such-event/);
    const plain = join(root, 'plain');
    mkdirSync(join(plain, 'segments'), { recursive: true });
    const notRemote = await runCli(['fork', plain], { env, cwd: local });
    assert.notEqual(notRemote.code, 0);
    assert.match(notRemote.stderr, /not a conversation that ran on an agent-server/);
    const restore = await runCli(['restore', source, '--at', '#1', '--yes'], { env, cwd: local });
    assert.notEqual(restore.code, 0);
    assert.match(restore.stderr, /keeps no file checkpoints.*logbook fork \S+ --at #1/);
    assert.equal(existsSync(join(remoteDir, 'first.txt')), true);
  });
});
