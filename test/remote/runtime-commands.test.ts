// approve, reject, diff, apply and fork of a conversation a runtime API started (test/support/
// runtime-api-stand-in.ts launches the real agent-server): with --runtime-api and
// LOGBOOK_RUNTIME_API_KEY, and no LOGBOOK_REMOTE_KEY, each asks the runtime API again for the
// server's URL and key (resuming a paused runtime), and no key reaches the output or the folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testRoot } from '../support/agent-server';
import { type ScriptedLlm, type Scenario, startScriptedLlm } from '../support/llm-server';
import { type RuntimeApiStandIn, startRuntimeApiStandIn } from '../support/runtime-api-stand-in';
import { runCli } from '../unit/cli/cli-runner';

/** A command that writes (held in `risky`), then, read the answer, the finish. */
const HELD_WRITE: Scenario = {
  name: 'runtime-held',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: { command: 'echo from-runtime > out.txt', security_risk: 'LOW', summary: 'write' },
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

function gitRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const g = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' });
  g('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  g('add', '.');
  g('commit', '-q', '-m', 'base');
}

describe('a runtime API conversation answered, reviewed, applied and forked without the server key', function () {
  this.timeout(180_000);
  let api: RuntimeApiStandIn | undefined;
  let llm: ScriptedLlm | undefined;
  let root: string;
  let local: string;
  let remoteDir: string;

  beforeEach(() => {
    root = testRoot('runtime-commands');
    local = join(root, 'local');
    remoteDir = join(root, 'remote');
    gitRepo(local);
    gitRepo(remoteDir);
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
    await llm?.close();
    llm = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  function conversations(): string[] {
    const base = join(local, '.logbook', 'conversations');
    return existsSync(base) ? readdirSync(base).map((d) => join(base, d)) : [];
  }

  function segments(dir: string): string {
    return readdirSync(join(dir, 'segments'))
      .map((f) => readFileSync(join(dir, 'segments', f), 'utf8'))
      .join('');
  }

  /** A task whose write waits for an answer, its runtime paused; the folder and the session. */
  async function heldOnPausedRuntime(): Promise<{ e: Record<string, string>; dir: string; session: string }> {
    api = await startRuntimeApiStandIn();
    llm = await startScriptedLlm({ scenario: HELD_WRITE });
    const e: Record<string, string> = {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      LOGBOOK_MODEL: 'scripted-model',
      LOGBOOK_RUNTIME_API_KEY: api.key,
    };
    const args = ['run', '--runtime-api', api.url, '--pause-runtime', '--remote-dir', remoteDir];
    const first = await runCli([...args, '--confirm', 'risky', '--no-input', 'write out.txt'], {
      env: e,
      cwd: local,
    });
    assert.equal(first.code, 2, first.stdout + first.stderr);
    assert.ok(!existsSync(join(remoteDir, 'out.txt')), 'ran before it was approved');
    const [dir] = conversations();
    const session = String((api.requests[0]!.body as Record<string, unknown>).session_id);
    return { e, dir: dir!, session };
  }

  function assertNoKey(dir: string, out: string): void {
    const server = [...api!.servers.values()][0]!;
    for (const secret of [api!.key, server.key]) {
      assert.ok(!out.includes(secret), 'a key was printed');
      assert.ok(!readFileSync(join(dir, 'remote.json'), 'utf8').includes(secret), 'a key in remote.json');
      assert.ok(!segments(dir).includes(secret), 'a key in the log');
    }
  }

  it('approve, diff, apply and fork with --runtime-api: the runtime API gives the key again each time', async () => {
    const { e, dir, session } = await heldOnPausedRuntime();
    // Neither key: it says what to set, naming the runtime API that started it.
    const bare = await runCli(['approve', dir, '--no-input'], {
      env: { ...e, LOGBOOK_RUNTIME_API_KEY: '' },
      cwd: local,
    });
    assert.equal(bare.code, 1, bare.stdout + bare.stderr);
    assert.match(bare.stderr, new RegExp(`LOGBOOK_RUNTIME_API_KEY and --runtime-api ${api!.url}`));

    const before = api!.requests.length;
    const approve = await runCli(['approve', dir, '--no-input', '--runtime-api', api!.url], {
      env: e,
      cwd: local,
    });
    assert.equal(approve.code, 0, approve.stdout + approve.stderr);
    assert.equal(readFileSync(join(remoteDir, 'out.txt'), 'utf8'), 'from-runtime\n');
    const asked = api!.requests.slice(before).map((q) => `${q.method} ${q.path}`);
    assert.deepEqual(asked.slice(0, 2), [`GET /sessions/${session}`, 'POST /resume'], asked.join(', '));
    assertNoKey(dir, approve.stdout + approve.stderr);

    const diff = await runCli(['diff', dir, '--stat', '--runtime-api', api!.url], { env: e, cwd: local });
    assert.equal(diff.code, 0, diff.stdout + diff.stderr);
    assert.match(diff.stdout, /1 file changed/);
    assert.match(diff.stdout, /out\.txt/);

    const apply = await runCli(['apply', dir, '--runtime-api', api!.url], { env: e, cwd: local });
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    assert.equal(readFileSync(join(local, 'out.txt'), 'utf8'), 'from-runtime\n');

    const fork = await runCli(['fork', dir, '--runtime-api', api!.url], { env: e, cwd: local });
    assert.equal(fork.code, 0, fork.stdout + fork.stderr);
    const forkDir = fork.stdout.trim();
    assert.ok(existsSync(join(forkDir, 'remote.json')), fork.stdout);
    for (const r of [diff, apply, fork]) assertNoKey(dir, r.stdout + r.stderr);
    for (const d of [dir, forkDir]) {
      const verify = await runCli(['verify', d], { env: e });
      assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    }
  });

  it('reject with --runtime-api: the reason reaches the model, another API is refused before any request', async () => {
    const { e, dir } = await heldOnPausedRuntime();
    const before = api!.requests.length;
    const other = await runCli(
      ['reject', dir, '--reason', 'not now', '--runtime-api', 'http://127.0.0.1:9'],
      {
        env: e,
        cwd: local,
      },
    );
    assert.equal(other.code, 1, other.stdout + other.stderr);
    assert.match(other.stderr, /was started by the runtime API at http:\S+, not http:\/\/127\.0\.0\.1:9/);
    assert.equal(api!.requests.length, before);
    const reject = await runCli(
      ['reject', dir, '--no-input', '--reason', 'not now', '--runtime-api', api!.url],
      {
        env: e,
        cwd: local,
      },
    );
    assert.equal(reject.code, 0, reject.stdout + reject.stderr);
    assert.ok(!existsSync(join(remoteDir, 'out.txt')), 'the rejected command ran');
    assert.match(JSON.stringify(llm!.completionBodies()[1]?.messages), /not now/);
    assertNoKey(dir, reject.stdout + reject.stderr);
  });
});
