import * as assert from 'node:assert/strict';
import { fuzzyScore, rankFuzzy } from '../../../src/core/mentions/fuzzy-rank';

describe('mentions: fuzzy ranking', () => {
  const paths = [
    'src/app.ts',
    'src/application/index.ts',
    'test/app.test.ts',
    'docs/apple-pie.md',
    'src/core/agent/conversation.ts',
    'README.md',
  ];
  const rank = (q: string, limit = 10) => rankFuzzy(paths, q, limit, (p) => p);

  it('matches characters in order, case-insensitively, and nothing else', () => {
    assert.ok(fuzzyScore('cnvrs', 'src/core/agent/conversation.ts') > 0);
    assert.equal(fuzzyScore('zz', 'src/app.ts'), -1);
    assert.equal(fuzzyScore('sta', 'src/app.ts'), -1, 'order matters');
    assert.deepEqual(rank('readme'), ['README.md']);
  });

  it('puts the file whose name starts with the query first, shorter paths before longer', () => {
    assert.deepEqual(rank('app').slice(0, 3), ['src/app.ts', 'test/app.test.ts', 'docs/apple-pie.md']);
    assert.equal(rank('conv')[0], 'src/core/agent/conversation.ts');
    assert.equal(rank('sapp')[0], 'src/app.ts');
  });

  it('keeps only the best `limit`, and an empty query keeps the shortest', () => {
    assert.equal(rank('a', 2).length, 2);
    assert.deepEqual(rank('', 1), ['README.md']);
  });

  it('ranks 50,000 paths quickly', () => {
    const many: string[] = [];
    for (let i = 0; i < 50_000; i++) many.push(`packages/pkg${i % 200}/src/module${i}/file${i}.ts`);
    many.push('src/host/vscode/mentions/workspace-files.ts');
    const lower = many.map((p) => p.toLowerCase());
    const index = new Map(many.map((p, i) => [p, lower[i]!]));
    const started = performance.now();
    const top = rankFuzzy(
      many,
      'wsfiles',
      30,
      (p) => p,
      (p) => index.get(p)!,
    );
    const ms = performance.now() - started;
    assert.equal(top[0], 'src/host/vscode/mentions/workspace-files.ts');
    // Generous for a loaded runner; a pass that compared every path with every other would take minutes.
    assert.ok(ms < 3_000, `took ${ms.toFixed(0)} ms`);
  });
});
