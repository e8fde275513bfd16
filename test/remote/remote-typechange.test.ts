// A path that changed kind on the server (a file that became a symlink, a symlink that became a
// file), against the real agent-server: its `/api/git/changes` fails on git's `T` status, so diff
// and apply read the list from its git patch; each such path is shown and applied by the rules of
// files and symlinks, one that would lead out of the tree is refused by name while the rest lands,
// and a new symlink that leads out is made only with --links-outside.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandThenFinish } from '../support/command-scenario';
import { runCli } from '../unit/cli/cli-runner';
import { type RemoteRun, git, startRemoteRun, stopRemoteRun } from './remote-run';

/** c.txt becomes a symlink, lnk a file, d.txt a symlink out of the tree; other.txt changes; out is new. */
const KINDS = commandThenFinish(
  'remote-typechange',
  "rm c.txt && ln -s other.txt c.txt && rm lnk && printf 'now a file\\n' > lnk && " +
    "rm d.txt && ln -s ../outside.txt d.txt && printf 'more\\n' >> other.txt && ln -s ../outside.txt out",
  'change kinds',
  'Changed.',
);

/** The base: two files, a symlink to one of them, and one more file. */
function baseRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'c.txt'), 'hello\nworld\n');
  writeFileSync(join(dir, 'other.txt'), 'other\n');
  writeFileSync(join(dir, 'd.txt'), 'dee\n');
  symlinkSync('c.txt', join(dir, 'lnk'));
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
}

const isLink = (p: string): boolean => lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() === true;

describe('a file that became a symlink, and back, in diff and apply of a remote conversation (the real agent-server)', function () {
  this.timeout(180_000);
  const run = {} as RemoteRun;
  let root: string;
  let convDir: string;
  let env: Record<string, string>;

  before(async () => {
    await startRemoteRun(run, 'remote-typechange', baseRepo, KINDS, 'change kinds');
    ({ root, convDir, env } = run as Required<RemoteRun>);
    assert.equal(readlinkSync(join(run.remoteDir, 'c.txt')), 'other.txt', 'the agent made no symlink');
    assert.match(git(run.remoteDir, 'diff', '--name-status', 'HEAD'), /^T\tc\.txt$/m);
  });
  after(() => stopRemoteRun(run));

  it('logbook diff shows each path that changed kind as one change, from the patch', async () => {
    const stat = await runCli(['diff', convDir, '--stat'], { env });
    assert.equal(stat.code, 0, stat.stdout + stat.stderr);
    assert.match(stat.stdout, /5 files changed/);
    for (const line of ['M c.txt', 'M lnk', 'M d.txt', 'M other.txt', 'A out'])
      assert.match(stat.stdout, new RegExp(`^ {2}${line.replace('.', '\\.')}$`, 'm'), line);
    assert.match(stat.stderr, /could not list its changed files .*read from its git patch/);
    const r = await runCli(['diff', convDir], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /\(a file, now a symlink: its text, then its target\)\n--- a\/c\.txt\n\+\+\+ b\/c\.txt\n@@[^\n]*\n-hello\n-world\n\+other\.txt/,
    );
    assert.match(
      r.stdout,
      /\(a symlink, now a file: its target, then its text\)\n--- a\/lnk\n\+\+\+ b\/lnk\n@@[^\n]*\n-c\.txt\n/,
    );
    assert.match(r.stdout, /^\+now a file$/m);
    assert.match(r.stdout, /^ other\n\+more$/m);
  });

  it('logbook apply changes each kind, refuses the symlink out of the tree by name, and applies the rest', async () => {
    const local = join(root, 'local');
    baseRepo(local);
    writeFileSync(join(root, 'outside.txt'), 'outside\n');
    const r = await runCli(['apply', convDir], { env, cwd: local });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(isLink(join(local, 'c.txt')), 'c.txt is not a symlink here');
    assert.equal(readlinkSync(join(local, 'c.txt')), 'other.txt');
    assert.ok(!isLink(join(local, 'lnk')), 'lnk is still a symlink here');
    assert.equal(readFileSync(join(local, 'lnk'), 'utf8'), 'now a file\n');
    assert.equal(readFileSync(join(local, 'other.txt'), 'utf8'), 'other\nmore\n');
    // The base's file it replaced was not written through the link.
    assert.equal(readFileSync(join(local, 'other.txt'), 'utf8').includes('now a file'), false);
    assert.match(r.stderr, /d\.txt: a symlink to \.\.\/outside\.txt, which leads outside the working tree/);
    assert.match(r.stderr, /out: a symlink to \.\.\/outside\.txt, which leads outside the working tree/);
    assert.match(r.stderr, /logbook apply --links-outside makes the 2 symlink\(s\) above .*\(d\.txt, out\)/);
    assert.equal(readFileSync(join(local, 'd.txt'), 'utf8'), 'dee\n', 'd.txt was changed');
    assert.equal(lstatSync(join(local, 'out'), { throwIfNoEntry: false }), undefined);
    assert.equal(readFileSync(join(root, 'outside.txt'), 'utf8'), 'outside\n');
  });

  it('with --links-outside the symlinks that lead out are made, each printed with where it leads', async () => {
    const local = join(root, 'local-links');
    baseRepo(local);
    const r = await runCli(['apply', convDir, '--links-outside'], { env, cwd: local });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readlinkSync(join(local, 'out')), '../outside.txt');
    assert.equal(readlinkSync(join(local, 'd.txt')), '../outside.txt');
    assert.match(r.stdout, /^ {2}out: a symlink that leads outside the working tree, to \S+outside\.txt/m);
    assert.match(r.stdout, /^ {2}d\.txt: a symlink that leads outside the working tree, to \S+outside\.txt/m);
  });
});
