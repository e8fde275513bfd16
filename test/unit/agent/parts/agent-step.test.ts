// The agent's step: its request goes through the policies (a stop means no call; the messages are
// theirs) to a real client and scripted server; its reply is recorded as a message or as actions,
// each call refused, invalid or pending as the policies and the tools say.
import * as assert from 'node:assert/strict';
import { AgentStep } from '../../../../src/core/agent/agent-step';
import type { ConversationPolicy } from '../../../../src/core/agent/policies/policy';
import { recordReply } from '../../../../src/core/agent/reply-actions';
import type { CreateFields } from '../../../../src/core/events';
import { OpenAiLlmClient } from '../../../../src/core/llm';
import { LLM_USAGE_KEY } from '../../../../src/core/state';
import { startScriptedLlm, type ScriptedLlm } from '../../../support/llm-server';
import { noteTool, ofKind, openJournal, policiesOver, reply, updates } from '../../../support/loop-parts';

describe('agent step: the reply recorded', () => {
  it('a reply without calls: its usage, what the policies say after it, then its message; the agent is done', async () => {
    const f = await openJournal();
    const afterReply: ConversationPolicy = {
      name: 'after',
      afterReply: async (_r, { log }) =>
        void (await log.append('ConversationStateUpdateEvent', { key: 'seen', value: true })),
    };
    const outcome = await recordReply(reply([], 'All done.'), {
      log: f.journal,
      policies: policiesOver([afterReply], f),
      tools: () => [],
    });
    assert.equal(outcome, 'finished');
    assert.deepEqual(
      f.seen.map((e) => (e.kind === 'ConversationStateUpdateEvent' ? e.key : e.kind)),
      [LLM_USAGE_KEY, 'seen', 'MessageEvent'],
    );
    assert.equal(f.journal.state.status, 'finished');
  });

  it('each call is recorded in order: refused before validation, invalid, refused once valid, or pending', async () => {
    const f = await openJournal();
    const note = noteTool('note');
    const policies = policiesOver(
      [
        { name: 'cap', refuseCall: ({ index }) => (index === 0 ? 'over the cap' : null) },
        {
          name: 'mode',
          refuseValidCall: ({ args }) => (args.text === 'write' ? 'plan mode refuses it' : null),
        },
      ],
      f,
    );
    const outcome = await recordReply(
      reply(
        [
          { name: 'note', args: { text: 'first', security_risk: 'LOW' } },
          { name: 'missing', args: {} },
          { name: 'note', args: { text: 'write', security_risk: 'LOW' } },
          { name: 'note', args: { text: 'fine', security_risk: 'LOW' } },
        ],
        'Let me note things.',
      ),
      { log: f.journal, policies, tools: () => [note] },
    );
    assert.equal(outcome, 'llm');
    const actions = ofKind(f.seen, 'ActionEvent');
    assert.deepEqual(
      actions.map((a) => [a.tool_call_id, a.action === null]),
      [
        ['call_0', true],
        ['call_1', true],
        ['call_2', true],
        ['call_3', false],
      ],
    );
    assert.deepEqual(
      actions.map((a) => a.thought.length),
      [1, 0, 0, 0],
      'the reply text rides on its first call only',
    );
    const errors = ofKind(f.seen, 'AgentErrorEvent').map((e) => [e.tool_call_id, e.error]);
    assert.deepEqual(errors[0], ['call_0', 'over the cap']);
    assert.match(errors[1]![1]!, /Tool "missing" does not exist/);
    assert.deepEqual(errors[2], ['call_2', 'plan mode refuses it']);
    assert.deepEqual(
      f.journal.state.pendingActions.map((p) => p.actionId),
      [actions[3]!.id],
    );
  });
});

describe('agent step: the request', function () {
  this.timeout(20_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  async function stepWith(policies: ConversationPolicy[]) {
    llm = await startScriptedLlm({
      scenario: {
        name: 'one-reply',
        turns: [{ match: { lastRole: 'user' }, reply: { content: 'Hello back.' } }],
      },
    });
    const client = new OpenAiLlmClient(
      { baseUrl: llm.baseUrl, apiKey: 'test-key', model: 'scripted-model', maxRetries: 1 },
      { sleep: async () => {} },
    );
    const f = await openJournal();
    await f.journal.append('SystemPromptEvent', {
      system_prompt: { type: 'text', text: 'You help.' },
      tools: [],
    });
    await f.journal.append('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'Hello.' }] },
    } as CreateFields<'MessageEvent'>);
    const deltas: string[] = [];
    const step = new AgentStep({
      id: 'parts-test',
      llm: client,
      log: f.journal,
      prompt: () => f.memory.prompt(),
      policies: policiesOver(policies, f),
      tools: () => [noteTool('note')],
      abortable: () => new AbortController().signal,
      emitDelta: (d) => deltas.push(d.type),
    });
    return { f, step, deltas, llm };
  }

  it("asks the model with the policies' messages and the tools offered, streams, and records the reply", async () => {
    const addNote: ConversationPolicy = {
      name: 'note-in-prompt',
      messages: (m) => [...m, { role: 'user', content: 'A policy speaks.' }],
    };
    const { f, step, deltas, llm } = await stepWith([addNote]);
    assert.equal(await step.take(), 'finished');
    const [body] = llm.completionBodies();
    const messages = body!.messages as { content: unknown }[];
    assert.equal(messages.at(-1)!.content, 'A policy speaks.');
    assert.deepEqual(
      (body!.tools as { function: { name: string } }[]).map((t) => t.function.name),
      ['note'],
    );
    assert.equal(deltas.at(-1), 'end');
    assert.equal(updates(f.seen, LLM_USAGE_KEY).length, 1);
    assert.equal(ofKind(f.seen, 'MessageEvent').at(-1)!.source, 'agent');
  });

  it('makes no call when a policy stops the request', async () => {
    const { step, llm } = await stepWith([{ name: 'over', beforeRequest: async () => 'stop' }]);
    assert.equal(await step.take(), 'error');
    assert.equal(llm.completionBodies().length, 0);
  });
});
