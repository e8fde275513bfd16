// What the server's git endpoints leave out of `logbook diff` and `logbook apply`, taken from its
// git patch (the real agent-server): a renamed file is one change, applied as a rename (a change
// here goes with it); a new symlink is made as a symlink where it leads inside the tree and is
// refused, named, where it leads out; deleted files (text and binary) are removed; an executable
// bit change still lands.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandThenFinish } from '../support/command-scenario';
import { runCli } from '../unit/cli/cli-runner';
import { type RemoteRun, git, repoWithFiles, startRemoteRun, stopRemoteRun } from './remote-run';

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

/** One command: a.txt renamed and changed, files deleted, two symlinks, a script made executable. */
const MOVES = commandThenFinish(
  'remote-moves',
  "mv a.txt moved.txt && printf 'eight\\n' >> moved.txt && rm gone.txt b.bin && " +
    'ln -s moved.txt alias && ln -s ../outside.txt out && chmod +x run.sh && mv same.txt renamed.txt',
  'rename, delete, link',
  'Moved.',
);

const gitRepo = (dir: string): void =>
  repoWithFiles(dir, {
    'a.txt': BASE,
    'gone.txt': 'to be removed\n',
    'b.bin': Buffer.from([0, 1, 2, 3, 0, 255]),
    'run.sh': '#!/bin/sh\necho run\n',
    'same.txt': 'renamed whole\n',
  });

const executable = (file: string) => (statSync(file).mode & 0o111) !== 0;

describe('renames, symlinks and deletions in diff and apply of a remote conversation (the real agent-server)', function () {
  this.timeout(180_000);
  const run = {} as RemoteRun;
  let root: string;
  let convDir: string;
  let env: Record<string, string>;

  before(async () => {
    await startRemoteRun(run, 'remote-moves', gitRepo, MOVES, 'move things');
    ({ root, convDir, env } = run as Required<RemoteRun>);
    assert.equal(readlinkSync(join(run.remoteDir, 'out')), '../outside.txt', 'the agent made no symlink');
  });
  after(() => stopRemoteRun(run));

  it('logbook diff shows the rename as one file, each symlink by its target, a deleted file by its text', async () => {
    const stat = await runCli(['diff', convDir, '--stat'], { env });
    assert.equal(stat.code, 0, stat.stdout + stat.stderr);
    assert.match(stat.stdout, /7 files changed/);
    assert.match(stat.stdout, /^ {2}R same\.txt -> renamed\.txt$/m);
    assert.match(stat.stdout, /^ {2}R a\.txt -> moved\.txt$/m);
    assert.match(stat.stdout, /^ {2}A alias$/m);
    assert.match(stat.stdout, /^ {2}A out$/m);
    assert.match(stat.stdout, /^ {2}D b\.bin$/m);
    assert.match(stat.stdout, /^ {2}D gone\.txt$/m);
    assert.match(stat.stdout, /^ {2}M run\.sh$/m);
    assert.doesNotMatch(stat.stdout, /^ {2}[AD] (a|moved)\.txt$/m);
    const r = await runCli(['diff', convDir], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /rename from a\.txt\nrename to moved\.txt\n--- a\/a\.txt\n\+\+\+ b\/moved\.txt/);
    assert.match(r.stdout, /^ seven\n\+eight$/m);
    assert.match(r.stdout, /rename from same\.txt\nrename to renamed\.txt\n[^\n]*\n[^\n]*\n\(renamed whole/);
    assert.match(
      r.stdout,
      /\(a new symlink: its target\)\n--- \/dev\/null\n\+\+\+ b\/out\n@@[^\n]*\n\+\.\.\/outside\.txt/,
    );
    assert.match(r.stdout, /--- a\/gone\.txt\n\+\+\+ \/dev\/null\n@@[^\n]*\n-to be removed/);
  });

  it('logbook apply renames, removes, makes the symlink that stays inside, refuses the one that leads out', async () => {
    const local = join(root, 'local');
    gitRepo(local);
    writeFileSync(join(root, 'outside.txt'), 'outside\n');
    const r = await runCli(['apply', convDir], { env, cwd: local });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^ {2}a\.txt -> moved\.txt$/m);
    assert.match(r.stderr, /out: a symlink to \.\.\/outside\.txt, which leads outside the working tree/);
    assert.equal(existsSync(join(local, 'a.txt')), false, 'a.txt is still here');
    assert.equal(existsSync(join(local, 'same.txt')), false, 'same.txt is still here');
    assert.equal(readFileSync(join(local, 'renamed.txt'), 'utf8'), 'renamed whole\n');
    assert.equal(readFileSync(join(local, 'moved.txt'), 'utf8'), `${BASE}eight\n`);
    assert.ok(lstatSync(join(local, 'alias')).isSymbolicLink(), 'alias is not a symlink');
    assert.equal(readlinkSync(join(local, 'alias')), 'moved.txt');
    assert.equal(existsSync(join(local, 'out')), false);
    assert.equal(existsSync(join(local, 'gone.txt')), false);
    assert.equal(existsSync(join(local, 'b.bin')), false, 'the binary file is still here');
    assert.ok(executable(join(local, 'run.sh')), 'run.sh is not executable here');
    // git finds the rename in what is left uncommitted.
    git(local, 'add', '-A');
    assert.match(git(local, 'diff', '--cached', '-M', '--name-status'), /^R\d+\ta\.txt\tmoved\.txt$/m);
  });

  it('a change here to the renamed file is merged under its new name', async () => {
    const local = join(root, 'local-changed');
    gitRepo(local);
    writeFileSync(join(local, 'a.txt'), BASE.replace('one\n', 'ONE here\n'));
    const r = await runCli(['apply', convDir, '--force'], { env, cwd: local });
    assert.match(r.stdout, /1 merged with changes here/);
    assert.equal(existsSync(join(local, 'a.txt')), false);
    assert.equal(
      readFileSync(join(local, 'moved.txt'), 'utf8'),
      `${BASE.replace('one\n', 'ONE here\n')}eight\n`,
    );
  });
});
