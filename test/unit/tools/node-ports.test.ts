import assert from 'node:assert/strict';
import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { NodeFilePort, NodeTerminalPort, TempScratchPort } from '../../../src/host/node/ports';
import { replaceFile, separateHardLink } from '../../../src/host/node/ports/replace-file';

describe('Node host ports', () => {
  let dir: string;
  beforeEach(() => (dir = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-ports-')))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('NodeFilePort', () => {
    it('reads, writes (creating folders), stats, lists and deletes', async () => {
      const files = new NodeFilePort([dir]);
      assert.deepEqual(files.roots, [dir]);
      assert.equal(await files.readText(join(dir, 'missing.txt')), undefined);
      assert.equal(await files.stat(join(dir, 'missing.txt')), undefined);
      await files.writeText(join(dir, 'a/b/c.txt'), 'hello');
      assert.equal(readFileSync(join(dir, 'a/b/c.txt'), 'utf8'), 'hello');
      assert.deepEqual(await files.stat(join(dir, 'a/b/c.txt')), { type: 'file', size: 5 });
      assert.equal((await files.stat(join(dir, 'a')))?.type, 'directory');
      symlinkSync(join(dir, 'a/b'), join(dir, 'link'));
      assert.deepEqual(await files.list(dir), ['a/', 'link/']);
      await files.delete(join(dir, 'a/b/c.txt'));
      assert.equal(await files.readText(join(dir, 'a/b/c.txt')), undefined);
    });
    it('a folder the system will not create is an error naming it, at once (not the endless retry of mkdir -p)', async function () {
      if (process.platform !== 'linux') this.skip();
      const files = new NodeFilePort([dir]);
      const started = Date.now();
      await assert.rejects(files.writeText('/proc/self/outside/x', 'x'), {
        message: 'the folder /proc/self/outside cannot be created (ENOENT); nothing was written',
      });
      writeFileSync(join(dir, 'plain'), '');
      await assert.rejects(files.writeText(join(dir, 'plain', 'sub', 'x'), 'x'), /plain is not a folder/);
      assert.ok(Date.now() - started < 5000);
      await files.writeText(join(dir, 'a', 'b', 'c.txt'), 'deep');
      assert.equal(readFileSync(join(dir, 'a', 'b', 'c.txt'), 'utf8'), 'deep');
    });
  });

  describe('replaceFile and separateHardLink', () => {
    it('replaceFile renames a new file over the path: other hard links keep their content, the mode is kept', async () => {
      const file = join(dir, 'f.sh');
      writeFileSync(file, 'old');
      chmodSync(file, 0o750);
      linkSync(file, join(dir, 'other'));
      await replaceFile(file, 'new');
      assert.equal(readFileSync(file, 'utf8'), 'new');
      assert.equal(readFileSync(join(dir, 'other'), 'utf8'), 'old');
      assert.equal(statSync(file).mode & 0o7777, 0o750);
      assert.deepEqual(readdirSync(dir).sort(), ['f.sh', 'other'], 'no temporary file is left');
    });

    it('replaceFile creates a missing file with the usual mode, and leaves no temporary file when it fails', async () => {
      await replaceFile(join(dir, 'new.txt'), 'x');
      assert.equal(statSync(join(dir, 'new.txt')).mode & 0o777, 0o666 & ~process.umask());
      mkdirSync(join(dir, 'folder'));
      await assert.rejects(replaceFile(join(dir, 'folder'), 'x'), /EISDIR/);
      await assert.rejects(replaceFile(join(dir, 'missing', 'x.txt'), 'x'), /ENOENT/);
      assert.deepEqual(readdirSync(dir).sort(), ['folder', 'new.txt']);
    });

    it('separateHardLink copies a linked file over itself (content, mode and times kept); a lone file is untouched', async () => {
      const file = join(dir, 'linked.txt');
      writeFileSync(file, 'shared');
      chmodSync(file, 0o604);
      utimesSync(file, new Date('2020-01-02T03:04:05Z'), new Date('2021-01-02T03:04:05Z'));
      linkSync(file, join(dir, 'elsewhere.txt'));
      const before = statSync(file);
      assert.equal(await separateHardLink(file), true);
      const after = statSync(file);
      assert.notEqual(after.ino, before.ino);
      assert.equal(after.nlink, 1);
      assert.equal(after.mode, before.mode);
      assert.equal(after.mtimeMs, before.mtimeMs);
      assert.equal(readFileSync(file, 'utf8'), 'shared');
      writeFileSync(file, 'changed in place');
      assert.equal(readFileSync(join(dir, 'elsewhere.txt'), 'utf8'), 'shared');
      assert.equal(await separateHardLink(file), false, 'now a file of its own');
      assert.equal(statSync(file).ino, after.ino);
      assert.equal(await separateHardLink(join(dir, 'missing.txt')), false);
    });
  });

  describe('TempScratchPort', () => {
    it('saves under its folder with unique, safe names and never overwrites', async () => {
      const scratch = new TempScratchPort(join(dir, 'scratch'));
      const first = await scratch.save('../../evil name.txt', 'one');
      const second = await scratch.save('../../evil name.txt', 'two');
      assert.notEqual(first, second);
      for (const path of [first, second]) assert.equal(dirname(path), join(dir, 'scratch'));
      assert.equal(readFileSync(first, 'utf8'), 'one');
      // Another port on the same folder (e.g. after a restart) skips numbers already taken.
      const again = await new TempScratchPort(join(dir, 'scratch')).save('x.txt', 'three');
      assert.ok(![first, second].includes(again));
    });
  });

  describe('NodeTerminalPort', function () {
    this.timeout(15_000);
    it('runs in its cwd, refuses a second command while busy, and returns idle output on sendInput("")', async () => {
      mkdirSync(join(dir, 'work'));
      writeFileSync(join(dir, 'work', 'x'), '');
      const terminal = new NodeTerminalPort({ cwd: join(dir, 'work') });
      try {
        const ls = await terminal.run('ls', { timeoutMs: 5000 });
        assert.deepEqual(ls, {
          output: 'x\n',
          exitCode: 0,
          timedOut: false,
          cwd: join(dir, 'work'),
          carried: [],
        });
        await terminal.run('sleep 5', { timeoutMs: 100 });
        await assert.rejects(terminal.run('echo no', { timeoutMs: 1000 }), /still running/);
        await terminal.interrupt();
        const after = await terminal.sendInput('', { timeoutMs: 2000 });
        assert.equal(after.exitCode, 130);
        assert.equal(terminal.busy, false);
        await assert.rejects(terminal.sendInput('text', { timeoutMs: 100 }), /No command is running/);
      } finally {
        terminal.dispose();
      }
      await assert.rejects(terminal.run('echo', { timeoutMs: 100 }), /disposed/);
    });

    it('stops waiting when the signal aborts, leaving the command running', async () => {
      const terminal = new NodeTerminalPort({ cwd: dir });
      try {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        const started = Date.now();
        const result = await terminal.run('sleep 3; echo end', {
          timeoutMs: 10_000,
          signal: controller.signal,
        });
        assert.ok(Date.now() - started < 2000);
        assert.equal(result.exitCode, null);
        assert.equal(terminal.busy, true);
      } finally {
        terminal.dispose();
      }
    });
  });
});
