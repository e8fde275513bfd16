// The benchmark is timed by `npm run bench`; here it only has to run and build real prompts.
import assert from 'node:assert/strict';
import {
  benchPromptBuild,
  benchPromptBuildScaling,
  LlmSummarizingCondenser,
} from '../../../src/core/context';

describe('benchPromptBuild', () => {
  it('measures appends on a view of the requested size', () => {
    const r = benchPromptBuild(300, 20);
    assert.equal(r.events, 300);
    assert.equal(r.samples, 20);
    // 300 events, 50 untimed warm-up steps, 20 timed ones
    assert.equal(r.viewSize, 370);
    assert.ok(r.messages > 300 && r.messages <= 370, `${r.messages} messages`);
    assert.ok(r.medianMs >= 0 && r.p90Ms >= r.medianMs);
  });

  it('compares sizes', () => {
    const { results, ratio } = benchPromptBuildScaling([100, 200], 10);
    assert.deepEqual(
      results.map((r) => r.events),
      [100, 200],
    );
    assert.ok(Number.isFinite(ratio) && ratio > 0);
    assert.equal(ratio, results[1]!.medianMs / results[0]!.medianMs);
    assert.ok(results.every((r) => r.samples === 10));
  });

  it('with a condenser, condenses as the runtime does, so the view stays bounded at any length', () => {
    const condenser = new LlmSummarizingCondenser({ maxSize: 40 });
    const { results } = benchPromptBuildScaling([200, 2000], 10, condenser);
    for (const r of results) {
      assert.ok(r.viewSize <= 41, `view of ${r.viewSize} events at ${r.events}`);
      assert.ok(r.messages > 4, `${r.messages} messages`);
    }
    const uncondensed = benchPromptBuild(2000, 10);
    assert.equal(uncondensed.viewSize, 2060);
  });
});
