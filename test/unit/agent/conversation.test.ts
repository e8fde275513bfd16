import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event } from '../../../src/core/events';
import { observationText } from '../../../src/core/events';
import { createHarness, type Harness } from '../../support/agent-harness';
import { LlmSummarizingCondenser } from '../../../src/core/context';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import { type SegmentEventStore } from '../../../src/core/log/segment-store';
import { RecoveryValueSchema } from '../../../src/core/state';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { loadScenarioFile, startScriptedLlm, type Scenario } from '../../support/llm-server';

const kinds = (events: readonly Event[]) => events.map((e) => e.kind);
const SCENARIOS = join(__dirname, '..', '..', 'fixtures', 'scenarios');

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

describe('Conversation: the agent loop against the scripted LLM', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('runs a multi-step task: creates a file, runs a command, reads its output, finishes', async () => {
    // Shared with the CLI's run test: create a file, show it in the terminal, finish.
    const scenario = await loadScenarioFile(join(SCENARIOS, 'create-show-finish.json'));
    h = await createHarness(scenario);
    const c = await h.open();
    await c.sendMessage('Write a greeting to hello.txt');
    const status = await c.run();
    assert.equal(status, 'finished');
    assert.equal(readFileSync(join(h.workspace, 'hello.txt'), 'utf8'), 'hello logbook\n');
    const events = await c.events();
    const observations = ofKind(events, 'ObservationEvent');
    assert.equal(observations.length, 3);
    const terminal = observations.find((o) => o.tool_name === 'terminal')!;
    assert.match(observationText(terminal.observation), /hello logbook/);
    assert.equal(terminal.observation['exit_code'], 0);
    assert.equal(h.llm.remainingTurns(), 0);
    // The server validated every request; the last one carried all three tool results in order.
    const last = h.llm.completionBodies().at(-1)!.messages as { role: string; tool_call_id?: string }[];
    assert.deepEqual(
      last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id),
      ['call_create', 'call_cat'],
    );
    assert.equal(c.state.metrics.total.calls, 3);
    assert.ok(c.state.metrics.total.promptTokens > 0);
  });

  it('executes parallel tool calls of one reply as one batch and answers each once', async () => {
    h = await createHarness({
      name: 'parallel',
      turns: [
        {
          reply: {
            content: 'Two things at once.',
            toolCalls: [
              {
                id: 'call_a',
                name: 'terminal',
                arguments: { command: 'echo A', security_risk: 'LOW', summary: 'a' },
              },
              {
                id: 'call_b',
                name: 'terminal',
                arguments: { command: 'echo B', security_risk: 'LOW', summary: 'b' },
              },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'B' }, reply: { content: 'Both ran.' } },
      ],
    });
    const c = await h.open();
    await c.sendMessage('run two commands');
    assert.equal(await c.run(), 'finished');
    const events = await c.events();
    const actions = ofKind(events, 'ActionEvent');
    assert.equal(actions.length, 2);
    assert.equal(actions[0]!.llm_response_id, actions[1]!.llm_response_id);
    assert.equal(actions[0]!.thought[0]?.text, 'Two things at once.');
    assert.deepEqual(actions[1]!.thought, []);
    const assistant = (
      h.llm.completionBodies()[1]!.messages as { role: string; tool_calls?: unknown[] }[]
    ).filter((m) => m.role === 'assistant');
    assert.equal(assistant.length, 1);
    assert.equal(assistant[0]!.tool_calls?.length, 2);
  });

  it('answers a malformed argument JSON and an unknown tool with AgentErrorEvents and keeps going', async () => {
    h = await createHarness({
      name: 'bad-calls',
      turns: [
        {
          reply: {
            toolCalls: [
              { id: 'call_bad', name: 'terminal', arguments: '{"command": "ls", ' },
              { id: 'call_unknown', name: 'browse_web', arguments: { url: 'x' } },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'does not exist' },
          reply: { content: 'Recovered.' },
        },
      ],
    });
    const c = await h.open();
    await c.sendMessage('go');
    assert.equal(await c.run(), 'finished');
    const errors = ofKind(await c.events(), 'AgentErrorEvent');
    assert.deepEqual(
      errors.map((e) => e.tool_call_id),
      ['call_bad', 'call_unknown'],
    );
    assert.match(errors[0]!.error, /Invalid arguments/);
  });

  it('stops with a clear ConversationErrorEvent when the LLM keeps failing, keeping what was recorded', async () => {
    h = await createHarness({ name: 'down', turns: [{ fault: { status: 500 }, repeat: 5 }] });
    const c = await h.open();
    await c.sendMessage('hello');
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'llm_server_error');
    assert.match(err.detail, /500/);
    assert.equal(ofKind(events, 'MessageEvent')[0]!.source, 'user');
  });

  it('waits for confirmation on a risky command, then runs it once approved', async () => {
    h = await createHarness(
      {
        name: 'confirm',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_rm',
                  name: 'terminal',
                  arguments: {
                    command: 'rm -rf build && echo removed',
                    security_risk: 'HIGH',
                    summary: 'clean build',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool', toolResultIncludes: 'removed' }, reply: { content: 'Cleaned.' } },
        ],
      },
      { confirmationMode: 'risky' },
    );
    const c = await h.open();
    await c.sendMessage('clean the build');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    assert.equal(c.awaitingConfirmation().length, 1);
    assert.equal(ofKind(await c.events(), 'ObservationEvent').length, 0, 'nothing ran before approval');
    await c.approve();
    assert.equal(await c.run(), 'finished');
    assert.equal(ofKind(await c.events(), 'ObservationEvent').length, 1);
  });

  it('rejects with a reason the agent reads, and the agent adapts', async () => {
    h = await createHarness(
      {
        name: 'reject',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_push',
                  name: 'terminal',
                  arguments: { command: 'git push --force', security_risk: 'HIGH', summary: 'push' },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'never force-push' },
            reply: { content: 'Understood, I will not push.' },
          },
        ],
      },
      { confirmationMode: 'risky' },
    );
    const c = await h.open();
    await c.sendMessage('publish it');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    await c.reject('never force-push');
    assert.equal(await c.run(), 'finished');
    const rejections = ofKind(await c.events(), 'UserRejectObservation');
    assert.equal(rejections.length, 1);
    assert.equal(rejections[0]!.rejection_reason, 'never force-push');
  });

  it('keeps a wait for confirmation across a process restart and resumes from the log', async () => {
    const scenario: Scenario = {
      name: 'restart',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_mk',
                name: 'terminal',
                arguments: { command: 'mkdir made && echo ok', security_risk: 'MEDIUM', summary: 'mkdir' },
              },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'ok' }, reply: { content: 'Made it.' } },
      ],
    };
    h = await createHarness(scenario, { confirmationMode: 'risky' });
    const store1 = await h.persistentStore();
    const first = await h.open({ store: store1 });
    await first.sendMessage('make a dir');
    assert.equal(await first.run(), 'waiting_for_confirmation');
    await store1.close();

    const second = await h.open({ store: await h.persistentStore() });
    assert.equal(second.status, 'waiting_for_confirmation');
    assert.equal(second.awaitingConfirmation()[0]?.tool_call_id, 'call_mk');
    await second.approve();
    assert.equal(await second.run(), 'finished');
    assert.ok(existsSync(join(h.workspace, 'made')));
  });

  it('pauses between steps and resumes where it left off', async () => {
    h = await createHarness({
      name: 'pause',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_sleep',
                name: 'terminal',
                arguments: { command: 'sleep 0.3; echo slept', security_risk: 'LOW', summary: 'wait' },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done after pause.' } },
      ],
    });
    const c = await h.open();
    await c.sendMessage('wait a bit');
    const running = c.run();
    await new Promise((r) => setTimeout(r, 100));
    await c.pause();
    assert.equal(await running, 'paused');
    assert.ok(kinds(await c.events()).includes('PauseEvent'));
    assert.equal(await c.run(), 'finished');
  });

  it('detects an agent repeating the same action with the same result and stops as stuck', async () => {
    const same = {
      toolCalls: [
        { name: 'terminal', arguments: { command: 'echo same', security_risk: 'LOW', summary: 'again' } },
      ],
    };
    h = await createHarness({ name: 'stuck', turns: [{ reply: same, repeat: 6 }] });
    const c = await h.open();
    await c.sendMessage('loop');
    assert.equal(await c.run(), 'stuck');
    const stuck = ofKind(await c.events(), 'ConversationStateUpdateEvent').find((e) => e.key === 'stuck')!;
    assert.equal((stuck.value as { pattern: string }).pattern, 'repeated_action_observation');
    assert.equal(ofKind(await c.events(), 'ActionEvent').length, 4);
  });

  it('stops at the iteration limit with an explanation', async () => {
    let n = 0;
    const turns = Array.from({ length: 3 }, () => ({
      reply: {
        toolCalls: [
          { name: 'terminal', arguments: { command: `echo step${n++}`, security_risk: 'LOW', summary: 's' } },
        ],
      },
    }));
    h = await createHarness({ name: 'limit', turns }, { maxIterations: 2 });
    const c = await h.open();
    await c.sendMessage('go on forever');
    assert.equal(await c.run(), 'error');
    assert.equal(ofKind(await c.events(), 'ConversationErrorEvent')[0]!.code, 'iteration_limit');
  });
});

describe('Conversation: condensation', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('turns a context-window error into a condensation, then retries the step with the summary', async () => {
    const steps = Array.from({ length: 5 }, (_, i) => ({
      reply: {
        toolCalls: [
          {
            id: `call_${i}`,
            name: 'terminal',
            arguments: { command: `echo step${i}`, security_risk: 'LOW', summary: `step ${i}` },
          },
        ],
      },
    }));
    h = await createHarness(
      {
        name: 'context-window',
        turns: [
          ...steps,
          { fault: { code: 'context_length_exceeded' } },
          { match: { hasTools: false }, reply: { content: 'SUMMARY: ran echo step0..step4.' } },
          { match: { lastRole: 'tool' }, reply: { content: 'All steps done.' } },
        ],
      },
      {},
      { condenser: new LlmSummarizingCondenser({ maxSize: 1000, keepFirst: 2 }) },
    );
    const c = await h.open();
    await c.sendMessage('run five steps');
    assert.equal(await c.run(), 'finished');
    const events = await c.events();
    assert.ok(kinds(events).includes('CondensationRequest'));
    const condensation = ofKind(events, 'Condensation')[0]!;
    assert.ok(condensation.forgotten_event_ids.length > 0);
    assert.match(condensation.summary ?? '', /SUMMARY/);
    // The retried request carried the summary instead of the forgotten events.
    const last = h.llm.completionBodies().at(-1)!.messages as { role: string; content: unknown }[];
    assert.ok(JSON.stringify(last).includes('SUMMARY: ran echo step0..step4.'));
    assert.ok(last.filter((m) => m.role === 'tool').length < 5);
  });

  it('condenses a 300-event conversation so every prompt stays under the size limit', async () => {
    const turns = Array.from({ length: 100 }, (_, i) => ({
      reply: {
        toolCalls: [
          {
            id: `call_${i}`,
            name: 'terminal',
            arguments: { command: `echo line${i}`, security_risk: 'LOW', summary: `line ${i}` },
          },
        ],
      },
    }));
    const summarizer = await startScriptedLlm({
      scenario: { name: 'summaries', turns: [], fallback: { content: 'SUMMARY of earlier steps.' } },
    });
    h = await createHarness(
      { name: 'long', turns, fallback: { content: 'Finished the long task.' } },
      {
        maxIterations: 200,
        stuck: {
          repeatedActionObservation: 99,
          repeatedActionError: 99,
          monologue: 99,
          alternatingPattern: 99,
        },
      },
      { condenser: new LlmSummarizingCondenser({ maxSize: 40, keepFirst: 2 }), summarizer },
    );
    const c = await h.open();
    await c.sendMessage('a long task');
    const status = await c.run();
    const events = await c.events();
    assert.equal(status, 'finished');
    assert.ok(events.length >= 300, `only ${events.length} events`);
    assert.ok(ofKind(events, 'Condensation').length >= 3);
    assert.ok(summarizer.completionBodies().length >= 3);
    for (const body of h.llm.completionBodies()) {
      const n = (body.messages as unknown[]).length;
      assert.ok(n <= 45, `a prompt had ${n} messages`);
    }
    // The newest prompt still has the latest summary and the latest step.
    const last = JSON.stringify(h.llm.completionBodies().at(-1)!.messages);
    assert.ok(last.includes('SUMMARY of earlier steps.'));
    assert.ok(last.includes('line99'));
  });
});

describe('Conversation: interruptions and crashes', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('interrupt cancels the LLM call in flight and leaves the conversation paused', async () => {
    h = await createHarness({
      name: 'slow',
      turns: [
        { reply: { content: 'a very slow answer that streams for a long time', chunkSize: 1, delayMs: 100 } },
      ],
    });
    const c = await h.open();
    await c.sendMessage('say something slowly');
    const running = c.run();
    await new Promise((r) => setTimeout(r, 300));
    await c.interrupt();
    assert.equal(await running, 'paused');
    assert.equal(c.status, 'paused');
    assert.ok(kinds(await c.events()).includes('PauseEvent'));
  });

  it('interrupt during a tool answers the running action and pauses', async () => {
    h = await createHarness({
      name: 'long-tool',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_sleep',
                name: 'terminal',
                arguments: { command: 'sleep 20', security_risk: 'LOW', summary: 'sleep' },
              },
            ],
          },
        },
      ],
    });
    const c = await h.open();
    await c.sendMessage('sleep');
    const running = c.run();
    await new Promise((r) => setTimeout(r, 600));
    const t0 = Date.now();
    await c.interrupt();
    assert.equal(await running, 'paused');
    assert.ok(Date.now() - t0 < 10_000, 'interrupt returned promptly');
    assert.equal(c.state.pendingActions.length, 0, 'no call is left unanswered');
  });

  it('never silently re-runs an action that started before a crash: the user re-runs or skips it', async () => {
    const scenario: Scenario = {
      name: 'crash',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_side',
                name: 'terminal',
                arguments: {
                  command: 'echo ran >> side-effect.txt',
                  security_risk: 'LOW',
                  summary: 'side effect',
                },
              },
            ],
          },
        },
        { match: { lastContentIncludes: 'continue' }, reply: { content: 'ok' } },
      ],
    };
    h = await createHarness(scenario);
    const store = await h.persistentStore();
    const first = await h.open({ store });
    await first.sendMessage('do it');
    // Simulate a crash right after the action started: record the start, then stop writing.
    const originalAppend = store.append.bind(store);
    let crashed = false;
    store.append = async (e, o) => {
      if (crashed) throw new Error('process died');
      const i = await originalAppend(e, o);
      if (e.kind === 'ConversationStateUpdateEvent' && (e as { key?: string }).key === 'action_started')
        crashed = true;
      return i;
    };
    await first.run().catch(() => undefined);
    await store.close();

    const second = await h.open({ store: await h.persistentStore() });
    assert.equal(second.status, 'paused', 'a conversation found running is paused on open');
    assert.equal(second.inDoubtActions().length, 1);
    await second.sendMessage('continue');
    assert.equal(await second.run(), 'waiting_for_confirmation');
    // It ran once before the crash; it must not have run a second time on its own.
    assert.equal(readFileSync(join(h.workspace, 'side-effect.txt'), 'utf8'), 'ran\n');
    await second.reject('skipped after the crash');
    assert.equal(await second.run(), 'finished');
    assert.equal(readFileSync(join(h.workspace, 'side-effect.txt'), 'utf8'), 'ran\n');
  });
  it('a record the crash left half written is cut off, and the recovery message says so', async () => {
    h = await createHarness({
      name: 'torn',
      turns: [{ reply: { content: 'slow', chunkSize: 1, delayMs: 200 } }],
    });
    const store = (await h.persistentStore()) as SegmentEventStore<StoredConversationEvent>;
    const first = await h.open({ store });
    await first.sendMessage('start');
    const running = first.run();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(first.status, 'running');
    const before = await first.events();
    // The process dies in the middle of writing a record: only its first bytes reach the file.
    const segments = join(store.dir, 'segments');
    const last = readdirSync(segments).sort().at(-1)!;
    const torn = '0badc0de 99 5000 {"kind":"MessageEvent","id":"half';
    await first.interrupt().catch(() => undefined);
    await running.catch(() => undefined);
    await store.close();
    // Undo what the clean stop wrote after the crash point, then tear the tail.
    const file = join(segments, last);
    const lines = readFileSync(file, 'utf8').split('\n').slice(0, before.length);
    writeFileSync(file, lines.join('\n') + '\n' + torn);
    rmSync(join(store.dir, 'meta.json'), { force: true });
    rmSync(join(store.dir, 'snapshots'), { recursive: true, force: true });

    const reopened = await h.persistentStore();
    const second = await h.open({ store: reopened });
    assert.equal(second.status, 'paused');
    const events = await second.events();
    assert.deepEqual(
      events.slice(0, before.length).map((e) => e.id),
      before.map((e) => e.id),
      'every event written before the crash is still there',
    );
    const recovery = events.find(
      (e) => e.kind === 'ConversationStateUpdateEvent' && (e as { key?: string }).key === 'recovery',
    ) as { value: unknown } | undefined;
    assert.ok(recovery, 'a recovery update was appended');
    const { reason } = RecoveryValueSchema.parse(recovery.value);
    assert.match(reason, new RegExp(`partly written \\(${Buffer.byteLength(torn)} bytes\\) and was cut off`));
  });
});

describe('Conversation: fork', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('continues from an earlier event in a new log, leaving the source unchanged', async () => {
    h = await createHarness({
      name: 'fork',
      turns: [
        { reply: { content: 'First answer.' } },
        { reply: { content: 'Second answer.' } },
        { match: { lastContentIncludes: 'instead' }, reply: { content: 'Answer on the fork.' } },
      ],
    });
    const source = await h.open();
    await source.sendMessage('first question');
    await source.run();
    const firstAnswer = ofKind(await source.events(), 'MessageEvent').find((e) => e.source === 'agent')!;
    await source.sendMessage('second question');
    await source.run();
    const sourceEvents = await source.events();

    const target = new MemoryEventStore<StoredConversationEvent>();
    await source.fork(firstAnswer.id, target);
    const fork = await h.open({ store: target });
    assert.equal(fork.status, 'idle');
    const forkEvents = await fork.events();
    assert.ok(forkEvents.some((e) => e.id === firstAnswer.id));
    assert.ok(
      !forkEvents.some((e) => e.kind === 'MessageEvent' && JSON.stringify(e).includes('second question')),
    );
    await fork.sendMessage('ask this instead');
    assert.equal(await fork.run(), 'finished');
    // The model saw the fork's history: the first exchange, not the second.
    const sent = JSON.stringify(h.llm.completionBodies().at(-1)!.messages);
    assert.ok(sent.includes('First answer.') && !sent.includes('Second answer.'));
    assert.deepEqual(await source.events(), sourceEvents);
    assert.equal(source.state.title, 'first question');
    assert.equal(fork.state.title, 'first question (continued)');
    // A fork of a fork does not pile up suffixes.
    const again = new MemoryEventStore<StoredConversationEvent>();
    await fork.fork(firstAnswer.id, again);
    assert.equal((await h.open({ store: again })).state.title, 'first question (continued)');
  });
});

describe('Conversation: fork at an action', function () {
  this.timeout(30_000);
  it('asks again for the action it ends with; approving runs it in the fork only', async () => {
    const h = await createHarness(
      {
        name: 'fork-action',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: {
              content: 'Listing files.',
              toolCalls: [
                {
                  id: 'call_ls',
                  name: 'terminal',
                  arguments: { command: 'echo listed', security_risk: 'HIGH', summary: 'List' },
                },
              ],
            },
          },
          { match: { lastRole: 'tool', toolResultIncludes: 'rejected' }, reply: { content: 'Skipped it.' } },
          { match: { lastRole: 'tool', toolResultIncludes: 'listed' }, reply: { content: 'Listed them.' } },
        ],
      },
      { confirmationMode: 'risky' },
    );
    try {
      const source = await h.open();
      await source.sendMessage('list the files');
      assert.equal(await source.run(), 'waiting_for_confirmation');
      const action = ofKind(await source.events(), 'ActionEvent')[0]!;
      await source.reject('not now');
      assert.equal(await source.run(), 'finished');

      const target = new MemoryEventStore<StoredConversationEvent>();
      await source.fork(action.id, target);
      const fork = await h.open({ store: target });
      assert.equal(fork.status, 'waiting_for_confirmation');
      assert.deepEqual(
        fork.awaitingConfirmation().map((a) => a.id),
        [action.id],
      );
      await fork.approve();
      assert.equal(await fork.run(), 'finished');
      assert.match(JSON.stringify(await fork.events()), /Listed them\./);
      assert.doesNotMatch(JSON.stringify(await source.events()), /Listed them\./);
    } finally {
      await h.close();
    }
  });
});

describe('Conversation: rename', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('records the new title as an event that survives a reopen, and refuses an empty one', async () => {
    h = await createHarness({ name: 'rename', turns: [{ reply: { content: 'Done.' } }] });
    const store = new MemoryEventStore<StoredConversationEvent>();
    const c = await h.open({ store });
    await c.sendMessage('fix the flaky test in the parser');
    await c.run();
    await c.rename('  Parser flake  ');
    assert.equal(c.state.title, 'Parser flake');
    const last = (await c.events()).at(-1)!;
    assert.equal(last.kind, 'ConversationStateUpdateEvent');
    assert.deepEqual(
      [(last as { key?: unknown }).key, (last as { value?: unknown }).value],
      ['title', 'Parser flake'],
    );
    assert.equal((await h.open({ store })).state.title, 'Parser flake');
    await assert.rejects(c.rename('   '), /cannot be empty/);
    assert.equal(c.state.title, 'Parser flake');
  });

  it('a rename during a run never gives two events the same parent', async () => {
    h = await createHarness({
      name: 'rename-race',
      turns: [
        {
          reply: {
            content: 'Thinking it over.',
            toolCalls: [{ id: 'call_t', name: 'think', arguments: { thought: 'plan' } }],
          },
        },
        { reply: { content: 'Finished.' } },
      ],
    });
    const c = await h.open();
    await c.sendMessage('do it');
    const run = c.run();
    // Renames fired while the run appends its own events.
    const renames = [c.rename('one'), c.rename('two')];
    await new Promise((r) => setTimeout(r, 5));
    renames.push(c.rename('three'));
    await Promise.all(renames);
    assert.equal(await run, 'finished');
    const events = await c.events();
    const parents = events.map((e) => e.parent_id).filter((p) => p);
    assert.equal(new Set(parents).size, parents.length, 'each event has its own parent');
    for (let i = 1; i < events.length; i++) assert.equal(events[i]!.parent_id, events[i - 1]!.id);
    assert.equal(c.state.title, 'three');
  });
});
