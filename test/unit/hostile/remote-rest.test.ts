// approve, reject, diff, apply and fork of a conversation a runtime API started, against a folder
// that tries to get the runtime API's key (LOGBOOK_RUNTIME_API_KEY) sent where the user did not
// name: remote.json is not signed, so the key goes only to the runtime API given with
// --runtime-api, when it is the one remote.json names, and only once the signed log vouches for
// the server. (test/remote/runtime-commands.test.ts runs them against the real agent-server.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serverChanges, serverHeadCommit } from '../../../src/host/node/remote/agent-server-git';
import { readGitPatch } from '../../../src/host/node/remote/remote-patch';
import { readRemoteOrigin } from '../../../src/host/node/remote/remote-origin';
import { runCli } from '../cli/cli-runner';

interface Listener {
  url: string;
  server: Server;
  requests: string[];
}

/** A runtime API that records what reaches it and answers a running session on `serverUrl`. */
async function runtimeApi(serverUrl = 'http://127.0.0.1:9'): Promise<Listener> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        status: 'running',
        pod_status: 'ready',
        runtime_id: 'rt-s',
        url: serverUrl,
        session_api_key: 'server-secret',
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
}

const ID = 'c0ffee00-0000-4000-8000-000000000002';

/** Each command on the folder, with what it needs besides. */
const COMMANDS: [string, (dir: string) => string[]][] = [
  ['approve', (dir) => ['approve', dir, '--no-input']],
  ['reject', (dir) => ['reject', dir, '--no-input', '--reason', 'no']],
  ['diff', (dir) => ['diff', dir]],
  ['apply', (dir) => ['apply', dir]],
  ['fork', (dir) => ['fork', dir]],
];

describe('hostile: the commands of a runtime API conversation and its key', function () {
  this.timeout(60_000);
  let root: string;
  const listeners: Listener[] = [];
  const env = { LOGBOOK_RUNTIME_API_KEY: 'runtime-secret', OPENAI_API_KEY: 'sk-test' };

  beforeEach(() => {
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-rest-'));
    // apply writes into the working tree it runs in: a clean repository.
    execFileSync('git', ['init', '-q'], { cwd: root });
  });
  afterEach(() => {
    for (const l of listeners.splice(0)) l.server.close();
    rmSync(root, { recursive: true, force: true });
  });

  function folder(apiUrl: string, server = 'http://127.0.0.1:9'): string {
    const dir = join(root, '.logbook', 'conversations', ID);
    // A log of nothing received: remote.json alone says where the conversation runs.
    mkdirSync(join(dir, 'segments'), { recursive: true });
    const runtime = { api_url: apiUrl, session_id: 'logbook-s', runtime_id: 'rt-s' };
    writeFileSync(
      join(dir, 'remote.json'),
      JSON.stringify({ server, conversation_id: ID, working_dir: '/srv', runtime }),
    );
    return dir;
  }

  for (const [name, argv] of COMMANDS) {
    it(`${name}: the runtime API remote.json names gets no key unless the user names it with --runtime-api`, async () => {
      const api = await runtimeApi();
      listeners.push(api);
      const r = await runCli(argv(folder(api.url)), { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /set LOGBOOK_REMOTE_KEY to its session API key, or LOGBOOK_RUNTIME_API_KEY and --runtime-api http:/,
      );
      // The command is named once, not "logbook diff: logbook diff: ...".
      assert.doesNotMatch(r.stderr, /(logbook \w+: ){2}/);
      assert.deepEqual(api.requests, []);
      assert.ok(!(r.stdout + r.stderr).includes('runtime-secret'));
    });

    it(`${name} --runtime-api: another API than remote.json's is refused; neither is asked anything`, async () => {
      const named = await runtimeApi();
      const mine = await runtimeApi();
      listeners.push(named, mine);
      const r = await runCli([...argv(folder(named.url)), '--runtime-api', mine.url], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /was started by the runtime API at http:\S+, not http:\S+; nothing was sent/);
      assert.deepEqual(named.requests, []);
      assert.deepEqual(mine.requests, []);
    });

    it(`${name} --runtime-api: a folder whose log does not vouch for the server asks the runtime API nothing`, async () => {
      const api = await runtimeApi();
      listeners.push(api);
      const r = await runCli([...argv(folder(api.url)), '--runtime-api', api.url], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.deepEqual(api.requests, []);
      assert.ok(!(r.stdout + r.stderr).includes('secret'));
      assert.match(
        r.stderr,
        /which is not the server its log received the conversation from; nothing was sent/,
      );
    });
  }

  describe("the base of the server's change (remote.json's base_commit)", () => {
    /** An agent-server that records each request's URL and answers `answer(path)`. */
    async function agentServer(answer: (path: string) => unknown): Promise<Listener> {
      const requests: string[] = [];
      const server = createServer((req, res) => {
        requests.push(req.url ?? '');
        req.resume();
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer(req.url ?? '')));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const l = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests };
      listeners.push(l);
      return l;
    }

    it('a base_commit that is not a commit id (a git option, a ref expression) is dropped when read', () => {
      const dir = join(root, 'c');
      mkdirSync(dir);
      for (const bad of ['--output=/x', 'HEAD~100', 'main', 'ABCDEF'.repeat(7), 'a'.repeat(39), 7]) {
        const o = {
          server: 'http://127.0.0.1:9',
          conversation_id: 'c',
          working_dir: '/srv',
          base_commit: bad,
        };
        writeFileSync(join(dir, 'remote.json'), JSON.stringify(o));
        assert.equal(readRemoteOrigin(dir)?.base_commit, undefined, String(bad));
      }
      writeFileSync(
        join(dir, 'remote.json'),
        JSON.stringify({
          server: 'http://127.0.0.1:9',
          conversation_id: 'c',
          working_dir: '/srv',
          base_commit: 'a'.repeat(40),
        }),
      );
      assert.equal(readRemoteOrigin(dir)?.base_commit, 'a'.repeat(40));
    });

    it('serverChanges sends only a commit id or HEAD as the ref, whatever it is given', async () => {
      const s = await agentServer(() => []);
      const target = { url: s.url, key: 'k' };
      await serverChanges(target, '/srv', '--output=/x');
      await serverChanges(target, '/srv', 'b'.repeat(40));
      assert.deepEqual(
        s.requests.map((u) => new URL(u, s.url).searchParams.get('ref')),
        ['HEAD', 'b'.repeat(40)],
      );
    });

    it("a server's HEAD that is not a commit id is not recorded; an empty history is git's empty tree", async () => {
      let sha: unknown = '--upload-pack=x';
      const s = await agentServer(() => ({ commits: sha === null ? [] : [{ sha }], has_more: false }));
      const target = { url: s.url, key: 'k' };
      assert.equal(await serverHeadCommit(target, '/srv'), undefined);
      sha = null;
      assert.equal(await serverHeadCommit(target, '/srv'), '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
      sha = 'c'.repeat(40);
      assert.equal(await serverHeadCommit(target, '/srv'), 'c'.repeat(40));
      assert.match(s.requests[0]!, /^\/api\/git\/commits\?path=%2Fsrv&limit=1$/);
    });
  });

  describe("the executable bit from the server's patch", () => {
    it('reads only the headers: a mode line in a file, a name it cannot split, is not taken', () => {
      const patch = [
        'diff --git a/run.sh b/run.sh',
        'old mode 100644',
        'new mode 100755',
        'diff --git a/notes.txt b/notes.txt',
        'index 1..2 100644',
        '--- a/notes.txt',
        '+++ b/notes.txt',
        '@@ -1 +1,3 @@',
        '+diff --git a/evil b/evil',
        'new mode 100755',
        'diff --git "a/odd\\tname" "b/odd\\tname"',
        'new file mode 100755',
        'diff --git a/old.sh b/new.sh',
        'similarity index 100%',
        'new mode 100755',
        'diff --git a/gone.sh b/gone.sh',
        'new file mode 100644',
        'GIT binary patch',
        'new mode 100755',
        'diff --git a/a b/c b/a b/c',
        'new file mode 100755',
      ].join('\n');
      const modes = readGitPatch(patch)
        .filter((f) => f.newMode === '100755' || f.newMode === '100644')
        .map((f) => [f.path, f.newMode === '100755']);
      assert.deepEqual(modes, [
        ['run.sh', true],
        // Its index line's mode, not the line inside its text.
        ['notes.txt', false],
        ['gone.sh', false],
        ['a b/c', true],
      ]);
    });
  });
});
