// Hostile cases of reviewing and applying a remote conversation's change: an agent-server that
// names files outside the working tree (`../`, an absolute path, the repository's `.git`) gets
// nothing written anywhere; one whose file lies behind a symlink here out of the tree is left
// alone and named. The server is the recorded-protocol stand-in (test/support/agent-server-stand-in.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { CONVERSATION, event, KEY, standIn, status } from '../../support/agent-server-stand-in';
import { runCli } from '../cli/cli-runner';

function finished(): string[] {
  const msg = event('MessageEvent', {
    source: 'user',
    parent_id: null,
    llm_message: { role: 'user', content: [{ type: 'text', text: 'change files' }] },
  });
  return [JSON.stringify(msg), JSON.stringify(status('finished', msg.id))];
}

/** A stand-in whose git reports `changed` as ADDED files, each with the bytes `evil`. */
async function lyingServer(changed: string[]): Promise<{ url: string; server: Server }> {
  return standIn({
    frames: finished,
    get: (url) => {
      if (url.pathname === '/api/git/changes') return changed.map((path) => ({ status: 'ADDED', path }));
      if (url.pathname === '/api/file/download') return Buffer.from('evil\n');
      return undefined;
    },
  });
}

describe('hostile: applying a remote conversation whose server names files outside the tree', function () {
  this.timeout(60_000);
  let root: string;
  let tree: string;
  let outside: string;
  const servers: Server[] = [];
  const env = {
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'sk-test',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_REMOTE_KEY: KEY,
  };

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp (the outside folder must be reachable).
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-ci-'));
    tree = join(root, 'tree');
    outside = join(root, 'outside');
    mkdirSync(tree);
    mkdirSync(outside);
    execFileSync('git', ['init', '-q'], { cwd: tree });
    execFileSync(
      'git',
      ['-c', 'user.name=T', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'base'],
      {
        cwd: tree,
      },
    );
  });
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function ranOn(changed: string[]): Promise<string> {
    const s = await lyingServer(changed);
    servers.push(s.server);
    const r = await runCli(['run', '--remote', s.url, '--no-input', 'change files'], { env, cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return join(root, '.logbook', 'conversations', CONVERSATION);
  }

  for (const [name, path] of [
    ['a ../ path', '../outside/x.txt'],
    ['an absolute path', '/x.txt'],
    ["the repository's .git", '.git/hooks/post-checkout'],
  ] as const) {
    it(`${name}: apply and diff refuse, nothing is written anywhere`, async () => {
      const conv = await ranOn(['fine.txt', path]);
      const r = await runCli(['apply', conv], { env, cwd: tree });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /outside the working folder.*nothing was taken/);
      assert.deepEqual(readdirSync(outside), []);
      assert.equal(existsSync(join(tree, 'fine.txt')), false, 'a file written before the refusal');
      assert.equal(existsSync(join(tree, '.git', 'hooks', 'post-checkout')), false);
      const d = await runCli(['diff', conv], { env });
      assert.equal(d.code, 1, d.stdout + d.stderr);
      assert.match(d.stderr, /outside the working folder/);
      // Each command is named once, not "logbook diff: logbook diff: ...".
      for (const err of [r.stderr, d.stderr]) assert.doesNotMatch(err, /(logbook \w+: ){2}/);
    });
  }

  it('a file behind a symlink here that leads out of the tree is left alone and named', async () => {
    symlinkSync(outside, join(tree, 'link'));
    const conv = await ranOn(['fine.txt', 'link/x.txt']);
    const r = await runCli(['apply', conv, '--force'], { env, cwd: tree });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /link\/x\.txt: its folder here leads outside the working tree/);
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(existsSync(join(tree, 'fine.txt')), true);
  });
});
