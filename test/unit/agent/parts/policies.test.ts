// The policies of a conversation: the one interface the loop consults them through (their order,
// the first stop, the first refusal) and what each default policy does on a real log.
import * as assert from 'node:assert/strict';
import type { ConversationPolicy } from '../../../../src/core/agent/policies/policy';
import { budgetPolicy } from '../../../../src/core/agent/policies/budget-policy';
import { callCapPolicy } from '../../../../src/core/agent/policies/call-cap-policy';
import { costUnknownPolicy } from '../../../../src/core/agent/policies/cost-unknown-policy';
import { defaultPolicies } from '../../../../src/core/agent/policies/default-policies';
import { planModePolicy } from '../../../../src/core/agent/policies/plan-mode-policy';
import { sandboxPolicy } from '../../../../src/core/agent/policies/sandbox-policy';
import { shellPolicy } from '../../../../src/core/agent/policies/shell-policy';
import { stuckPolicy } from '../../../../src/core/agent/policies/stuck-policy';
import { TOOLS_DISABLED_ERROR, ToolSet } from '../../../../src/core/agent/policies/tool-set';
import { PLAN_MODE_PROMPT } from '../../../../src/core/agent/plan-mode';
import { COST_UNKNOWN_KEY } from '../../../../src/core/agent/cost-cap';
import { TOOL_SOURCE_KEY, type ToolSource } from '../../../../src/core/agent/ports';
import {
  AGENT_MODE_KEY,
  LLM_USAGE_KEY,
  llmUsageValue,
  SANDBOX_KEY,
  TOOLS_OFFERED_KEY,
} from '../../../../src/core/state';
import { SHELL_KEY, type SandboxNotice, type ShellNotice } from '../../../../src/core/state';
import { defaultTools } from '../../../../src/core/tools';
import type { CreateFields } from '../../../../src/core/events';
import {
  noteTool,
  ofKind,
  openJournal,
  policiesOver,
  policyContext,
  reply,
  updates,
  type JournalFixture,
} from '../../../support/loop-parts';

/** A policy that notes when it is asked and answers as told. */
function probe(name: string, asked: string[], answer: { verdict?: 'go' | 'stop'; refusal?: string | null }) {
  return {
    name,
    beforeRequest: async () => {
      asked.push(`${name}.beforeRequest`);
      return answer.verdict ?? 'go';
    },
    beforeNextStep: async () => {
      asked.push(`${name}.beforeNextStep`);
      return answer.verdict ?? 'go';
    },
    refuseCall: () => {
      asked.push(`${name}.refuseCall`);
      return answer.refusal ?? null;
    },
    refuseAction: () => {
      asked.push(`${name}.refuseAction`);
      return answer.refusal ?? null;
    },
    messages: (m) => {
      asked.push(`${name}.messages`);
      return [...m, { role: 'user' as const, content: name }];
    },
  } satisfies ConversationPolicy;
}

async function useTokens(f: JournalFixture, promptTokens: number, completionTokens: number, cost = 0) {
  const usage = llmUsageValue('agent', { ...reply([], '', { promptTokens, completionTokens }), cost });
  await f.journal.append('ConversationStateUpdateEvent', { key: LLM_USAGE_KEY, value: usage });
}

describe('conversation policies: the interface the loop consults', () => {
  it('asks in order and stops at the first stop: later policies are not asked', async () => {
    const f = await openJournal();
    const asked: string[] = [];
    const p = policiesOver(
      [probe('a', asked, {}), probe('b', asked, { verdict: 'stop' }), probe('c', asked, {})],
      f,
    );
    assert.equal(await p.beforeRequest(), 'stop');
    assert.equal(await p.beforeNextStep(), 'stop');
    assert.deepEqual(asked, ['a.beforeRequest', 'b.beforeRequest', 'a.beforeNextStep', 'b.beforeNextStep']);
  });

  it('goes on when every policy says go, and a policy without the hook is skipped', async () => {
    const f = await openJournal();
    const asked: string[] = [];
    const p = policiesOver([probe('a', asked, {}), { name: 'silent' }, probe('c', asked, {})], f);
    assert.equal(await p.beforeRequest(), 'go');
    assert.deepEqual(asked, ['a.beforeRequest', 'c.beforeRequest']);
  });

  it('the first refusal wins, and the request messages pass through each policy in turn', async () => {
    const f = await openJournal();
    const asked: string[] = [];
    const p = policiesOver(
      [
        probe('a', asked, {}),
        probe('b', asked, { refusal: 'b says no' }),
        probe('c', asked, { refusal: 'c too' }),
      ],
      f,
    );
    assert.equal(p.refuseCall({ name: 'x', index: 0, total: 1 }), 'b says no');
    assert.deepEqual(
      p.messages([{ role: 'system', content: 's' }]).map((m) => m.content),
      ['s', 'a', 'b', 'c'],
    );
  });

  it('the default policies, in the order the loop relies on', async () => {
    const f = await openJournal();
    const toolSet = new ToolSet([], undefined, () => policyContext(f).settings);
    const names = defaultPolicies({
      toolSet,
      planMode: { cwd: '/ws', shellCwd: () => undefined, tools: () => [] },
      model: () => 'm',
    }).map((p) => p.name);
    // The budget before anything is recorded for a request, the cap before tools are asked about
    // a call, the stuck detector only once the budget lets the run go on.
    assert.deepEqual(names, [
      'budget',
      'sandbox',
      'shell',
      'call-cap',
      'tools',
      'plan-mode',
      'cost-unknown',
      'stuck',
    ]);
  });
});

describe('conversation policies: each default policy', () => {
  it('budget: stops and records why once the tokens are over the budget, not at the budget', async () => {
    const f = await openJournal();
    const ctx = policyContext(f, { maxTokens: 30 });
    await useTokens(f, 20, 10);
    assert.equal(await budgetPolicy.beforeRequest!(ctx), 'go');
    await useTokens(f, 1, 0);
    assert.equal(await budgetPolicy.beforeNextStep!(ctx), 'stop');
    const [error] = ofKind(f.seen, 'ConversationErrorEvent');
    assert.equal(error?.code, 'token_budget');
    assert.match(error!.detail, /31 tokens, over its budget of 30/);
    assert.equal(f.journal.state.status, 'error');
  });

  it('budget: a cost over the cap stops too', async () => {
    const f = await openJournal();
    await useTokens(f, 1, 1, 0.5);
    assert.equal(await budgetPolicy.beforeRequest!(policyContext(f, { maxCost: 0.25 })), 'stop');
    assert.equal(ofKind(f.seen, 'ConversationErrorEvent')[0]?.code, 'cost_budget');
  });

  it('call cap: refuses the calls past the cap with the error the model reads', async () => {
    const f = await openJournal();
    const ctx = policyContext(f, { maxToolCallsPerReply: 2 });
    assert.equal(callCapPolicy.refuseCall!({ name: 't', index: 1, total: 3 }, ctx), null);
    assert.match(
      callCapPolicy.refuseCall!({ name: 't', index: 2, total: 3 }, ctx)!,
      /made 3 tool calls; only the first 2 run/,
    );
  });

  it('tools: none while tools are disabled, every call refused; the built-in array itself otherwise', async () => {
    const f = await openJournal();
    const builtIn = defaultTools();
    const ctx = policyContext(f);
    const set = new ToolSet(builtIn, undefined, () => ctx.settings);
    assert.equal(set.active(), builtIn);
    assert.equal(set.refuseCall(undefined, ctx), null);
    ctx.settings = { ...ctx.settings, toolsEnabled: false };
    assert.deepEqual(set.active(), []);
    assert.equal(set.refuseCall(undefined, ctx), TOOLS_DISABLED_ERROR);
  });

  it('tools: starts the outside tools once per prepare, records what they offer when it changes and their notices', async () => {
    const f = await openJournal();
    const ctx = policyContext(f);
    let outside = [noteTool('mcp_note')];
    const notices = [{ source: 'mcp:notes', message: 'started' }];
    let prepared = 0;
    const source: ToolSource = {
      prepare: async () => void prepared++,
      tools: () => outside,
      takeNotices: () => notices.splice(0),
    };
    const set = new ToolSet([noteTool('note')], source, () => ctx.settings);
    await set.prepare(ctx);
    assert.equal(prepared, 1);
    assert.deepEqual(
      updates(f.seen, TOOL_SOURCE_KEY).map((e) => e.value),
      [{ source: 'mcp:notes', message: 'started' }],
    );
    assert.deepEqual(
      set.active().map((t) => t.name),
      ['note', 'mcp_note'],
    );
    await set.beforeRequest(ctx);
    await set.beforeRequest(ctx);
    assert.equal(updates(f.seen, TOOLS_OFFERED_KEY).length, 1, 'recorded again though nothing changed');
    outside = [];
    await set.beforeRequest(ctx);
    assert.equal(updates(f.seen, TOOLS_OFFERED_KEY).length, 2);
    // An untrusted workspace starts nothing.
    ctx.settings = { ...ctx.settings, toolsEnabled: false };
    await set.prepare(ctx);
    assert.equal(prepared, 1);
  });

  it('plan mode: in plan mode only, a call that writes is refused, one that reads is not, and the prompt says so', async () => {
    const f = await openJournal();
    const ctx = policyContext(f);
    const tools = defaultTools();
    const editor = tools.find((t) => t.name === 'file_editor')!;
    const policy = planModePolicy({ cwd: '/ws', shellCwd: () => undefined, tools: () => tools });
    const write = { spec: editor, args: { command: 'create', path: 'a.txt', file_text: 'x' } };
    const view = { spec: editor, args: { command: 'view', path: 'a.txt' } };
    const system = [{ role: 'system' as const, content: 'base' }];
    assert.equal(policy.refuseValidCall!(write, ctx), null);
    assert.deepEqual(policy.messages!(system, ctx), system);
    await f.journal.append('ConversationStateUpdateEvent', { key: AGENT_MODE_KEY, value: 'plan' });
    assert.match(policy.refuseValidCall!(write, ctx)!, /plan mode.*file_editor create changes files/);
    assert.equal(policy.refuseValidCall!(view, ctx), null);
    assert.equal(policy.messages!(system, ctx)[0]!.content, `base\n\n${PLAN_MODE_PROMPT}`);
  });

  it('sandbox: recorded before a request when it differs from the log, once, and only where tools run', async () => {
    const f = await openJournal();
    const ctx = policyContext(f);
    let now: SandboxNotice = { state: 'on', message: 'Commands run in a sandbox.' };
    const policy = sandboxPolicy(() => now);
    await policy.beforeRequest!(ctx);
    await policy.beforeRequest!(ctx);
    assert.equal(updates(f.seen, SANDBOX_KEY).length, 1);
    now = { state: 'unavailable', message: 'No sandbox can start here.' };
    ctx.settings = { ...ctx.settings, toolsEnabled: false };
    await policy.beforeRequest!(ctx);
    assert.equal(updates(f.seen, SANDBOX_KEY).length, 1, 'recorded with tools disabled');
    ctx.settings = { ...ctx.settings, toolsEnabled: true };
    await policy.beforeRequest!(ctx);
    assert.equal(updates(f.seen, SANDBOX_KEY).length, 2);
  });

  it('shell: the kind of shell recorded before a request when it differs from the log, only where tools run', async () => {
    const f = await openJournal();
    const ctx = policyContext(f);
    let now: ShellNotice = { startup: 'user' };
    const policy = shellPolicy(() => now);
    await policy.beforeRequest!(ctx);
    await policy.beforeRequest!(ctx);
    assert.equal(updates(f.seen, SHELL_KEY).length, 1);
    assert.deepEqual(f.journal.state.shell, { startup: 'user' });
    now = { startup: 'none' };
    ctx.settings = { ...ctx.settings, toolsEnabled: false };
    await policy.beforeRequest!(ctx);
    assert.equal(updates(f.seen, SHELL_KEY).length, 1, 'recorded with tools disabled');
    ctx.settings = { ...ctx.settings, toolsEnabled: true };
    await policy.beforeRequest!(ctx);
    assert.equal(updates(f.seen, SHELL_KEY).length, 2);
    // A host that does not say which shell records nothing.
    await shellPolicy(undefined).beforeRequest!(ctx);
    assert.equal(updates(f.seen, SHELL_KEY).length, 2);
  });

  it('cost unknown: said once per model while a cost cap is set', async () => {
    const f = await openJournal();
    const ctx = policyContext(f, { maxCost: 1 });
    let model = 'unpriced-a';
    const policy = costUnknownPolicy(() => model);
    const unknown = { ...reply([]), costSource: 'unknown' as const };
    await policy.afterReply!(unknown, ctx);
    await policy.afterReply!(unknown, ctx);
    model = 'unpriced-b';
    await policy.afterReply!(unknown, ctx);
    model = 'priced-c';
    await policy.afterReply!({ ...unknown, costSource: 'provider' as const }, ctx);
    assert.deepEqual(
      updates(f.seen, COST_UNKNOWN_KEY).map((e) => (e.value as { model: string }).model),
      ['unpriced-a', 'unpriced-b'],
    );
  });

  it('stuck: the same failing call is nudged first, then the run stops as stuck', async () => {
    const f = await openJournal();
    const ctx = policyContext(f, { stuck: { ...policyContext(f).settings.stuck } });
    const verdicts: string[] = [];
    for (let i = 0; i < 8 && verdicts.at(-1) !== 'stop'; i++) {
      const tool_call = { id: `c${i}`, name: 'nope', arguments: '{}', origin: 'completion' };
      await f.journal.append('ActionEvent', {
        thought: [],
        reasoning_content: null,
        action: null,
        tool_name: 'nope',
        tool_call_id: tool_call.id,
        tool_call,
        llm_response_id: `r${i}`,
        security_risk: 'UNKNOWN',
        summary: null,
      } as CreateFields<'ActionEvent'>);
      await f.journal.append('AgentErrorEvent', {
        error: 'Tool "nope" does not exist.',
        tool_name: 'nope',
        tool_call_id: tool_call.id,
      } as CreateFields<'AgentErrorEvent'>);
      verdicts.push(await stuckPolicy.beforeNextStep!(ctx));
    }
    assert.equal(verdicts.at(-1), 'stop');
    assert.equal(ofKind(f.seen, 'MessageEvent').filter((m) => m.source === 'environment').length, 1);
    assert.equal(f.journal.state.status, 'stuck');
  });
});
