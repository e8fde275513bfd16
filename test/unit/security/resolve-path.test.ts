// The one path resolution the file tools use and the risk rules judge, on real symlinks in a temp dir.
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  analyzeAction,
  diskLookup,
  fileWriteRisk,
  readPathRisk,
  realPath,
  resolveToolPath,
} from '../../../src/core/security';

describe('resolveToolPath and realPath', () => {
  let base: string;
  let ws: string;
  let outside: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'logbook-paths-')));
    ws = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'shadow'), 'root:$6$planted-hash:19000:0:99999:7:::\n');
    symlinkSync(outside, join(ws, 'link')); // a folder inside pointing out
    symlinkSync(join(outside, 'shadow'), join(ws, 'notes.txt')); // a file inside pointing out
    symlinkSync(join(outside, 'not-yet'), join(ws, 'dangling')); // writing it creates outside/not-yet
    symlinkSync('../outside', join(ws, 'relative-link'));
    symlinkSync('src/../../outside', join(ws, 'dotdot-link')); // `..` from the link's real folder
    symlinkSync('loop-b', join(ws, 'loop-a'));
    symlinkSync('loop-a', join(ws, 'loop-b'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('trims surrounding whitespace of every kind before resolving, so " /x" is /x, not <ws>/ /x', () => {
    for (const pad of [' ', '\n', '\t', '\u00a0', '\ufeff', ' \r\n ']) {
      const r = resolveToolPath(`${pad}${outside}/x${pad}`, ws);
      assert.ok(r.ok, JSON.stringify(pad));
      assert.equal(r.path, join(outside, 'x'), JSON.stringify(pad));
    }
  });

  it('refuses control and invisible characters inside a path with an error the model can act on', () => {
    for (const bad of ['a\nb', 'a\u0000b', 'a\u001bb', 'x\u202eb.txt', 'a\u200bb', 'a\u0085b']) {
      const r = resolveToolPath(bad, ws);
      assert.equal(r.ok, false, JSON.stringify(bad));
      assert.match(!r.ok ? r.error : '', /control or invisible character U\+[0-9A-F]{4}.*Nothing was done/);
    }
    const empty = resolveToolPath(' \t ', ws);
    assert.equal(empty.ok, false);
  });

  it('resolves ., .. and // lexically into the path the tool uses', () => {
    const r = resolveToolPath(`${ws}//src/./../../outside/x`, ws);
    assert.ok(r.ok);
    assert.equal(r.path, join(outside, 'x'));
    const rel = resolveToolPath('src/../../outside', ws);
    assert.ok(rel.ok);
    assert.equal(rel.path, outside);
  });

  it('a backslash is part of a file name on POSIX: the path leads where it says, no symlink in sight', function () {
    if (process.platform === 'win32') this.skip();
    const r = resolveToolPath('src\\a.txt', ws);
    assert.ok(r.ok);
    assert.equal(r.path, join(ws, 'src\\a.txt'));
    assert.equal(r.real, r.path);
    assert.deepEqual(fileWriteRisk('src\\a.txt', [ws]), {
      risk: 'LOW',
      reasons: [`${join(ws, 'src\\a.txt')} is an ordinary workspace file`],
    });
    // `..\\..\\x` is one name in the workspace folder, not a way out of it.
    assert.equal(readPathRisk('..\\..\\outside\\shadow', [ws], []).risk, 'LOW');
  });

  it('follows symlinks of every existing ancestor, dangling ones and relative targets with ..', () => {
    assert.equal(realPath(join(ws, 'link', 'new', 'file.txt')), join(outside, 'new', 'file.txt'));
    assert.equal(realPath(join(ws, 'notes.txt')), join(outside, 'shadow'));
    assert.equal(realPath(join(ws, 'dangling')), join(outside, 'not-yet'));
    assert.equal(realPath(join(ws, 'relative-link', 'x')), join(outside, 'x'));
    assert.equal(realPath(join(ws, 'dotdot-link', 'x')), join(outside, 'x'));
    assert.equal(realPath(join(ws, 'src', 'missing', 'x')), join(ws, 'src', 'missing', 'x'));
    // A loop ends without hanging (the operation itself then fails with ELOOP).
    assert.ok(realPath(join(ws, 'loop-a', 'x')).startsWith(ws));
  });

  it('judges a write through a symlinked folder, file or dangling link outside the workspace: refused there, so not asked', () => {
    for (const p of ['link/x.txt', 'notes.txt', 'dangling', 'relative-link/x', `${ws}/link/../link/y`]) {
      const r = fileWriteRisk(p, [ws]);
      assert.equal(r.risk, 'LOW', `${p}: ${r.reasons.join(' | ')}`);
      assert.match(
        r.reasons.join(' '),
        /refused without touching anything: .*outside the folders the agent may write/,
      );
    }
    assert.match(fileWriteRisk('link/x.txt', [ws]).reasons[0]!, /a symlink to .*outside\/x\.txt/);
    assert.equal(fileWriteRisk('src/ok.ts', [ws]).risk, 'LOW');
  });

  it('rates a leading-whitespace absolute path where it is used, never as a workspace file', () => {
    for (const pad of [' ', '\n', '\t', '\u00a0', '\ufeff']) {
      const write = fileWriteRisk(`${pad}${outside}/x`, [ws]);
      assert.equal(write.risk, 'LOW', JSON.stringify(pad));
      assert.match(write.reasons.join(' '), new RegExp(`${outside}/x is outside the folders`));
      const read = readPathRisk(`${pad}${outside}/shadow`, [ws], []);
      assert.equal(read.risk, 'MEDIUM', JSON.stringify(pad));
      const git = fileWriteRisk(`${pad}.git/hooks/post-commit`, [ws]);
      assert.equal(git.risk, 'HIGH');
    }
  });

  it('reads through symlinks out of the workspace are MEDIUM; the real /etc/shadow is MEDIUM', () => {
    assert.equal(readPathRisk('notes.txt', [ws], []).risk, 'MEDIUM');
    assert.equal(readPathRisk('link', [ws], []).risk, 'MEDIUM');
    assert.equal(readPathRisk('src', [ws], []).risk, 'LOW');
    const shadow = readPathRisk(' /etc/shadow', [ws], []);
    assert.equal(shadow.risk, 'MEDIUM');
    assert.match(shadow.reasons[0]!, /\/etc\/shadow, private data/);
    // The agent's own readable folders stay LOW.
    assert.equal(readPathRisk(join(outside, 'shadow'), [ws], [outside]).risk, 'LOW');
  });

  it('compares against the real location of a workspace folder opened through a symlink', () => {
    const alias = join(base, 'alias');
    symlinkSync(ws, alias);
    assert.equal(fileWriteRisk(join(ws, 'src', 'a.ts'), [alias]).risk, 'LOW');
    assert.equal(fileWriteRisk('src/a.ts', [alias]).risk, 'LOW');
    assert.match(fileWriteRisk(join(alias, 'link', 'x'), [alias]).reasons.join(' '), /refused/);
  });

  it('a write to a file with another hard link is MEDIUM, however it is reached; reading it stays LOW', () => {
    writeFileSync(join(ws, 'src', 'lone.ts'), 'x');
    assert.equal(diskLookup.hardLinks?.(join(ws, 'src', 'lone.ts')), 1);
    assert.equal(diskLookup.hardLinks?.(join(ws, 'src')), undefined, 'a folder');
    assert.equal(diskLookup.hardLinks?.(join(ws, 'notes.txt')), undefined, 'a symlink is not followed');
    linkSync(join(outside, 'shadow'), join(ws, 'src', 'linked'));
    symlinkSync('linked', join(ws, 'src', 'to-linked'));
    assert.equal(diskLookup.hardLinks?.(join(ws, 'src', 'linked')), 2);
    for (const p of ['src/linked', join(ws, 'src', 'linked'), 'src/to-linked', ' src/./linked']) {
      const r = fileWriteRisk(p, [ws]);
      assert.equal(r.risk, 'MEDIUM', `${p}: ${r.reasons.join(' | ')}`);
      assert.match(
        r.reasons[0]!,
        /has 2 hard links: writing it in place would also change the same file elsewhere/,
      );
    }
    assert.match(
      fileWriteRisk('src/to-linked', [ws]).reasons[0]!,
      /to-linked \(a symlink to .*src\/linked\) has 2/,
    );
    assert.equal(readPathRisk('src/linked', [ws], []).risk, 'LOW');
    // Outside the workspace it is refused, for that reason.
    const out = fileWriteRisk(join(outside, 'shadow'), [ws]);
    assert.match(out.reasons.join(' '), /outside the folders the agent may write/);
  });

  it('glob and grep: a path argument through a symlink out of the workspace asks', () => {
    for (const tool of ['glob', 'grep']) {
      const out = analyzeAction(tool, { pattern: 'x', path: 'link' }, [ws]);
      assert.equal(out.risk, 'MEDIUM', `${tool}: ${out.reasons.join(' | ')}`);
      const inside = analyzeAction(tool, { pattern: 'x', path: 'src' }, [ws]);
      assert.equal(inside.risk, 'LOW');
    }
  });
});
