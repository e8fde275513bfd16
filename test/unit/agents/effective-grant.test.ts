// A child or a handoff never has more than its parent: the unit cases of effectiveGrant, and a
// property over random trees of delegations (each level's grant computed from the one above).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { EXPLORE_AGENT, type AgentDefinition } from '../../../src/core/agents/definition';
import {
  type AgentGrant,
  effectiveGrant,
  grantWithin,
  hostCovered,
  userMode,
} from '../../../src/core/agents/effective-grant';
import type { Event } from '../../../src/core/events';
import { hostAllowed } from '../../../src/host/node/sandbox/network-proxy';

const def = (
  mode: 'plan' | 'act',
  tools: string[] | null,
  more: Partial<AgentDefinition> = {},
): AgentDefinition => ({
  ...EXPLORE_AGENT,
  name: 'builder',
  mode,
  tools,
  maxIterations: null,
  ...more,
});

/** A parent's grant: `mode` and `tools`, and by default no other limit. */
const parentOf = (
  mode: 'plan' | 'act',
  tools: string[] | null,
  more: Partial<AgentGrant> = {},
): AgentGrant => ({
  mode,
  tools,
  confirmation: 'never',
  maxIterations: null,
  maxTokens: null,
  maxCost: null,
  allowedHosts: null,
  ...more,
});

describe('effectiveGrant', () => {
  it('keeps plan when the parent is in plan and the definition asks for act, and says so', () => {
    const g = effectiveGrant(parentOf('plan', null), def('act', null));
    assert.equal(g.agent.mode, 'plan');
    assert.deepEqual(g.narrowed, [
      'asked for act mode; the conversation is in plan mode, so it runs in plan mode',
    ]);
  });

  it('lets a definition narrow act to plan, with nothing to report', () => {
    const g = effectiveGrant(parentOf('act', null), def('plan', ['grep']));
    assert.equal(g.agent.mode, 'plan');
    assert.deepEqual(g.agent.tools, ['grep']);
    assert.deepEqual(g.narrowed, []);
  });

  it('gives an act definition act under an act parent', () => {
    const g = effectiveGrant(parentOf('act', null), def('act', null));
    assert.equal(g.agent.mode, 'act');
    assert.equal(g.agent.tools, null);
    assert.deepEqual(g.narrowed, []);
  });

  it('keeps only the tools the parent has, and names the others', () => {
    const g = effectiveGrant(parentOf('act', ['grep', 'glob']), def('act', ['grep', 'terminal']));
    assert.deepEqual(g.agent.tools, ['grep']);
    assert.deepEqual(g.narrowed, ['asked for terminal, which its parent does not have']);
  });

  it("gives a definition without a tools list its parent's tools", () => {
    const g = effectiveGrant(parentOf('act', ['grep']), def('act', null));
    assert.deepEqual(g.agent.tools, ['grep']);
    assert.equal(g.narrowed.length, 1);
  });

  it("covers an MCP tool by its parent's server/*", () => {
    const g = effectiveGrant(parentOf('act', ['docs/*']), def('act', ['docs/search', 'web/get']));
    assert.deepEqual(g.agent.tools, ['docs/search']);
  });

  it("keeps a parent's stricter confirmation mode, and says so", () => {
    const g = effectiveGrant(
      parentOf('act', null, { confirmation: 'risky' }),
      def('act', null, { confirmation: 'never' }),
    );
    assert.equal(g.grant.confirmation, 'risky');
    assert.equal(g.agent.confirmation, 'risky');
    assert.deepEqual(g.narrowed, [
      'asked for confirmation "never"; its parent\'s is "risky", which it keeps',
    ]);
  });

  it('lets a definition ask for a stricter confirmation mode', () => {
    const g = effectiveGrant(
      parentOf('act', null, { confirmation: 'risky' }),
      def('act', null, { confirmation: 'always' }),
    );
    assert.equal(g.grant.confirmation, 'always');
    assert.deepEqual(g.narrowed, []);
  });

  it("runs a definition that names no confirmation mode on its parent's", () => {
    const g = effectiveGrant(parentOf('act', null, { confirmation: 'always' }), def('act', null));
    assert.equal(g.grant.confirmation, 'always');
  });

  it("gives a bigger budget the parent's remaining, and a smaller one its own", () => {
    const parent = parentOf('act', null, { maxIterations: 10, maxTokens: 1000, maxCost: 0.5 });
    const g = effectiveGrant(parent, def('act', null, { maxIterations: 500, maxTokens: 100, maxCost: 9 }));
    assert.deepEqual([g.grant.maxIterations, g.grant.maxTokens, g.grant.maxCost], [10, 100, 0.5]);
    assert.deepEqual(g.narrowed, [
      'asked for 500 steps a run; its parent has 10 steps a run, so it gets that',
      'asked for $9; its parent has $0.5 left, so it gets that',
    ]);
    const unlimited = effectiveGrant(parent, def('act', null));
    assert.deepEqual([unlimited.grant.maxIterations, unlimited.grant.maxTokens], [10, 1000]);
  });

  it('keeps only the hosts the parent may reach', () => {
    const parent = parentOf('act', null, { allowedHosts: ['*.github.com', 'registry.npmjs.org'] });
    const g = effectiveGrant(
      parent,
      def('act', null, { allowedHosts: ['api.github.com', 'evil.example', '*'] }),
    );
    assert.deepEqual(g.grant.allowedHosts, ['api.github.com']);
    assert.deepEqual(g.narrowed, ['asked for the hosts evil.example, *, which its parent may not reach']);
    assert.deepEqual(effectiveGrant(parent, def('act', null)).grant.allowedHosts, parent.allowedHosts);
  });

  it('lets a definition name hosts under a parent not narrowed', () => {
    const g = effectiveGrant(parentOf('act', null), def('act', null, { allowedHosts: ['api.github.com'] }));
    assert.deepEqual(g.grant.allowedHosts, ['api.github.com']);
  });

  it('leaves the definition itself unchanged', () => {
    const d = def('act', ['grep', 'terminal']);
    effectiveGrant(parentOf('plan', ['grep']), d);
    assert.equal(d.mode, 'act');
    assert.deepEqual(d.tools, ['grep', 'terminal']);
  });
});

describe('grantWithin', () => {
  it('narrows a recorded grant by what its parent has now, the mode included', () => {
    const recorded = parentOf('act', ['terminal', 'grep'], { confirmation: 'never', maxTokens: 500 });
    const now = parentOf('plan', ['grep'], { confirmation: 'risky', maxTokens: 100 });
    const g = grantWithin(now, recorded);
    assert.deepEqual(g, {
      ...recorded,
      mode: 'plan',
      tools: ['grep'],
      confirmation: 'risky',
      maxTokens: 100,
    });
  });
});

describe('hostCovered', () => {
  it('covers a name by itself, by *, and by a *.domain above it', () => {
    assert.ok(hostCovered('api.github.com', ['api.github.com']));
    assert.ok(hostCovered('api.github.com', ['*']));
    assert.ok(hostCovered('api.github.com', ['*.github.com']));
    assert.ok(hostCovered('github.com', ['*.github.com']));
    assert.ok(hostCovered('*.api.github.com', ['*.github.com']));
  });

  it('does not cover a wider pattern or a look-alike', () => {
    assert.ok(!hostCovered('*', ['*.github.com']));
    assert.ok(!hostCovered('*.github.com', ['api.github.com']));
    assert.ok(!hostCovered('evilgithub.com', ['*.github.com']));
    assert.ok(!hostCovered('github.com.evil', ['github.com']));
  });
});

describe('userMode', () => {
  const update = (key: string, value: unknown) =>
    ({ kind: 'ConversationStateUpdateEvent', key, value }) as unknown as Event;
  const handoff = update('agent_start', { agent_name: 'reader', branch: 'main', handoff: true });

  it('is act with no mode recorded', () => assert.equal(userMode([]), 'act'));

  it("is the user's plan, kept through a handoff", () =>
    assert.equal(userMode([update('agent_mode', 'plan'), handoff]), 'plan'));

  it('skips the plan a plan agent took over in, so the user’s act stays the ceiling', () =>
    assert.equal(userMode([handoff, update('agent_mode', 'plan')]), 'act'));

  it('counts a switch the user made after the handoff', () =>
    assert.equal(
      userMode([
        handoff,
        update('agent_mode', 'plan'),
        update('llm_usage', {}),
        update('agent_mode', 'plan'),
      ]),
      'plan',
    ));
});

const TOOLS = ['file_editor', 'terminal', 'grep', 'glob', 'delegate', 'docs/*', 'docs/search'];
const HOSTS = [
  '*',
  '*.github.com',
  'api.github.com',
  'github.com',
  '*.api.github.com',
  '*.npmjs.org',
  'evil.example',
];
/** Names the hosts' lists are compared on, as the sandbox's proxy matches them. */
const PROBES = [
  'github.com',
  'api.github.com',
  'x.api.github.com',
  'registry.npmjs.org',
  'npmjs.org',
  'evil.example',
  'other.net',
];
const CONFIRMATIONS = ['always', 'risky', 'never'] as const;
const cap = (max: number) => fc.option(fc.integer({ min: 1, max }), { nil: null });

interface Tree {
  def: AgentDefinition;
  children: Tree[];
}

const defArb = fc
  .record({
    mode: fc.constantFrom<'plan' | 'act'>('plan', 'act'),
    tools: fc.option(fc.subarray(TOOLS), { nil: null }),
    confirmation: fc.option(fc.constantFrom(...CONFIRMATIONS), { nil: null }),
    maxIterations: cap(200),
    maxTokens: cap(10_000),
    maxCost: cap(20),
    allowedHosts: fc.option(fc.subarray(HOSTS), { nil: null }),
  })
  .map(({ mode, tools, ...more }) => def(mode, tools, more));

const rootArb: fc.Arbitrary<AgentGrant> = fc.record({
  mode: fc.constantFrom<'plan' | 'act'>('plan', 'act'),
  tools: fc.option(fc.subarray(TOOLS), { nil: null }),
  confirmation: fc.constantFrom(...CONFIRMATIONS),
  maxIterations: cap(200),
  maxTokens: cap(10_000),
  maxCost: cap(20),
  allowedHosts: fc.option(fc.subarray(HOSTS), { nil: null }),
});

/** Trees up to `n` levels deep. */
const treeArb: fc.Memo<Tree> = fc.memo((n) =>
  fc.record({
    def: defArb,
    children: n <= 1 ? fc.constant([]) : fc.array(treeArb(n - 1), { maxLength: 3 }),
  }),
);

const WIDTH = { always: 0, risky: 1, never: 2 };

/** Why `child`'s grant exceeds `root`'s on some dimension, or null when it is within. */
function exceeds(child: AgentGrant, root: AgentGrant): string | null {
  if (root.mode === 'plan' && child.mode !== 'plan') return 'mode';
  if (root.tools !== null) {
    if (child.tools === null) return 'tools';
    const has = (t: string) => root.tools!.includes(t) || root.tools!.includes(`${t.split('/')[0]}/*`);
    if (!child.tools.every((t) => t === 'finish' || has(t))) return 'tools';
  }
  if (WIDTH[child.confirmation] > WIDTH[root.confirmation]) return 'confirmation';
  for (const k of ['maxIterations', 'maxTokens', 'maxCost'] as const)
    if (root[k] !== null && (child[k] === null || child[k] > root[k])) return k;
  if (root.allowedHosts !== null) {
    if (child.allowedHosts === null) return 'allowedHosts';
    const reaches = PROBES.find(
      (h) => hostAllowed(h, child.allowedHosts!) && !hostAllowed(h, root.allowedHosts!),
    );
    if (reaches) return `allowedHosts (${reaches})`;
  }
  return null;
}

describe('effectiveGrant over trees of delegations', () => {
  it("no descendant's grant exceeds its root's on any dimension, nor on resume", () => {
    fc.assert(
      fc.property(rootArb, treeArb(4), (root, tree) => {
        const walk = (parent: AgentGrant, t: Tree, ancestors: AgentGrant[]): void => {
          const g = effectiveGrant(parent, t.def).grant;
          // A resume reads the recorded grant back within its parent's.
          const resumed = grantWithin(parent, g);
          for (const a of ancestors)
            for (const x of [g, resumed]) {
              const why = exceeds(x, a);
              assert.equal(why, null, JSON.stringify({ why, x, a }));
            }
          for (const c of t.children) walk(g, c, [...ancestors, g]);
        };
        walk(root, tree, [root]);
      }),
      { seed: 47, numRuns: 500 },
    );
  });
});
