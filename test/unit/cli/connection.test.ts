// How the CLI finds its model: LOGBOOK_* names with OpenAI fallbacks, an immediate message when
// nothing is set, the built-in demo model, and resumes that go back to the endpoint the run used.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, SECRET_KEY, terminalCall } from './fixtures';

const SAMPLE = join(__dirname, '..', '..', 'fixtures', 'workspace');

function session(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as Record<string, unknown>;
}

describe('logbook run: which model it talks to', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('with neither a key nor an endpoint, says at once what to set and creates nothing', async () => {
    const ws = fx.tmp();
    const started = Date.now();
    const r = await runCli(['run', '--workspace', ws, '--task', 'hi']);
    assert.equal(r.code, 1, printed(r));
    assert.ok(Date.now() - started < 10_000, 'no retries against the default endpoint');
    assert.match(r.stderr, /LOGBOOK_API_KEY \(or OPENAI_API_KEY\) is not set/);
    assert.match(r.stderr, /LOGBOOK_BASE_URL=http:\/\/localhost:11434\/v1/);
    assert.match(r.stderr, /logbook run --demo/);
    assert.equal(existsSync(join(ws, '.logbook')), false, 'nothing was created');
  });

  it('LOGBOOK_BASE_URL, LOGBOOK_API_KEY and LOGBOOK_MODEL win over the OpenAI names', async () => {
    const env = await fx.startLlm({
      name: 'logbook-names',
      models: ['logbook-model'],
      turns: [{ match: { model: 'logbook-model' }, reply: { content: 'hello' } }],
    });
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'hi'], {
      env: {
        LOGBOOK_BASE_URL: env.OPENAI_BASE_URL!,
        LOGBOOK_API_KEY: SECRET_KEY,
        LOGBOOK_MODEL: 'logbook-model',
        // Dead: only the fallback names point here.
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_API_KEY: 'sk-other-fallback-key',
      },
    });
    assert.equal(r.code, 0, printed(r));
    assert.equal(fx.llm!.requests[0]!.headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.ok(!r.stdout.includes(SECRET_KEY) && !r.stderr.includes(SECRET_KEY));
  });

  it('approve and reject go back to the endpoint and model the run recorded, never a key', async () => {
    const env = await fx.startLlm({
      name: 'resume-endpoint',
      turns: [
        { reply: { toolCalls: [terminalCall('call_ls', 'ls')] } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'rejected' },
          reply: { content: 'ok, not listing' },
        },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const run = await runCli(
      ['run', '--workspace', ws, '--task', 'list', '--store', store, '--confirmation-mode', 'always'],
      {
        env: {
          LOGBOOK_BASE_URL: env.OPENAI_BASE_URL!,
          LOGBOOK_API_KEY: SECRET_KEY,
          LOGBOOK_MODEL: 'scripted-model',
        },
      },
    );
    assert.equal(run.code, 2, printed(run));
    const recorded = session(store);
    assert.equal(recorded.base_url, env.OPENAI_BASE_URL);
    assert.equal(recorded.model, 'scripted-model');
    assert.ok(!JSON.stringify(recorded).includes(SECRET_KEY));

    // No variable at all: the recorded endpoint and model, and not the run's key.
    const reject = await runCli(['reject', store, '--reason', 'not now']);
    assert.equal(reject.code, 0, printed(reject));
    assert.equal(fx.llm!.remainingTurns(), 0);
    assert.equal(fx.llm!.requests[0]!.headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.ok(!String(fx.llm!.requests.at(-1)!.headers.authorization).includes(SECRET_KEY));
  });

  it('--confirmation-mode names the setting; --confirm is its alias and may not disagree', async () => {
    const ws = fx.tmp();
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'x', '--confirmation-mode', 'never', '--confirm', 'always'],
      { env: { LOGBOOK_BASE_URL: 'http://127.0.0.1:9/v1' } },
    );
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /--confirmation-mode never and --confirm always disagree/);
    const bad = await runCli(['run', '--workspace', ws, '--task', 'x', '--confirmation-mode', 'sometimes'], {
      env: { LOGBOOK_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    assert.match(bad.stderr, /--confirmation-mode must be one of never, risky, always, got "sometimes"/);
    const help = await runCli(['run', '--help']);
    assert.match(help.stdout, /--confirmation-mode MODE/);
    assert.match(help.stdout, /--confirm MODE +the same/);
    assert.doesNotMatch(help.stdout, /--task TEXT +what the agent should do \(required\)/);
  });

  it('run --demo walks through the sample task with the demo model; approve (LOGBOOK_DEMO unset) starts it again', async () => {
    const ws = join(fx.tmp(), 'sample');
    cpSync(SAMPLE, ws, { recursive: true });
    const run = await runCli(
      [
        'run',
        '--demo',
        '--workspace',
        ws,
        '--task',
        'Add a subtract function to src/math.js',
        // In the default mode the sandbox and a checkpoint hold all the demo does, so nothing would
        // wait: asking for everything keeps the approvals this test walks through.
        '--confirmation-mode',
        'always',
      ],
      { timeoutMs: 60_000 },
    );
    assert.equal(run.code, 2, printed(run));
    assert.match(run.stdout, /model: the built-in demo model/);
    assert.match(run.stdout, /Run the project's tests/);
    const conv = onlyConversationDir(ws);
    assert.equal(session(conv).demo, true);
    assert.equal(session(conv).base_url, null);

    // npm test, the edit, npm test again: each waits once.
    let approve = await runCli(['approve', conv], { timeoutMs: 60_000 });
    for (let i = 0; approve.code === 2 && i < 3; i++)
      approve = await runCli(['approve', conv], { timeoutMs: 60_000 });
    assert.equal(approve.code, 0, printed(approve));
    assert.match(readFileSync(join(ws, 'src', 'math.js'), 'utf8'), /function subtract/);
  });

  it('LOGBOOK_DEMO=1 is --demo; a task outside its script says how to connect a real model', async () => {
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'refactor the parser', '--json'], {
      env: { LOGBOOK_DEMO: '1' },
    });
    assert.equal(r.code, 0, printed(r));
    assert.match(r.stdout, /has no script for \\"refactor the parser\\"/);
    assert.match(r.stdout, /set `LOGBOOK_API_KEY` \(OpenAI\)/);
  });
});

describe('logbook run: the default store and git', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

  it('adds .logbook/ to .git/info/exclude once, so git status stays clean', async () => {
    const ws = fx.tmp();
    git(ws, 'init', '-q');
    const env = { LOGBOOK_DEMO: '1' };
    const first = await runCli(['run', '--workspace', ws, '--task', 'hello'], { env });
    assert.equal(first.code, 0, printed(first));
    assert.match(first.stdout, /added \.logbook\/ to the repository's \.git\/info\/exclude/);
    assert.equal(git(ws, 'status', '--porcelain', '--untracked-files=all'), '');
    const second = await runCli(['run', '--workspace', ws, '--task', 'hello again'], { env });
    assert.equal(second.code, 0, printed(second));
    assert.doesNotMatch(second.stdout, /info\/exclude/);
    const lines = readFileSync(join(ws, '.git', 'info', 'exclude'), 'utf8').split('\n');
    assert.equal(lines.filter((l) => l === '.logbook/').length, 1);
  });

  it('in a linked worktree, writes the main repository’s exclude; outside a repository, nothing', async () => {
    const main = fx.tmp();
    git(main, 'init', '-q');
    git(main, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'x');
    const linked = join(fx.tmp(), 'linked');
    git(main, 'worktree', 'add', '-q', linked);
    const r = await runCli(['run', '--workspace', linked, '--task', 'hello'], { env: { LOGBOOK_DEMO: '1' } });
    assert.equal(r.code, 0, printed(r));
    assert.match(readFileSync(join(main, '.git', 'info', 'exclude'), 'utf8'), /^\.logbook\/$/m);
    assert.equal(git(linked, 'status', '--porcelain', '--untracked-files=all'), '');

    const plain = fx.tmp();
    const p = await runCli(['run', '--workspace', plain, '--task', 'hello'], { env: { LOGBOOK_DEMO: '1' } });
    assert.equal(p.code, 0, printed(p));
    assert.equal(existsSync(join(plain, '.git')), false);
    assert.doesNotMatch(p.stdout, /info\/exclude/);
  });
});
