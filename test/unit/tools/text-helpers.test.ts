import assert from 'node:assert/strict';
import fc from 'fast-check';
import { capMiddle, stripTerminalControls } from '../../../src/core/tools';
import { insertAfterLine, occurrences, replaceUnique, splitLines } from '../../../src/core/tools/file-edits';
import { ShellSentinel } from '../../../src/host/node/ports/shell-sentinel';
import { globMatcher } from '../../../src/host/node/ports';

describe('text helpers', () => {
  describe('stripTerminalControls', () => {
    it('removes colours, cursor moves, titles and charset switches', () => {
      assert.equal(
        stripTerminalControls('\u001b[1;31merror\u001b[0m: \u001b]0;title\u0007x\u001b(B\u001b[2K'),
        'error: x',
      );
    });

    it('applies carriage-return overwrites like a terminal and normalises CRLF', () => {
      assert.equal(stripTerminalControls('progress 10%\rprogress 100%\ndone\r\n'), 'progress 100%\ndone\n');
      assert.equal(stripTerminalControls('abcdef\rXY'), 'XYcdef');
      assert.equal(stripTerminalControls('bell\u0007 and back\u0008space'), 'bell and backspace');
    });
  });

  describe('capMiddle', () => {
    it('keeps text that fits', () => {
      assert.deepEqual(
        capMiddle('short', 10, () => '[cut]'),
        { text: 'short', removedChars: 0 },
      );
    });

    it('never exceeds the limit and keeps the head and tail', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 80, max: 2000 }), (text, max) => {
          const capped = capMiddle(text, max, (n) => `[... ${n} cut ...]`);
          if (text.length <= max) return capped.text === text;
          const [head, tail] = capped.text.split(/\n\[\.\.\. \d+ cut \.\.\.\]\n/);
          return (
            capped.text.length <= max &&
            text.startsWith(head!) &&
            text.endsWith(tail!) &&
            head!.length + tail!.length + capped.removedChars === text.length
          );
        }),
      );
    });
  });

  describe('file edits', () => {
    it('finds overlapping occurrences', () => {
      assert.deepEqual(occurrences('aaaa', 'aa'), [0, 1, 2]);
      assert.deepEqual(occurrences('abc', ''), []);
    });

    it('replaceUnique changes exactly one occurrence and reports its lines', () => {
      fc.assert(
        fc.property(
          fc.string(),
          fc.string(),
          fc.string({ minLength: 1 }),
          fc.string(),
          (before, after, needle, replacement) => {
            const text = before + needle + after;
            const result = replaceUnique(text, needle, replacement);
            if (occurrences(text, needle).length !== 1) return !result.ok;
            return result.ok && result.text === before + replacement + after;
          },
        ),
      );
    });

    it('insertAfterLine adds exactly the inserted lines at the right place', () => {
      fc.assert(
        fc.property(
          fc.array(fc.stringMatching(/^[^\n]*$/), { maxLength: 8 }),
          fc.array(fc.stringMatching(/^[^\n]*$/), { minLength: 1, maxLength: 3 }),
          fc.nat(),
          (lines, added, at) => {
            const text = lines.map((l) => l + '\n').join('');
            const line = lines.length === 0 ? 0 : at % (lines.length + 1);
            const result = insertAfterLine(text, line, added.map((l) => l + '\n').join(''));
            if (!result.ok) return false;
            const expected = [...lines.slice(0, line), ...added, ...lines.slice(line)];
            return JSON.stringify(splitLines(result.text)) === JSON.stringify(expected);
          },
        ),
      );
    });
  });

  describe('ShellSentinel', () => {
    const sentinel = new ShellSentinel('abc123');
    it('extracts markers, their exit codes and directories, leaving the output', () => {
      const out = sentinel.extract('hello\n\n__LOGBOOK_END_abc123_4__ 2 - A,B /tmp/x y\nlater');
      assert.equal(out.text, 'hello\nlater');
      assert.deepEqual(out.ends, [{ runId: 4, exitCode: 2, cwd: '/tmp/x y', carried: ['A', 'B'] }]);
    });

    it('ignores markers of another terminal and holds back a half-printed marker', () => {
      assert.equal(sentinel.extract('\n__LOGBOOK_END_zzz_1__ 0 - - /\n').ends.length, 0);
      assert.equal(sentinel.incompleteTail('output\n__LOGBOOK_EN'), '__LOGBOOK_EN'.length);
      assert.equal(
        sentinel.incompleteTail('output\n__LOGBOOK_END_abc123_7__ 0 - - /tm'),
        '__LOGBOOK_END_abc123_7__ 0 - - /tm'.length,
      );
      assert.equal(sentinel.incompleteTail('plain output\n'), 0);
    });
  });

  describe('globMatcher (search fallback)', () => {
    const cases: [string, string, boolean][] = [
      ['*.ts', 'src/a.ts', true],
      ['*.ts', 'a.tsx', false],
      ['src/*.ts', 'src/a.ts', true],
      ['src/*.ts', 'src/deep/a.ts', false],
      ['src/**/*.ts', 'src/a.ts', true],
      ['src/**/*.ts', 'src/deep/er/a.ts', true],
      ['**/test_*.py', 'a/test_x.py', true],
      ['*.{js,jsx}', 'x/y.jsx', true],
      ['file?.txt', 'file1.txt', true],
      ['[ab].md', 'c.md', false],
      ['./lib/*', 'lib/x', true],
    ];
    for (const [pattern, path, expected] of cases) {
      it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
        assert.equal(globMatcher(pattern)(path), expected);
      });
    }
  });
});
