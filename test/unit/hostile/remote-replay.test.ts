// `logbook replay` of a remote conversation takes its files from the commit remote.json names
// (base_commit) in a local clone. remote.json is not signed: a base_commit that is not a commit id
// (a git option, a ref expression) is refused before git is run with it, and a commit the clone
// lacks is refused in words. A `git` on PATH records every call the CLI makes.
// (test/remote/remote-replay.test.ts replays a real server's conversation.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/cli-runner';

const ID = 'c0ffee00-0000-4000-8000-000000000048';
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

describe('hostile: replay of a remote conversation and the base commit remote.json names', function () {
  this.timeout(60_000);
  let root: string;
  let calls: string;
  let env: Record<string, string>;

  beforeEach(() => {
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-replay-'));
    execFileSync(realGit, ['init', '-q'], { cwd: root });
    // Every git the CLI runs goes through this one, which writes its arguments down first.
    const bin = join(root, 'bin');
    mkdirSync(bin);
    calls = join(root, 'git-calls');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    env = { PATH: `${bin}:${process.env.PATH ?? ''}`, OPENAI_API_KEY: 'sk-test' };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function folder(extra: Record<string, unknown>): string {
    const dir = join(root, 'log', ID);
    mkdirSync(join(dir, 'segments'), { recursive: true });
    writeFileSync(
      join(dir, 'remote.json'),
      JSON.stringify({ server: 'http://127.0.0.1:9', conversation_id: ID, working_dir: '/srv', ...extra }),
    );
    return dir;
  }
  const gitCalls = () => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');

  for (const mode of [{}, { mode: 'plan' }]) {
    const label = 'mode' in mode ? 'plan' : 'act';
    for (const bad of ['--output=x', 'HEAD~1', 'main', `${'a'.repeat(40)}^{tree}`, 'A'.repeat(40), 7]) {
      it(`${label}: base_commit ${JSON.stringify(bad)} is refused, and git never sees it`, async () => {
        const r = await runCli(['replay', folder({ ...mode, base_commit: bad })], { env, cwd: root });
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(
          r.stderr,
          /base_commit is not a commit id \(40 or 64 hex digits\); nothing was asked of git/,
        );
        assert.ok(!gitCalls().includes(String(bad)), gitCalls());
        assert.ok(!gitCalls().includes('cat-file'), gitCalls());
      });
    }

    it(`${label}: no base_commit: refused, saying what is missing`, async () => {
      const r = await runCli(['replay', folder(mode)], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /records no base_commit \(the commit the server's HEAD was on/);
      assert.ok(!gitCalls().includes('cat-file'), gitCalls());
    });

    it(`${label}: a commit id the clone lacks: refused, saying to fetch it; nothing checked out`, async () => {
      const id = 'b'.repeat(40);
      const r = await runCli(['replay', folder({ ...mode, base_commit: id })], { env, cwd: root });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, new RegExp(`does not have commit ${id}, the server's HEAD .*git fetch`));
      assert.match(gitCalls(), new RegExp(`^cat-file -e ${id}\\^\\{commit\\}$`, 'm'));
      assert.doesNotMatch(gitCalls(), /read-tree|checkout/);
    });

    it(`${label}: --workspace that is not a git repository: refused in words`, async () => {
      const plain = join(root, 'plain');
      mkdirSync(plain);
      const r = await runCli(
        ['replay', folder({ ...mode, base_commit: 'c'.repeat(40) }), '--workspace', plain],
        { env: { ...env, GIT_CEILING_DIRECTORIES: root }, cwd: root },
      );
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /plain is not a git repository: a remote conversation replays on the files/);
    });
  }

  it('--workspace on a local conversation is a usage error', async () => {
    const dir = join(root, 'local-conv');
    mkdirSync(join(dir, 'segments'), { recursive: true });
    const r = await runCli(['replay', dir, '--workspace', root], { env, cwd: root });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /--workspace is for a remote conversation/);
  });

  it("the folder asked in is the commit's folder the copy holds; one the commit lacks is refused", async () => {
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'in.txt'), 'in\n');
    writeFileSync(join(root, 'top.txt'), 'top\n');
    execFileSync(realGit, ['add', 'sub', 'top.txt'], { cwd: root });
    execFileSync(realGit, ['-c', 'user.name=T', '-c', 'user.email=t@t', 'commit', '-qm', 'base'], {
      cwd: root,
    });
    const id = execFileSync(realGit, ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dir = folder({ base_commit: id });
    const r = await runCli(['replay', dir, '--keep'], { env, cwd: join(root, 'sub') });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const kept = /^kept (\S+)$/m.exec(r.stdout)?.[1];
    assert.ok(kept, r.stdout);
    try {
      assert.deepEqual(readdirSync(join(kept, 'workspace')), ['in.txt']);
    } finally {
      rmSync(kept, { recursive: true, force: true });
    }
    mkdirSync(join(root, 'later'));
    const lacks = await runCli(['replay', dir], { env, cwd: join(root, 'later') });
    assert.equal(lacks.code, 1, lacks.stdout + lacks.stderr);
    assert.match(lacks.stderr, /has no folder later, the folder of \S+ the replay was asked in/);
  });
});
