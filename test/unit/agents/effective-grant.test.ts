// A child or a handoff never has more than its parent: the unit cases of effectiveGrant, and a
// property over random trees of delegations (each level's grant computed from the one above).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { EXPLORE_AGENT, type AgentDefinition } from '../../../src/core/agents/definition';
import { type AgentGrant, effectiveGrant, grantOf, userMode } from '../../../src/core/agents/effective-grant';
import type { Event } from '../../../src/core/events';

const def = (mode: 'plan' | 'act', tools: string[] | null): AgentDefinition => ({
  ...EXPLORE_AGENT,
  name: 'builder',
  mode,
  tools,
});

describe('effectiveGrant', () => {
  it('keeps plan when the parent is in plan and the definition asks for act, and says so', () => {
    const g = effectiveGrant({ mode: 'plan', tools: null }, def('act', null));
    assert.equal(g.agent.mode, 'plan');
    assert.deepEqual(g.narrowed, [
      'asked for act mode; the conversation is in plan mode, so it runs in plan mode',
    ]);
  });

  it('lets a definition narrow act to plan, with nothing to report', () => {
    const g = effectiveGrant({ mode: 'act', tools: null }, def('plan', ['grep']));
    assert.equal(g.agent.mode, 'plan');
    assert.deepEqual(g.agent.tools, ['grep']);
    assert.deepEqual(g.narrowed, []);
  });

  it('gives an act definition act under an act parent', () => {
    const g = effectiveGrant({ mode: 'act', tools: null }, def('act', null));
    assert.equal(g.agent.mode, 'act');
    assert.equal(g.agent.tools, null);
    assert.deepEqual(g.narrowed, []);
  });

  it('keeps only the tools the parent has, and names the others', () => {
    const g = effectiveGrant({ mode: 'act', tools: ['grep', 'glob'] }, def('act', ['grep', 'terminal']));
    assert.deepEqual(g.agent.tools, ['grep']);
    assert.deepEqual(g.narrowed, ['asked for terminal, which its parent does not have']);
  });

  it("gives a definition without a tools list its parent's tools", () => {
    const g = effectiveGrant({ mode: 'act', tools: ['grep'] }, def('act', null));
    assert.deepEqual(g.agent.tools, ['grep']);
    assert.equal(g.narrowed.length, 1);
  });

  it("covers an MCP tool by its parent's server/*", () => {
    const g = effectiveGrant({ mode: 'act', tools: ['docs/*'] }, def('act', ['docs/search', 'web/get']));
    assert.deepEqual(g.agent.tools, ['docs/search']);
  });

  it('leaves the definition itself unchanged', () => {
    const d = def('act', ['grep', 'terminal']);
    effectiveGrant({ mode: 'plan', tools: ['grep'] }, d);
    assert.equal(d.mode, 'act');
    assert.deepEqual(d.tools, ['grep', 'terminal']);
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

interface Tree {
  def: AgentDefinition;
  children: Tree[];
}

const defArb = fc
  .record({
    mode: fc.constantFrom<'plan' | 'act'>('plan', 'act'),
    tools: fc.option(fc.subarray(TOOLS), { nil: null }),
  })
  .map((d) => def(d.mode, d.tools));

/** Trees up to `n` levels deep. */
const treeArb: fc.Memo<Tree> = fc.memo((n) =>
  fc.record({
    def: defArb,
    children: n <= 1 ? fc.constant([]) : fc.array(treeArb(n - 1), { maxLength: 3 }),
  }),
);

/** Whether `child`'s grant is within `root`'s: no act under plan, no tool the root lacks. */
function within(child: AgentGrant, root: AgentGrant): boolean {
  if (root.mode === 'plan' && child.mode !== 'plan') return false;
  if (root.tools === null) return true;
  if (child.tools === null) return false;
  return child.tools.every((t) => root.tools!.includes(t) || root.tools!.includes(`${t.split('/')[0]}/*`));
}

describe('effectiveGrant over trees of delegations', () => {
  it("no descendant's mode or tools exceed its root's", () => {
    fc.assert(
      fc.property(fc.constantFrom<'plan' | 'act'>('plan', 'act'), treeArb(4), (rootMode, tree) => {
        const root: AgentGrant = { mode: rootMode, tools: null };
        const walk = (parent: AgentGrant, t: Tree, ancestors: AgentGrant[]): void => {
          const g = grantOf(effectiveGrant(parent, t.def).agent);
          for (const a of ancestors) assert.ok(within(g, a), JSON.stringify({ g, a }));
          for (const c of t.children) walk(g, c, [...ancestors, g]);
        };
        walk(root, tree, [root]);
      }),
      { seed: 47, numRuns: 300 },
    );
  });
});
