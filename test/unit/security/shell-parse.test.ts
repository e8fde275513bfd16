import assert from 'node:assert/strict';
import { allCommands, parseShell } from '../../../src/core/security';

const argvs = (text: string) =>
  allCommands(parseShell(text))
    .map((c) => c.argv.join(' '))
    .filter((argv) => argv !== ''); // commands made only of redirections (`done < f`)

describe('parseShell', () => {
  it('splits pipelines and lists, keeping pipes together', () => {
    const script = parseShell('a x | b && c; d || e & f');
    assert.deepEqual(
      script.pipelines.map((p) => p.map((c) => c.argv[0])),
      [['a', 'b'], ['c'], ['d'], ['e'], ['f']],
    );
  });

  it('treats unquoted newlines as separators, and a backslash-newline as a continuation', () => {
    assert.deepEqual(argvs('a 1\nb 2'), ['a 1', 'b 2']);
    assert.deepEqual(argvs('a 1 \\\n 2'), ['a 1 2']);
    assert.deepEqual(argvs('echo "line 1\nline 2"'), ['echo line 1\nline 2']);
  });

  it('drops comments only at the start of a word (shell-quote alone would hide `rm` here)', () => {
    assert.deepEqual(argvs('echo a#b; rm x # trailing comment'), ['echo a#b', 'rm x']);
    assert.deepEqual(argvs('# whole line\nls'), ['ls']);
  });

  it('nests $(...), backticks and <(...) under the command that uses them, but not inside single quotes', () => {
    const script = parseShell('echo $(date) "`whoami`" <(ls) \'$(not run)\'');
    const [echo] = script.pipelines[0]!;
    assert.equal(echo!.substitutions.length, 3);
    assert.deepEqual(argvs('echo $(date) "`whoami`" <(ls) \'$(not run)\''), [
      'echo __LBSUB_0__ __LBSUB_1__ __LBSUB_2__ $(not run)',
      'date',
      'whoami',
      'ls',
    ]);
    assert.deepEqual(argvs('echo "$(a "$(b)")"'), ['echo __LBSUB_0__', 'a __LBSUB_0__', 'b']);
  });

  it('separates assignments and redirections (with their file descriptors) from the words', () => {
    const [cmd] = parseShell('A=1 B="x y" make -j2 2>&1 > out.log < in.txt').pipelines[0]!;
    assert.deepEqual(cmd!.assignments, ['A=1', 'B=x y']);
    assert.deepEqual(cmd!.argv, ['make', '-j2']);
    assert.deepEqual(cmd!.redirects, [
      { op: '>&', target: '1', fd: '2' },
      { op: '>', target: 'out.log' },
      { op: '<', target: 'in.txt' },
    ]);
  });

  it('skips heredoc bodies as data, keeping them on the command', () => {
    const script = parseShell("cat <<'EOF' > f.txt\nrm -rf /\nEOF\nls");
    assert.deepEqual(argvs("cat <<'EOF' > f.txt\nrm -rf /\nEOF\nls"), ['cat', 'ls']);
    assert.equal(script.pipelines[0]![0]!.redirects[0]!.heredoc, 'rm -rf /\n');
  });

  it('strips shell keywords around commands and ignores loop headers', () => {
    assert.deepEqual(argvs('if test -f x; then rm x; else touch x; fi'), ['test -f x', 'rm x', 'touch x']);
    assert.deepEqual(argvs('for f in a b; do echo $f; done'), ['echo $f']);
    assert.deepEqual(argvs('while read l; do echo "$l"; done < f'), ['read l', 'echo $l']);
  });

  it('reads escapes inside double quotes as bash does', () => {
    assert.deepEqual(parseShell('echo "a\\`b" "c\\\\d" "e\\$f" "g\\"h"').pipelines[0]![0]!.argv, [
      'echo',
      'a`b',
      'c\\d',
      'e$f',
      'g"h',
    ]);
  });

  it('marks function definitions and unclosed quotes', () => {
    const [definition] = parseShell('f() { rm -rf /; }').pipelines[0]!;
    assert.equal(definition!.definesFunction, 'f');
    assert.equal(parseShell('echo "open').incomplete, true);
    assert.equal(parseShell('echo $(open').incomplete, true);
    assert.equal(parseShell('echo "closed"').incomplete, false);
  });
});
