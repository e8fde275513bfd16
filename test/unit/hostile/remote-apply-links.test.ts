// Hostile cases of applying a remote conversation's change that holds symlinks: a server whose
// agent made a symlink to ~/.ssh, out of the tree, into the repository's .git, or into a place the
// sandbox hides inside the tree (a working tree that is the home folder) gets none of them made
// here, each named with the reason; nothing is downloaded through them; a symlink that leads
// inside the tree is made as one. The server is the recorded-protocol stand-in.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { CONVERSATION, event, KEY, standIn, status } from '../../support/agent-server-stand-in';
import { runCli } from '../cli/cli-runner';

function finished(): string[] {
  const msg = event('MessageEvent', {
    source: 'user',
    parent_id: null,
    llm_message: { role: 'user', content: [{ type: 'text', text: 'make links' }] },
  });
  return [JSON.stringify(msg), JSON.stringify(status('finished', msg.id))];
}

/** A new symlink as git's patch writes it: mode 120000, its target as the file's one line. */
function linkPatch(path: string, target: string): string {
  return [
    `diff --git a/${path} b/${path}`,
    'new file mode 120000',
    'index 0000000..1111111',
    '--- /dev/null',
    `+++ b/${path}`,
    '@@ -0,0 +1 @@',
    `+${target}`,
    '\\ No newline at end of file',
  ].join('\n');
}

const lexists = (p: string): boolean => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

describe('hostile: applying a remote change whose symlinks lead where the local file tools may not', function () {
  this.timeout(60_000);
  let root: string;
  let tree: string;
  let home: string;
  const servers: Server[] = [];
  /** Every path the stand-in was asked to download. */
  let downloads: string[];
  const env = () => ({
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'sk-test',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_REMOTE_KEY: KEY,
    HOME: home,
  });

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp (the places must be reachable).
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-links-'));
    home = join(root, 'home');
    tree = join(root, 'tree');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    mkdirSync(join(root, 'outside'));
    downloads = [];
  });
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
    rmSync(root, { recursive: true, force: true });
  });

  function repository(dir: string): void {
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, 'readme.txt'), 'read me\n');
    execFileSync('git', ['add', 'readme.txt'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base'], {
      cwd: dir,
    });
  }

  /**
   * A conversation whose server reports `links` (path → target) as new symlinks, and `files` (path
   * → text) as new files.
   */
  async function ranOn(links: Record<string, string>, files: Record<string, string> = {}): Promise<string> {
    const s = await standIn({
      frames: finished,
      get: (url) => {
        if (url.pathname === '/api/git/changes')
          return [...Object.keys(links), ...Object.keys(files)].map((path) => ({ status: 'ADDED', path }));
        if (url.pathname === '/api/file/archive')
          return Buffer.from(
            `${Object.entries(links)
              .map(([p, t]) => linkPatch(p, t))
              .join('\n')}\n`,
          );
        const named = Object.entries(files).find(([p]) => url.searchParams.get('path')?.endsWith(`/${p}`));
        if (url.pathname === '/api/file/download' && named) return Buffer.from(named[1]);
        if (url.pathname === '/api/file/download') {
          downloads.push(url.searchParams.get('path') ?? '');
          // What a server's download of a symlink gives: the bytes where it leads there.
          return Buffer.from('PRIVATE KEY OF THE SERVER\n');
        }
        return undefined;
      },
    });
    servers.push(s.server);
    const r = await runCli(['run', '--remote', s.url, '--no-input', 'make links'], { env: env(), cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return join(root, '.logbook', 'conversations', CONVERSATION);
  }

  it('a symlink to ~/.ssh, one out of the tree and one into .git are not made; one inside is', async () => {
    repository(tree);
    const conv = await ranOn({
      key: join(home, '.ssh', 'id_rsa'),
      up: '../outside',
      hooks: '.git/hooks',
      'docs/alias': '../readme.txt',
    });
    const r = await runCli(['apply', conv], { env: env(), cwd: tree });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /key: a symlink to \S+id_rsa, which leads outside the working tree/);
    assert.match(r.stderr, /up: a symlink to \.\.\/outside, which leads outside the working tree/);
    assert.match(r.stderr, /hooks: a symlink to \.git\/hooks, which leads into the repository's \.git/);
    for (const name of ['key', 'up', 'hooks']) assert.equal(lexists(join(tree, name)), false, name);
    assert.equal(readlinkSync(join(tree, 'docs', 'alias')), '../readme.txt');
    assert.deepEqual(downloads, [], 'a symlink was downloaded (the server follows it)');
  });

  it('a working tree that is the home folder: a symlink into its ~/.ssh is not made, the reason named', async () => {
    home = tree;
    repository(tree);
    mkdirSync(join(tree, '.ssh'));
    writeFileSync(join(tree, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    const conv = await ranOn({ 'shared/key': '../.ssh/id_rsa' });
    const r = await runCli(['apply', conv], { env: env(), cwd: tree });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /shared\/key: a symlink to \.\.\/\.ssh\/id_rsa: .*which the sandbox hides/);
    assert.equal(lexists(join(tree, 'shared', 'key')), false);
  });

  it('a symlink through a symlink here that leads out, or through one the same change refuses, is not made', async () => {
    repository(tree);
    symlinkSync(join(root, 'outside'), join(tree, 'door'));
    const conv = await ranOn({ via: 'door/x', a: 'b/secret', b: join(home, '.ssh') });
    const r = await runCli(['apply', conv, '--force'], { env: env(), cwd: tree });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /via: a symlink to door\/x, which leads outside the working tree/);
    assert.match(r.stderr, /b: a symlink to \S+\.ssh, which leads outside the working tree/);
    assert.equal(lexists(join(tree, 'via')), false);
    assert.equal(lexists(join(tree, 'b')), false);
    // a leads to b/secret in the tree, where nothing is (b was refused): made, and leads nowhere out.
    assert.equal(readlinkSync(join(tree, 'a')), 'b/secret');
  });

  it('a working tree that is the home folder: no file of the server is written into its ~/.ssh', async () => {
    home = tree;
    repository(tree);
    mkdirSync(join(tree, '.ssh'));
    const conv = await ranOn(
      {},
      { '.ssh/authorized_keys': 'ssh-ed25519 AAAA attacker\n', 'notes.txt': 'notes\n' },
    );
    const r = await runCli(['apply', conv], { env: env(), cwd: tree });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /\.ssh\/authorized_keys: .*which the sandbox hides.*; left as it is/);
    assert.equal(lexists(join(tree, '.ssh', 'authorized_keys')), false, 'the server wrote into ~/.ssh');
    assert.equal(readFileSync(join(tree, 'notes.txt'), 'utf8'), 'notes\n', 'the rest was not applied');
  });

  it('a file here that is a hard link to a hidden one is not written through', async () => {
    repository(tree);
    writeFileSync(join(home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA mine\n');
    linkSync(join(home, '.ssh', 'authorized_keys'), join(tree, 'keys.txt'));
    const conv = await ranOn({}, { 'keys.txt': 'ssh-ed25519 AAAA attacker\n', 'notes.txt': 'notes\n' });
    const r = await runCli(['apply', conv, '--force'], { env: env(), cwd: tree });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /keys\.txt: .*; left as it is/);
    assert.equal(readFileSync(join(home, '.ssh', 'authorized_keys'), 'utf8'), 'ssh-ed25519 AAAA mine\n');
    assert.equal(readFileSync(join(tree, 'notes.txt'), 'utf8'), 'notes\n');
  });
});
