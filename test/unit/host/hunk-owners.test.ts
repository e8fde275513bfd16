// A hunk rejected in the editor marks only the actions whose own change it holds: two edits of one
// file, one hunk rejected, one action named (the chat's card and header count from these).
import * as assert from 'node:assert/strict';
import { hunkOwners } from '../../../src/host/vscode/review/hunk-owners';
import { computeHunks } from '../../../src/host/vscode/review/hunks';
import { ReviewState } from '../../../src/host/vscode/review/review-state';

const ORIGINAL = 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n';
const COMMENTED = `// Small arithmetic helpers.\n${ORIGINAL}`;
const BOTH = COMMENTED.replace(
  'module.exports = { add };',
  'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
);

function twoEdits(): ReviewState {
  const state = new ReviewState();
  state.record({
    conversationId: 'c',
    actionId: 'comment',
    path: '/w/math.js',
    before: ORIGINAL,
    after: COMMENTED,
  });
  state.record({
    conversationId: 'c',
    actionId: 'subtract',
    path: '/w/math.js',
    before: COMMENTED,
    after: BOTH,
  });
  return state;
}

function ownersOfEachHunk(state: ReviewState): string[][] {
  const review = state.get('c', '/w/math.js');
  assert.ok(review);
  return computeHunks(review.baseline ?? '', BOTH).map((h) =>
    hunkOwners(h, review.actionIds, review.actionLines),
  );
}

describe('review: the actions a rejected hunk came from', () => {
  it('names only the edit whose lines the hunk holds', () => {
    assert.deepEqual(ownersOfEachHunk(twoEdits()), [['comment'], ['subtract']]);
  });

  it('still knows them after the review is saved and restored', () => {
    const restored = new ReviewState();
    restored.restore(JSON.parse(JSON.stringify(twoEdits().toJSON())));
    assert.deepEqual(ownersOfEachHunk(restored), [['comment'], ['subtract']]);
  });

  it('names every action of the file when no kept line matches (a review saved without them)', () => {
    const snapshot = twoEdits().toJSON();
    for (const r of snapshot.conversations['c'] ?? []) delete r.actionLines;
    const restored = new ReviewState();
    restored.restore(snapshot);
    assert.deepEqual(ownersOfEachHunk(restored), [
      ['comment', 'subtract'],
      ['comment', 'subtract'],
    ]);
  });
});
