import * as assert from 'node:assert/strict';
import {
  createEvent,
  type ActionEvent,
  type AgentErrorEvent,
  type Event,
  type MessageEvent,
  type ObservationEvent,
} from '../../../src/core/events';
import {
  DEFAULT_STUCK_THRESHOLDS,
  STUCK_NUDGE_MARKER,
  detectStuck,
  eventsSinceLastUserMessage,
  type StuckVerdict,
} from '../../../src/core/agent/stuck-detector';
import { textOf } from '../../../src/core/events';
import { createHarness, type Harness } from '../../support/agent-harness';

// --- event builders ---------------------------------------------------------------------------

let callSeq = 0;

function userSays(text: string): MessageEvent {
  return createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  });
}

function agentSays(text: string): MessageEvent {
  return createEvent('MessageEvent', {
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
  });
}

/** The nudge exactly as the loop appends it. */
function nudgeEvent(message: string): MessageEvent {
  return createEvent('MessageEvent', {
    source: 'environment',
    llm_message: { role: 'user', content: [{ type: 'text', text: message }] },
  });
}

function stateUpdate(key: string, value: unknown): Event {
  return createEvent('ConversationStateUpdateEvent', { key, value });
}

interface ActOptions {
  tool?: string;
  summary?: string;
  risk?: 'LOW' | 'MEDIUM' | 'HIGH';
  /** Raw argument text as the model sent it; default: the JSON of the args plus summary/risk. */
  raw?: string;
}

function act(args: Record<string, unknown>, opts: ActOptions = {}): ActionEvent {
  const id = `call_${++callSeq}`;
  const tool = opts.tool ?? 'terminal';
  const summary = opts.summary ?? 'run it';
  const risk = opts.risk ?? 'LOW';
  return createEvent('ActionEvent', {
    action: { kind: 'TerminalAction', ...args },
    tool_name: tool,
    tool_call_id: id,
    tool_call: {
      id,
      name: tool,
      arguments: opts.raw ?? JSON.stringify({ ...args, summary, security_risk: risk }),
      origin: 'completion',
    },
    llm_response_id: `resp_${id}`,
    security_risk: risk,
    summary,
  });
}

function observe(action: ActionEvent, text: string, isError = false): ObservationEvent {
  return createEvent('ObservationEvent', {
    observation: { kind: 'TerminalObservation', content: [{ type: 'text', text }], is_error: isError },
    action_id: action.id,
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
  });
}

/** An action and the observation that answered it. */
function step(args: Record<string, unknown>, result: string, opts: ActOptions = {}): Event[] {
  const a = act(args, opts);
  return [a, observe(a, result)];
}

/** A call that failed validation: no ActionEvent, only an AgentErrorEvent carrying the raw call. */
function failedCall(rawArguments: string, error: string, tool = 'terminal'): AgentErrorEvent {
  const id = `call_${++callSeq}`;
  return createEvent('AgentErrorEvent', {
    error,
    tool_name: tool,
    tool_call_id: id,
    tool_call: { id, name: tool, arguments: rawArguments, origin: 'completion' },
    llm_response_id: `resp_${id}`,
  });
}

const times = <T>(n: number, make: (i: number) => T[]): T[] =>
  Array.from({ length: n }, (_, i) => make(i)).flat();

function assertStuck(v: StuckVerdict, pattern: string): void {
  assert.equal(v.kind, 'stuck', `expected stuck (${pattern}), got ${JSON.stringify(v)}`);
  assert.equal((v as { pattern: string }).pattern, pattern);
}

function assertOk(v: StuckVerdict): void {
  assert.deepEqual(v, { kind: 'ok' });
}

const MISSING_COMMAND =
  'Invalid arguments for tool "terminal":\n- command: expected string, received undefined';

// --- pure detector tests ----------------------------------------------------------------------

describe('stuck detector: repeated action with the same observation', () => {
  it('is stuck at 4 identical action/observation pairs, not at 3', () => {
    const three = times(3, () => step({ command: 'ls' }, 'a.txt\n'));
    assertOk(detectStuck(three));
    const four = [...three, ...step({ command: 'ls' }, 'a.txt\n')];
    const v = detectStuck(four);
    assertStuck(v, 'repeated_action_observation');
    assert.match((v as { explanation: string }).explanation, /terminal action 4 times/);
  });

  it('only counts the trailing run: a different step in between breaks it', () => {
    const events = [
      ...times(2, () => step({ command: 'ls' }, 'a.txt\n')),
      ...step({ command: 'pwd' }, '/ws\n'),
      ...times(3, () => step({ command: 'ls' }, 'a.txt\n')),
    ];
    assertOk(detectStuck(events));
  });

  it('is not stuck when the arguments differ', () => {
    const events = times(6, (i) => step({ command: `echo ${i}` }, 'same output\n'));
    assertOk(detectStuck(events));
  });

  it('is not stuck when the same action gets different results', () => {
    const events = times(6, (i) => step({ command: 'date' }, `tick ${i}\n`));
    assertOk(detectStuck(events));
  });

  it('is not stuck when the same arguments go to different tools', () => {
    const events = times(6, (i) =>
      step({ command: 'x' }, 'same', { tool: i % 3 === 0 ? 'grep' : 'terminal' }),
    );
    // terminal, terminal, grep, terminal, terminal, grep: never 4 alike in a row, never alternating
    assertOk(detectStuck(events));
  });

  it('ignores the order of keys in the arguments', () => {
    const events = [
      ...step({ command: 'npm test', timeout: 60, is_input: false }, 'FAIL\n'),
      ...step({ is_input: false, timeout: 60, command: 'npm test' }, 'FAIL\n'),
      ...step({ timeout: 60, command: 'npm test', is_input: false }, 'FAIL\n'),
      ...step({ is_input: false, command: 'npm test', timeout: 60 }, 'FAIL\n'),
    ];
    assertStuck(detectStuck(events), 'repeated_action_observation');
  });

  it('ignores summary and security_risk differences', () => {
    const events = [
      ...step({ command: 'ls' }, 'x\n', { summary: 'list', risk: 'LOW' }),
      ...step({ command: 'ls' }, 'x\n', { summary: 'list again', risk: 'MEDIUM' }),
      ...step({ command: 'ls' }, 'x\n', { summary: 'once more', risk: 'HIGH' }),
      ...step({ command: 'ls' }, 'x\n', { summary: 'and again', risk: 'LOW' }),
    ];
    assertStuck(detectStuck(events), 'repeated_action_observation');
  });

  it('ignores summary/security_risk and key order in the raw call when the action payload is missing', () => {
    // An ActionEvent whose call could not be turned into an action is identified by its raw arguments.
    const raw = [
      '{"command":"ls","summary":"a","security_risk":"LOW"}',
      '{"security_risk":"HIGH","command":"ls","summary":"b"}',
      '{"summary":"c","command":"ls"}',
      '{"command":"ls"}',
    ];
    const events = raw.flatMap((r) => {
      const base = act({ command: 'ls' }, { raw: r });
      const a = createEvent('ActionEvent', { ...(base as object), action: null } as never) as ActionEvent;
      return [a, observe(a, 'same')];
    });
    assertStuck(detectStuck(events), 'repeated_action_observation');
    const different = [...events.slice(0, 6), ...step({ command: 'ls -a' }, 'same')];
    assertOk(detectStuck(different));
  });

  it('takes its threshold from the settings', () => {
    const two = times(2, () => step({ command: 'ls' }, 'a\n'));
    assertOk(detectStuck(two));
    assertStuck(
      detectStuck(two, { ...DEFAULT_STUCK_THRESHOLDS, repeatedActionObservation: 2 }),
      'repeated_action_observation',
    );
    const five = times(5, () => step({ command: 'ls' }, 'a\n'));
    assertOk(detectStuck(five, { ...DEFAULT_STUCK_THRESHOLDS, repeatedActionObservation: 6 }));
  });
});

describe('stuck detector: repeated action with the same error', () => {
  const errors = (n: number, raw = '{"summary":"x"}', error = MISSING_COMMAND) =>
    Array.from({ length: n }, () => failedCall(raw, error));

  it('nudges at the third identical error (not before), with the marker', () => {
    assertOk(detectStuck(errors(2)));
    const v = detectStuck(errors(3));
    assert.equal(v.kind, 'nudge');
    const nudge = v as Extract<StuckVerdict, { kind: 'nudge' }>;
    assert.equal(nudge.pattern, 'repeated_action_error');
    assert.ok(nudge.message.startsWith(STUCK_NUDGE_MARKER), nudge.message);
    assert.match(nudge.message, /terminal with the same arguments 3 times/);
  });

  it('is stuck when the error repeats after the nudge', () => {
    const first = errors(3);
    const v = detectStuck(first);
    assert.equal(v.kind, 'nudge');
    const afterNudge = [
      ...first,
      nudgeEvent((v as { message: string }).message),
      failedCall('{"summary":"x"}', MISSING_COMMAND),
    ];
    const verdict = detectStuck(afterNudge);
    assertStuck(verdict, 'repeated_action_error');
    assert.match((verdict as { explanation: string }).explanation, /4 times.*even after being warned/);
  });

  it('does not treat the nudge as a new user message', () => {
    const first = errors(3);
    const message = (detectStuck(first) as { message: string }).message;
    const log = [
      userSays('fix it'),
      ...first,
      nudgeEvent(message),
      failedCall('{"summary":"x"}', MISSING_COMMAND),
    ];
    const recent = eventsSinceLastUserMessage(log);
    assert.equal(recent.length, 5);
    assertStuck(detectStuck(recent), 'repeated_action_error');
  });

  it('counts failed observations of real actions too', () => {
    const events = times(3, () => {
      const a = act({ command: 'cat missing.txt' });
      return [a, observe(a, 'No such file', true)];
    });
    assert.equal(detectStuck(events).kind, 'nudge');
  });

  it('ignores summary, security_risk and key order of the failing call', () => {
    const events = [
      failedCall('{"timeout":5,"summary":"a","security_risk":"LOW"}', MISSING_COMMAND),
      failedCall('{"security_risk":"HIGH","timeout":5}', MISSING_COMMAND),
      failedCall('{"summary":"c","timeout":5}', MISSING_COMMAND),
    ];
    assert.equal(detectStuck(events).kind, 'nudge');
  });

  it('is not stuck when the arguments or the errors differ', () => {
    assertOk(detectStuck([...errors(2), failedCall('{"timeout":1}', MISSING_COMMAND)]));
    assertOk(detectStuck([...errors(2), failedCall('{"summary":"x"}', 'another error')]));
  });

  it('takes its threshold from the settings', () => {
    const thresholds = { ...DEFAULT_STUCK_THRESHOLDS, repeatedActionError: 2 };
    assert.equal(detectStuck(errors(2), thresholds).kind, 'nudge');
    assertOk(detectStuck(errors(3), { ...DEFAULT_STUCK_THRESHOLDS, repeatedActionError: 4 }));
  });

  it('nudges again for a new error run instead of using an old warning about another one', () => {
    // Warned about the first mistake, the agent moved on; a later, different mistake deserves its
    // own warning before the run is stopped.
    const first = errors(3);
    const message = (detectStuck(first) as { message: string }).message;
    const events = [
      ...first,
      nudgeEvent(message),
      ...step({ command: 'ls' }, 'a.txt\n'),
      ...errors(3, '{"command":"cat"}', 'Invalid arguments for tool "terminal": other'),
    ];
    assert.equal(detectStuck(events).kind, 'nudge');
  });
});

describe('stuck detector: monologue', () => {
  // Realistic spacing: usage and status updates come between the agent's messages.
  const said = (text: string): Event[] => [
    stateUpdate('llm_usage_x', 1),
    agentSays(text),
    stateUpdate('execution_status', 'finished'),
  ];

  it('is stuck at three agent messages in a row, not at two', () => {
    const two = [userSays('hi'), ...said('one'), ...said('two')];
    assertOk(detectStuck(eventsSinceLastUserMessage(two)));
    const three = [...two, ...said('three')];
    const v = detectStuck(eventsSinceLastUserMessage(three));
    assertStuck(v, 'monologue');
    assert.match((v as { explanation: string }).explanation, /3 messages in a row/);
  });

  it('is broken by an action, an error or a nudge in between', () => {
    assertOk(detectStuck([...said('a'), ...step({ command: 'ls' }, 'x'), ...said('b'), ...said('c')]));
    assertOk(detectStuck([...said('a'), failedCall('{}', 'bad'), ...said('b'), ...said('c')]));
    assertOk(
      detectStuck([...said('a'), nudgeEvent(`${STUCK_NUDGE_MARKER} stop`), ...said('b'), ...said('c')]),
    );
  });

  it('takes its threshold from the settings', () => {
    const thresholds = { ...DEFAULT_STUCK_THRESHOLDS, monologue: 5 };
    assertOk(
      detectStuck(
        times(4, (i) => said(`m${i}`)),
        thresholds,
      ),
    );
    assertStuck(
      detectStuck(
        times(5, (i) => said(`m${i}`)),
        thresholds,
      ),
      'monologue',
    );
  });
});

describe('stuck detector: alternating pattern', () => {
  const ab = (n: number) =>
    times(n, (i) =>
      i % 2 === 0 ? step({ command: 'make' }, 'error: x\n') : step({ command: 'git stash' }, 'stashed\n'),
    );

  it('is stuck after 6 alternating steps, not 5', () => {
    assertOk(detectStuck(ab(5)));
    const v = detectStuck(ab(6));
    assertStuck(v, 'alternating');
    assert.match((v as { explanation: string }).explanation, /6 steps/);
  });

  it('is not stuck when one of the two results changes', () => {
    const events = [...ab(5), ...step({ command: 'git stash' }, 'No local changes to save\n')];
    assertOk(detectStuck(events));
  });

  it('takes its threshold from the settings', () => {
    assertStuck(detectStuck(ab(4), { ...DEFAULT_STUCK_THRESHOLDS, alternatingPattern: 4 }), 'alternating');
    assertOk(detectStuck(ab(7), { ...DEFAULT_STUCK_THRESHOLDS, alternatingPattern: 8 }));
  });
});

describe('stuck detector: a new user message resets it', () => {
  it('only looks at events after the last user message', () => {
    const loop = times(4, () => step({ command: 'ls' }, 'a\n'));
    assertStuck(
      detectStuck(eventsSinceLastUserMessage([userSays('go'), ...loop])),
      'repeated_action_observation',
    );
    assert.deepEqual(eventsSinceLastUserMessage([...loop, userSays('try something else')]), []);
    const resumed = [...loop, userSays('try again'), ...times(3, () => step({ command: 'ls' }, 'a\n'))];
    assert.equal(eventsSinceLastUserMessage(resumed).length, 6);
    assertOk(detectStuck(eventsSinceLastUserMessage(resumed)));
  });

  it('keeps everything when there is no user message', () => {
    const loop = times(2, () => step({ command: 'ls' }, 'a\n'));
    assert.equal(eventsSinceLastUserMessage(loop).length, 4);
  });

  it('resets the nudge too: after the user speaks, the same error is nudged again first', () => {
    const errs = (n: number) => Array.from({ length: n }, () => failedCall('{}', MISSING_COMMAND));
    const first = errs(3);
    const message = (detectStuck(first) as { message: string }).message;
    const log = [...first, nudgeEvent(message), userSays('please retry'), ...errs(3)];
    assert.equal(detectStuck(eventsSinceLastUserMessage(log)).kind, 'nudge');
  });
});

// --- through the loop -------------------------------------------------------------------------

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

function stuckUpdate(events: readonly Event[]) {
  return ofKind(events, 'ConversationStateUpdateEvent').find((e) => e.key === 'stuck');
}

describe('stuck detector: through the agent loop', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('nudges an agent repeating the same invalid call, then stops it as stuck', async () => {
    // A terminal call without `command`: every one is answered with the same AgentErrorEvent.
    const bad = { toolCalls: [{ name: 'terminal', arguments: { security_risk: 'LOW', summary: 'run' } }] };
    h = await createHarness({ name: 'repeat-error', turns: [{ reply: bad, repeat: 6 }] });
    const c = await h.open();
    await c.sendMessage('run the tests');
    assert.equal(await c.run(), 'stuck');
    const events = await c.events();
    const errors = ofKind(events, 'AgentErrorEvent');
    assert.equal(errors.length, 4, 'three errors, the nudge, one more error, then stuck');
    assert.ok(errors.every((e) => e.error === errors[0]!.error));
    assert.match(errors[0]!.error, /command/);
    const nudges = ofKind(events, 'MessageEvent').filter((m) =>
      textOf(m.llm_message.content).startsWith(STUCK_NUDGE_MARKER),
    );
    assert.equal(nudges.length, 1);
    assert.equal(nudges[0]!.source, 'environment');
    // The nudge came after the third error and before the fourth.
    const at = (e: Event) => events.indexOf(e);
    assert.ok(at(nudges[0]!) > at(errors[2]!) && at(nudges[0]!) < at(errors[3]!));
    // The model read the nudge: the fourth request ended with it.
    const fourth = h.llm.completionBodies()[3]!.messages as { role: string; content: unknown }[];
    assert.equal(fourth.at(-1)!.role, 'user');
    assert.ok(JSON.stringify(fourth.at(-1)!.content).includes(STUCK_NUDGE_MARKER));
    const stuck = stuckUpdate(events)!;
    assert.equal((stuck.value as { pattern: string }).pattern, 'repeated_action_error');
    assert.equal(c.status, 'stuck');
    assert.equal(h.llm.completionBodies().length, 4);
  });

  it('stops an agent alternating between two commands', async () => {
    const call = (command: string) => ({
      reply: {
        toolCalls: [{ name: 'terminal', arguments: { command, security_risk: 'LOW', summary: command } }],
      },
    });
    const turns = Array.from({ length: 8 }, (_, i) => call(i % 2 === 0 ? 'echo ping' : 'echo pong'));
    h = await createHarness({ name: 'alternating', turns });
    const c = await h.open();
    await c.sendMessage('ping pong');
    assert.equal(await c.run(), 'stuck');
    const events = await c.events();
    assert.equal((stuckUpdate(events)!.value as { pattern: string }).pattern, 'alternating');
    assert.equal(ofKind(events, 'ObservationEvent').length, 6);
  });

  it('uses the configured threshold for a repeated action', async () => {
    const same = {
      toolCalls: [
        { name: 'terminal', arguments: { command: 'echo same', security_risk: 'LOW', summary: 's' } },
      ],
    };
    h = await createHarness(
      { name: 'repeat-2', turns: [{ reply: same, repeat: 5 }] },
      { stuck: { ...DEFAULT_STUCK_THRESHOLDS, repeatedActionObservation: 2 } },
    );
    const c = await h.open();
    await c.sendMessage('loop');
    assert.equal(await c.run(), 'stuck');
    const events = await c.events();
    assert.equal((stuckUpdate(events)!.value as { pattern: string }).pattern, 'repeated_action_observation');
    assert.equal(ofKind(events, 'ObservationEvent').length, 2);
  });

  it('a new user message lets a stuck agent start over', async () => {
    const same = {
      toolCalls: [
        { name: 'terminal', arguments: { command: 'echo same', security_risk: 'LOW', summary: 's' } },
      ],
    };
    h = await createHarness(
      {
        name: 'reset',
        turns: [
          { reply: same, repeat: 2 },
          { match: { lastRole: 'user', lastContentIncludes: 'once more' }, reply: same },
          { match: { lastRole: 'tool' }, reply: { content: 'done' } },
        ],
      },
      { stuck: { ...DEFAULT_STUCK_THRESHOLDS, repeatedActionObservation: 2 } },
    );
    const c = await h.open();
    await c.sendMessage('loop');
    assert.equal(await c.run(), 'stuck');
    await c.sendMessage('once more');
    // Without the reset the third identical step would be stuck again at once.
    assert.equal(await c.run(), 'finished');
  });
});
