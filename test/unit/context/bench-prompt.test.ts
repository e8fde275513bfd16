// The benchmark is timed by `npm run bench`; here it only has to run and build real prompts.
import assert from 'node:assert/strict';
import { benchPromptBuild, benchPromptBuildScaling } from '../../../src/core/context';

describe('benchPromptBuild', () => {
  it('measures appends on a view of the requested size', () => {
    const r = benchPromptBuild(300, 20);
    assert.equal(r.events, 300);
    assert.equal(r.samples, 20);
    assert.equal(r.viewSize, 320);
    assert.ok(r.messages > 250 && r.messages <= 320, `${r.messages} messages`);
    assert.ok(r.medianMs >= 0 && r.p90Ms >= r.medianMs);
  });

  it('compares sizes', () => {
    const { results, ratio } = benchPromptBuildScaling([100, 200], 10);
    assert.deepEqual(
      results.map((r) => r.events),
      [100, 200],
    );
    assert.ok(Number.isFinite(ratio) && ratio > 0);
  });
});
