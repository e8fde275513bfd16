// The one glob engine in its two dialects: ripgrep's for the search fallback, bash's exactly where
// the command analyzer judges which files a word can reach.
import * as assert from 'node:assert/strict';
import { BASH_GLOB, globRegExp, RIPGREP_GLOB } from '../../../src/core/text/glob';

const bash = (glob: string) => globRegExp(glob, BASH_GLOB);
const rg = (glob: string) => globRegExp(glob, RIPGREP_GLOB);

describe('glob engine', () => {
  it('bash: `*` and `?` that start a name never match a leading dot; inside a name they may', () => {
    assert.ok(!bash('/home/*').test('/home/.ssh'));
    assert.ok(!bash('/home/?ssh').test('/home/.ssh'));
    assert.ok(bash('/home/a*').test('/home/a.b'));
    assert.ok(bash('/home/x?y').test('/home/x.y'));
    assert.ok(bash('/home/.*').test('/home/.ssh'), 'a dot written in the pattern matches');
  });

  it('bash: no globstar, no braces, a backslash is literal', () => {
    assert.ok(!bash('/etc/**').test('/etc/a/b'), '** stays within one folder');
    assert.ok(bash('/etc/**').test('/etc/ab'));
    assert.ok(bash('/etc/{a,b}').test('/etc/{a,b}'), 'braces were expanded before globbing');
    assert.ok(!bash('/etc/{a,b}').test('/etc/a'));
    assert.ok(bash('a\\*').test('a\\xyz'));
  });

  it('bash: a run-time mark matches any text, across folders', () => {
    const re = globRegExp('/proc/\u0000/environ', { ...BASH_GLOB, anything: '\u0000' });
    assert.ok(re.test('/proc/1/environ'));
    assert.ok(re.test('/proc/self/task/1/environ'));
  });

  it('ripgrep: `**` crosses folders, braces choose, dots are plain, `\\` quotes', () => {
    assert.ok(rg('src/**/*.ts').test('src/a/b/.c.ts'));
    assert.ok(rg('src/**/*.ts').test('src/a.ts'), '**/ matches no folder too');
    assert.ok(rg('*.{js,jsx}').test('y.jsx'));
    assert.ok(!rg('*.{js,jsx}').test('y.ts'));
    assert.ok(rg('a\\*').test('a*'));
    assert.ok(!rg('a\\*').test('ab'));
    assert.ok(rg('*').test('.env'), 'no hidden-dot rule');
  });

  it('both: classes, negated classes, an unclosed bracket, and regex characters as text', () => {
    for (const re of [bash, rg]) {
      assert.ok(re('/etc/[!p]hadow').test('/etc/shadow'));
      assert.ok(!re('/etc/[!s]hadow').test('/etc/shadow'));
      assert.ok(re('a[b').test('a[b'));
      assert.ok(re('a+(b).c$').test('a+(b).c$'));
      assert.ok(!re('a.c').test('abc'));
      assert.ok(!re('*').test('a/b'), '* stays within one folder');
    }
  });
});
