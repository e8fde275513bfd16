// An accepted hunk is recorded in a worktree task's log by its header line. The editor's hunks are
// its own (review/hunks.ts), so their headers are checked against git's for the same change without
// context (`git diff -U0`): a change, an insertion and a deletion, at the start, middle and end.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeHunks, hunkHeader } from '../../../src/host/vscode/review/hunks';

const BASE = 'a\nb\nc\nd\ne\n';

function gitHeaders(before: string, after: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'logbook-hunk-header-'));
  try {
    writeFileSync(join(dir, 'before'), before);
    writeFileSync(join(dir, 'after'), after);
    const r = spawnSync('git', ['diff', '--no-index', '--no-color', '-U0', 'before', 'after'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return (
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('@@'))
        .map((l) => l.replace(/^(@@ [^@]+ @@).*$/, '$1'))
        // git leaves out a count of 1; the record always writes it.
        .map((l) => l.replace(/([-+]\d+)(?= |$)(?!,)/g, '$1,1'))
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CASES: [string, string][] = [
  ['a line changed in the middle', 'a\nb\nC\nd\ne\n'],
  ['lines inserted after the second', 'a\nb\nnew 1\nnew 2\nc\nd\ne\n'],
  ['lines deleted in the middle', 'a\nd\ne\n'],
  ['a line inserted at the start', 'start\na\nb\nc\nd\ne\n'],
  ['the first line deleted', 'b\nc\nd\ne\n'],
  ['a line appended', 'a\nb\nc\nd\ne\nend\n'],
  ['two separate changes', 'A\nb\nc\nd\nE\n'],
];

describe('the header an accepted hunk is recorded with', () => {
  for (const [what, after] of CASES)
    it(`is git's for ${what}`, () => {
      const ours = computeHunks(BASE, after).map(hunkHeader);
      assert.deepEqual(ours, gitHeaders(BASE, after));
    });
});
