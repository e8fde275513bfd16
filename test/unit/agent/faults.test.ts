import * as assert from 'node:assert/strict';
import type { Event } from '../../../src/core/events';
import { observationText, textOf } from '../../../src/core/events';
import type { Scenario } from '../../support/llm-server';
import { createHarness, type Harness, type HarnessOptions } from '../../support/agent-harness';

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

const echo = (id: string, text: string) => ({
  id,
  name: 'terminal',
  arguments: { command: `echo ${text}`, security_risk: 'LOW', summary: `echo ${text}` },
});

describe('Conversation: LLM faults', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function runTask(scenario: Scenario, options: HarnessOptions = {}, message = 'do the task') {
    h = await createHarness(scenario, {}, options);
    const c = await h.open();
    await c.sendMessage(message);
    const status = await c.run();
    return { c, status, events: await c.events() };
  }

  it('waits as long as a 429 Retry-After asks, then continues to the end', async () => {
    const waits: number[] = [];
    const { status, events } = await runTask(
      {
        name: '429',
        turns: [{ fault: { status: 429, retryAfter: 2 } }, { reply: { content: 'Done after the wait.' } }],
      },
      { clientDeps: { sleep: async (ms) => void waits.push(ms) } },
    );
    assert.equal(status, 'finished');
    assert.equal(h!.llm.completionBodies().length, 2);
    assert.deepEqual(waits, [2000]);
    assert.equal(ofKind(events, 'ConversationErrorEvent').length, 0);
    assert.equal(ofKind(events, 'MessageEvent').at(-1)!.source, 'agent');
  });

  it('honours retry-after-ms too', async () => {
    const waits: number[] = [];
    const { status } = await runTask(
      {
        name: '429-ms',
        turns: [{ fault: { status: 429, retryAfterMs: 250 } }, { reply: { content: 'ok' } }],
      },
      { clientDeps: { sleep: async (ms) => void waits.push(ms) } },
    );
    assert.equal(status, 'finished');
    assert.deepEqual(waits, [250]);
  });

  it('stops at once with a clear error when a 429 asks for a longer wait than it allows', async () => {
    const { status, events } = await runTask({
      name: '429-long',
      turns: [{ fault: { status: 429, retryAfter: 600 } }, { reply: { content: 'never' } }],
    });
    assert.equal(status, 'error');
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'llm_rate_limited');
    assert.match(err.detail, /retry after 600 s/);
    assert.equal(h!.llm.completionBodies().length, 1);
  });

  it('retries a 500 once, then continues to the end', async () => {
    const { status, events } = await runTask({
      name: '500-once',
      turns: [
        { fault: { status: 500 } },
        { reply: { toolCalls: [echo('call_1', 'after-500')] } },
        { match: { toolResultIncludes: 'after-500' }, reply: { content: 'All good.' } },
      ],
    });
    assert.equal(status, 'finished');
    assert.equal(h!.llm.completionBodies().length, 3);
    assert.equal(ofKind(events, 'ConversationErrorEvent').length, 0);
    assert.equal(ofKind(events, 'ObservationEvent').length, 1);
  });

  it('still finishes when the first byte is slow', async () => {
    const t0 = Date.now();
    const { status } = await runTask({
      name: 'slow-first-byte',
      turns: [{ fault: { slowFirstByteMs: 300 }, reply: { content: 'Slow but fine.' } }],
    });
    assert.equal(status, 'finished');
    assert.ok(Date.now() - t0 >= 290, 'the server really waited');
    assert.equal(h!.llm.completionBodies().length, 1);
  });

  it('times out a first byte slower than the configured timeout', async () => {
    const { status, events } = await runTask(
      {
        name: 'too-slow',
        turns: [{ fault: { slowFirstByteMs: 2_000 }, reply: { content: 'too late' }, repeat: 2 }],
      },
      { llmSettings: { timeoutMs: 150, maxRetries: 0 } },
    );
    assert.equal(status, 'error');
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'llm_timeout');
    assert.match(err.detail, /150 ms/);
  });

  it('retries a connection dropped before any chunk, then continues', async () => {
    const { status } = await runTask({
      name: 'drop-early',
      turns: [
        { fault: { disconnectAfterChunks: 0 }, reply: { content: 'lost' } },
        { reply: { content: 'Second try worked.' } },
      ],
    });
    assert.equal(status, 'finished');
    assert.equal(h!.llm.completionBodies().length, 2);
  });

  it('retries a stream dropped after one delta: one reply, the retry recorded, a valid request', async () => {
    const shown: string[] = [];
    const scenario: Scenario = {
      name: 'drop-after-one-delta',
      turns: [
        {
          fault: { disconnectAfterChunks: 2 },
          reply: { content: 'Half of an answer that never ends.', chunkSize: 8 },
        },
        { reply: { content: 'The whole answer.' } },
      ],
    };
    h = await createHarness(scenario);
    const c = await h.open();
    // What a chat shows: the streamed text, cleared when told to discard it.
    c.onDelta((d) => {
      if (d.type === 'text') shown.push(d.text);
      if (d.type === 'discard') shown.length = 0;
    });
    await c.sendMessage('explain');
    assert.equal(await c.run(), 'finished');
    assert.equal(shown.join(''), 'The whole answer.', 'the partial reply was cleared, not shown twice');
    const events = await c.events();
    const replies = ofKind(events, 'MessageEvent').filter((m) => m.source === 'agent');
    assert.equal(replies.length, 1);
    assert.match(JSON.stringify(replies[0]!.llm_message.content), /The whole answer\./);
    assert.doesNotMatch(JSON.stringify(events), /Half of an answer/, 'the partial reply is never recorded');
    const retries = ofKind(events, 'ConversationStateUpdateEvent').filter((e) => e.key === 'llm_retry');
    assert.equal(retries.length, 1);
    assert.deepEqual(
      { ...(retries[0]!.value as object), delay_ms: 0, endpoint: '', error: '' },
      {
        kind: 'connection',
        error: '',
        endpoint: '',
        attempt: 2,
        attempts: 2,
        delay_ms: 0,
        discarded_partial_reply: true,
      },
    );
    assert.match((retries[0]!.value as { error: string }).error, /connection to .* was lost/);
    assert.equal(ofKind(events, 'ConversationErrorEvent').length, 0);
    // The server validates every request like the real API: a 400 would have failed the run.
    const bodies = h.llm.completionBodies();
    assert.equal(bodies.length, 2);
    assert.deepEqual(bodies[1]!.messages, bodies[0]!.messages, 'the retry asks the same question');
  });

  it('ends in error once a mid-stream drop outlasts the retries, losing nothing recorded before', async () => {
    const deltas: string[] = [];
    const scenario: Scenario = {
      name: 'drop-mid-stream',
      turns: [
        { reply: { toolCalls: [echo('call_1', 'before-the-drop')] } },
        {
          match: { toolResultIncludes: 'before-the-drop' },
          fault: { disconnectAfterChunks: 3 },
          reply: { content: 'This answer is cut off somewhere in the middle of the stream.', chunkSize: 4 },
          repeat: 3,
        },
      ],
    };
    h = await createHarness(scenario);
    const c = await h.open();
    c.onDelta((d) => deltas.push(d.type));
    await c.sendMessage('echo something, then explain');
    const before = (await c.events()).length;
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'llm_connection');
    assert.match(err.detail, /connection to http:\/\/127\.0\.0\.1:\d+\/v1 was lost/);
    assert.match(err.detail, /Gave up after 2 attempts/);
    // Each partial reply reached the listener and was then discarded.
    assert.equal(deltas.filter((d) => d === 'discard').length, 2, JSON.stringify(deltas));
    assert.equal(deltas.at(-1), 'end');
    assert.equal(h.llm.completionBodies().length, 3);
    const retries = ofKind(events, 'ConversationStateUpdateEvent').filter((e) => e.key === 'llm_retry');
    assert.equal(retries.length, 1);
    // Nothing partial was recorded, and nothing before was lost.
    assert.equal(ofKind(events, 'MessageEvent').filter((m) => m.source === 'agent').length, 0);
    assert.ok(events.length > before);
    assert.equal(events[0]!.kind, 'SystemPromptEvent');
    const first = ofKind(events, 'MessageEvent')[0]!;
    assert.equal(first.source, 'user');
    assert.equal(events.indexOf(first), 1);
    const obs = ofKind(events, 'ObservationEvent');
    assert.equal(obs.length, 1);
    assert.match(observationText(obs[0]!.observation), /before-the-drop/);
    assert.equal(c.state.pendingActions.length, 0);
  });

  it('ends in error with a clear detail on a completion without choices', async () => {
    const { status, events } = await runTask({
      name: 'empty-choices',
      turns: [{ fault: { emptyChoices: true }, reply: { content: 'x' }, repeat: 3 }],
    });
    assert.equal(status, 'error');
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'llm_empty_response');
    assert.match(err.detail, /without choices/);
    assert.match(err.detail, /127\.0\.0\.1:\d+\/v1/);
  });

  it('ends in error on a context-window overflow when there is no condenser', async () => {
    const { status, events } = await runTask({
      name: 'context-no-condenser',
      turns: [{ fault: { code: 'context_length_exceeded' }, repeat: 3 }],
    });
    assert.equal(status, 'error');
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'llm_context_window_exceeded');
    assert.equal(h!.llm.completionBodies().length, 1, 'a prompt that does not fit is not retried as is');
    assert.ok(!events.some((e) => e.kind === 'CondensationRequest'));
  });
});

describe('Conversation: bad tool calls from the model', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('answers a malformed call of a parallel batch with an error and still runs the other one', async () => {
    h = await createHarness({
      name: 'half-bad-batch',
      turns: [
        {
          reply: {
            content: 'Two at once.',
            toolCalls: [
              { id: 'call_bad', name: 'terminal', arguments: '{"command": "echo broken", "summary": ' },
              echo('call_good', 'fine-output'),
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'fine-output' },
          reply: { content: 'One worked, one did not.' },
        },
      ],
    });
    const c = await h.open();
    await c.sendMessage('two commands');
    assert.equal(await c.run(), 'finished');
    const events = await c.events();
    const errors = ofKind(events, 'AgentErrorEvent');
    assert.deepEqual(
      errors.map((e) => e.tool_call_id),
      ['call_bad'],
    );
    assert.match(errors[0]!.error, /not valid JSON/);
    // Recorded as OpenHands records it: the bad call is an ActionEvent with no action, before its
    // error, and it carries the response's text.
    const actions = ofKind(events, 'ActionEvent');
    assert.deepEqual(
      actions.map((a) => [a.tool_call_id, a.action === null]),
      [
        ['call_bad', true],
        ['call_good', false],
      ],
    );
    assert.equal(textOf(actions[0]!.thought), 'Two at once.');
    assert.ok(events.indexOf(actions[0]!) < events.indexOf(errors[0]!));
    assert.deepEqual(c.state.pendingActions, [], 'a call with no action never waits');
    const obs = ofKind(events, 'ObservationEvent');
    assert.deepEqual(
      obs.map((o) => o.tool_call_id),
      ['call_good'],
    );
    assert.match(observationText(obs[0]!.observation), /fine-output/);
    // The next request answered both calls of the one assistant message, in the model's order.
    const messages = h.llm.completionBodies()[1]!.messages as {
      role: string;
      tool_call_id?: string;
      content?: unknown;
      tool_calls?: { id: string }[];
    }[];
    const assistant = messages.filter((m) => m.role === 'assistant');
    assert.equal(assistant.length, 1);
    assert.equal(assistant[0]!.content, 'Two at once.', "the model's text of that turn is kept");
    assert.deepEqual(
      assistant[0]!.tool_calls!.map((t) => t.id),
      ['call_bad', 'call_good'],
    );
    const tools = messages.filter((m) => m.role === 'tool');
    assert.deepEqual(
      tools.map((m) => m.tool_call_id),
      ['call_bad', 'call_good'],
    );
    assert.match(String(tools[0]!.content), /not valid JSON/);
  });

  it('answers an unknown tool with an error naming the available tools, and the model reads it', async () => {
    h = await createHarness({
      name: 'unknown-tool',
      turns: [
        { reply: { toolCalls: [{ id: 'call_web', name: 'browse_web', arguments: { url: 'https://x' } }] } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Available tools' },
          reply: { content: 'I will use the terminal instead.' },
        },
      ],
    });
    const c = await h.open();
    await c.sendMessage('look it up');
    assert.equal(await c.run(), 'finished');
    const err = ofKind(await c.events(), 'AgentErrorEvent')[0]!;
    assert.equal(err.tool_name, 'browse_web');
    assert.match(err.error, /Tool "browse_web" does not exist\. Available tools: .+\./);
    for (const name of ['terminal', 'file_editor', 'finish']) assert.ok(err.error.includes(name), name);
    const calls = ofKind(await c.events(), 'ActionEvent');
    assert.deepEqual(
      calls.map((a) => [a.tool_name, a.action]),
      [['browse_web', null]],
      'the call is recorded with no action, never run',
    );
  });
});
