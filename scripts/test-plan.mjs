// The order scripts/test.mjs runs things in: the suites asked for, and the agent-server's
// preparation (scripts/setup-agent-server.mjs) once, before the first suite that uses the server.
// The remote suite needs it; the host suite runs without it (its remote conversation tests then
// skip), so the server is prepared before `host` whenever its source is there, and a clean clone's
// `npm test` runs those host tests too.

/** Suites that start the real agent-server, and whether they can run at all without it. */
export const AGENT_SERVER_SUITES = { host: 'optional', remote: 'required' };

/**
 * The steps for `order` (suite names): `{ prepare: 'agent-server' }` at most once, before the first
 * suite that uses the server, when its source was found (`sourceMissing` undefined); `{ suite }`
 * for each suite, with `skip` (why) for one that needs the server when its source is missing.
 */
export function testPlan(order, sourceMissing) {
  const steps = [];
  let prepared = false;
  for (const suite of order) {
    const use = AGENT_SERVER_SUITES[suite];
    if (use && sourceMissing === undefined && !prepared) {
      steps.push({ prepare: 'agent-server' });
      prepared = true;
    }
    if (use === 'required' && sourceMissing !== undefined) steps.push({ suite, skip: sourceMissing });
    else steps.push({ suite, needsAgentServer: use === 'required' });
  }
  return steps;
}
