// `npm test` prepares the agent-server before the host suite too, so a clean clone's CI runs the
// VS Code tests of remote conversations (they skip without it), and only once for both suites.
import * as assert from 'node:assert/strict';
import { testPlan } from '../../../scripts/test-plan.mjs';

const ALL = ['build', 'unit', 'webview', 'host', 'e2e', 'remote'];

describe("npm test's plan: the agent-server's preparation", () => {
  it('runs once, before the host suite, when the source is there', () => {
    const steps = testPlan(ALL, undefined);
    const prepares = steps.flatMap((s, i) => ('prepare' in s ? [i] : []));
    assert.equal(prepares.length, 1, JSON.stringify(steps));
    const host = steps.findIndex((s) => 'suite' in s && s.suite === 'host');
    assert.equal(prepares[0], host - 1, 'the preparation comes right before host');
    assert.ok(!steps.some((s) => 'skip' in s));
  });

  it('runs before host alone, and before remote alone', () => {
    assert.deepEqual(testPlan(['build', 'host'], undefined), [
      { suite: 'build', needsAgentServer: false },
      { prepare: 'agent-server' },
      { suite: 'host', needsAgentServer: false },
    ]);
    assert.deepEqual(testPlan(['build', 'remote'], undefined), [
      { suite: 'build', needsAgentServer: false },
      { prepare: 'agent-server' },
      { suite: 'remote', needsAgentServer: true },
    ]);
  });

  it('is not run for suites that do not use the server', () => {
    assert.ok(!testPlan(['build', 'unit', 'webview', 'e2e'], undefined).some((s) => 'prepare' in s));
  });

  it('without the source: host still runs, remote is skipped with the reason, nothing is prepared', () => {
    const steps = testPlan(ALL, 'agent-server source not found at X');
    assert.ok(!steps.some((s) => 'prepare' in s));
    assert.deepEqual(
      steps.find((s) => 'suite' in s && s.suite === 'host'),
      { suite: 'host', needsAgentServer: false },
    );
    assert.deepEqual(
      steps.find((s) => 'suite' in s && s.suite === 'remote'),
      { suite: 'remote', skip: 'agent-server source not found at X' },
    );
  });
});
