// Remote plan mode and the way back to a runtime API's conversation, against what tries to get
// around them: actions a model dresses up as reads (judged by the rules local plan mode applies),
// a remote.json edited to send the runtime API's key elsewhere, and a runtime API that places the
// session on another server than the one the log received it from. (test/remote/remote-plan.test.ts
// runs plan mode against the real agent-server.)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gateHeld, type RemoteGate } from '../../../src/host/node/remote/remote-gate';
import { runCli } from '../cli/cli-runner';

const WORK = '/srv/project';

function held(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'ActionEvent',
    tool_name: tool,
    tool_call: { arguments: JSON.stringify(args) },
    action: { kind: tool === 'terminal' ? 'TerminalAction' : 'FileEditorAction', ...args },
  };
}

const plan = (confirmation: RemoteGate['confirmation']): RemoteGate => ({
  mode: 'plan',
  confirmation,
  allowRules: [],
  workingDir: WORK,
});

interface Listener {
  url: string;
  server: Server;
  requests: string[];
}

async function listen(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listener> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

const json = (res: ServerResponse, value: unknown) =>
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));

describe('hostile: remote plan mode and resuming a runtime API conversation', function () {
  this.timeout(60_000);

  describe('what plan mode refuses on the server', () => {
    const writes: [string, Record<string, unknown>][] = [
      ['terminal', { command: 'echo x > notes.txt' }],
      ['terminal', { command: 'cat a.txt | tee b.txt' }],
      ['terminal', { command: 'sed -i s/a/b/ a.txt' }],
      ['terminal', { command: 'find . -name "*.o" -delete' }],
      ['terminal', { command: 'git status' }],
      ['terminal', { command: 'npm test' }],
      ['terminal', { command: 'ls; rm -rf build' }],
      ['terminal', { command: 'y', is_input: true }],
      ['terminal', { command: '', reset: true }],
      ['file_editor', { command: 'str_replace', path: `${WORK}/a.txt`, old_str: 'a', new_str: 'b' }],
      ['file_editor', { command: 'create', path: `${WORK}/../outside.txt`, file_text: 'x' }],
      ['browser_navigate', { url: 'http://example.com' }],
    ];
    for (const [tool, args] of writes) {
      it(`${tool} ${JSON.stringify(args)} is rejected, with a reason the model reads, whatever the confirmation mode`, () => {
        for (const mode of ['never', 'risky', 'always'] as const) {
          const v = gateHeld([held(tool, args)], plan(mode));
          assert.equal(v.kind, 'reject', `${mode}: ${JSON.stringify(v)}`);
          assert.match(
            (v as { reason: string }).reason,
            /^Refused by Logbook: the conversation is in plan mode/,
          );
        }
      });
    }

    it('one write among reads rejects them all (the server answers every held action at once)', () => {
      const v = gateHeld(
        [held('terminal', { command: 'ls' }), held('terminal', { command: 'touch x' })],
        plan('never'),
      );
      assert.equal(v.kind, 'reject');
    });

    it('reads pass with confirmation off or risky, and are asked about in always', () => {
      const reads = [
        held('terminal', { command: 'ls -la' }),
        held('terminal', { command: 'cat README.md' }),
        held('file_editor', { command: 'view', path: `${WORK}/a.txt` }),
      ];
      assert.equal(gateHeld(reads, plan('never')).kind, 'accept');
      assert.equal(gateHeld(reads, plan('risky')).kind, 'accept');
      assert.equal(gateHeld(reads, plan('always')).kind, 'ask');
    });

    it("in act mode, a tool Logbook's rules do not know is asked about, not approved", () => {
      const browse = [held('browser_navigate', { url: 'http://example.com' })];
      assert.equal(gateHeld(browse, { ...plan('risky'), mode: 'act' }).kind, 'ask');
    });

    it('a read of a secret outside the working folder: refused in plan mode, asked about in act mode', () => {
      const shadow = [held('terminal', { command: 'cat /etc/shadow' })];
      assert.equal(gateHeld(shadow, plan('never')).kind, 'reject');
      assert.equal(gateHeld(shadow, { ...plan('risky'), mode: 'act' }).kind, 'ask');
      // Confirmation off is the user's choice: the server holds nothing then (NeverConfirm).
      assert.equal(gateHeld(shadow, { ...plan('never'), mode: 'act' }).kind, 'accept');
    });
  });

  describe('run --runtime-api URL --store DIR', () => {
    let root: string;
    const listeners: Listener[] = [];
    beforeEach(() => {
      const base = join(__dirname, '..', '..', '..', 'test-results');
      mkdirSync(base, { recursive: true });
      root = mkdtempSync(join(base, 'hostile-remote-plan-'));
    });
    afterEach(() => {
      for (const l of listeners.splice(0)) l.server.close();
      rmSync(root, { recursive: true, force: true });
    });

    function folder(origin: Record<string, unknown>): string {
      const dir = join(root, '.logbook', 'conversations', 'c0ffee00-0000-4000-8000-000000000001');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'remote.json'), JSON.stringify(origin));
      return dir;
    }

    const env = { LOGBOOK_RUNTIME_API_KEY: 'runtime-secret', OPENAI_API_KEY: 'sk-test' };

    it("a remote.json edited to name another runtime API gets no key: the user's URL must be the one that started it", async () => {
      const elsewhere = await listen((_q, res) => json(res, {}));
      const mine = await listen((_q, res) => json(res, {}));
      listeners.push(elsewhere, mine);
      const dir = folder({
        server: 'http://127.0.0.1:9',
        conversation_id: 'c0ffee00-0000-4000-8000-000000000001',
        working_dir: WORK,
        runtime: { api_url: elsewhere.url, session_id: 'logbook-s', runtime_id: 'rt-s' },
      });
      const r = await runCli(['run', '--runtime-api', mine.url, '--store', dir, 'go on'], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /was started by the runtime API at http:\S+, not http:/);
      assert.deepEqual(elsewhere.requests, []);
      assert.deepEqual(mine.requests, []);
      assert.ok(!r.stderr.includes('runtime-secret'));
    });

    it('a runtime API placing the session on another server than the log names is refused; that server is sent nothing', async () => {
      const logged = await listen((_q, res) => json(res, {}));
      const other = await listen((_q, res) => json(res, {}));
      const api = await listen((req, res) =>
        req.url === '/sessions/logbook-s'
          ? json(res, {
              status: 'running',
              pod_status: 'ready',
              runtime_id: 'rt-s',
              url: other.url,
              session_api_key: 'server-secret',
            })
          : json(res, {}),
      );
      listeners.push(logged, other, api);
      const dir = folder({
        server: logged.url,
        conversation_id: 'c0ffee00-0000-4000-8000-000000000001',
        working_dir: WORK,
        runtime: { api_url: api.url, session_id: 'logbook-s', runtime_id: 'rt-s' },
      });
      const r = await runCli(['run', '--runtime-api', api.url, '--store', dir, 'go on'], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /now places session logbook-s at http:\S+, not at http:\S+, where the log received/,
      );
      assert.deepEqual(other.requests, []);
      assert.ok(!logged.requests.some((q) => q.startsWith('POST')), logged.requests.join(', '));
      assert.ok(!r.stderr.includes('server-secret') && !r.stderr.includes('runtime-secret'));
    });

    it('a stopped runtime is a clear error; nothing is resumed', async () => {
      const api = await listen((req, res) =>
        req.url === '/sessions/logbook-s'
          ? json(res, { status: 'stopped', runtime_id: 'rt-s' })
          : json(res, {}),
      );
      listeners.push(api);
      const dir = folder({
        server: 'http://127.0.0.1:9',
        conversation_id: 'c0ffee00-0000-4000-8000-000000000001',
        working_dir: WORK,
        runtime: { api_url: api.url, session_id: 'logbook-s', runtime_id: 'rt-s' },
      });
      const r = await runCli(['run', '--runtime-api', api.url, '--store', dir], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /the runtime for session logbook-s is stopped on http:\S+; the conversation cannot go on there/,
      );
      assert.ok(!api.requests.some((q) => q.includes('/resume')), api.requests.join(', '));
    });
  });
});
