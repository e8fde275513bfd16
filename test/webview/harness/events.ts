// Event JSON for the browser tests and the benchmark, in the OpenHands wire format the panel renders.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationHeader, EventJson, ViewEvent } from '../../../src/protocol/messages';

export const CONVERSATION_ID = '7f3c2a10-5b1e-4c8d-9a0f-123456789abc';

/** Deterministic UUID-shaped ids, so tests can name events. */
export function eid(n: number, prefix = '0000'): string {
  return `${prefix.padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

const ts = (n: number) => new Date(Date.UTC(2026, 5, 16, 5, 39, 0) + n * 1000).toISOString();

export function makeHeader(over: Partial<ConversationHeader> = {}): ConversationHeader {
  return {
    id: CONVERSATION_ID,
    title: 'Add input validation to src/math.js',
    status: 'running',
    promptTokens: 71_474,
    completionTokens: 1_155,
    cachedTokens: 34_536,
    cost: 0.0421,
    pendingActionIds: [],
    readOnly: false,
    ...over,
  };
}

export const text = (t: string) => [{ type: 'text', text: t }];

export function userMessage(id: string, t: string): EventJson {
  return {
    kind: 'MessageEvent',
    id,
    timestamp: ts(0),
    source: 'user',
    llm_message: { role: 'user', content: text(t) },
  };
}

export function agentMessage(id: string, t: string, reasoning?: string): EventJson {
  return {
    kind: 'MessageEvent',
    id,
    timestamp: ts(1),
    source: 'agent',
    llm_message: { role: 'assistant', content: text(t), reasoning_content: reasoning ?? null },
  };
}

export function terminalAction(
  id: string,
  command: string,
  o: { summary?: string; risk?: string; thought?: string } = {},
): EventJson {
  return {
    kind: 'ActionEvent',
    id,
    timestamp: ts(2),
    source: 'agent',
    thought: text(o.thought ?? ''),
    reasoning_content: null,
    action: { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
    tool_name: 'terminal',
    tool_call_id: `call-${id}`,
    tool_call: {
      id: `call-${id}`,
      name: 'terminal',
      arguments: JSON.stringify({ command }),
      origin: 'completion',
    },
    llm_response_id: `resp-${id}`,
    security_risk: o.risk ?? 'LOW',
    summary: o.summary ?? `Run ${command.split(' ')[0]}`,
  };
}

export function terminalObservation(
  id: string,
  actionId: string,
  output: string,
  exitCode: number | null,
): EventJson {
  return {
    kind: 'ObservationEvent',
    id,
    timestamp: ts(3),
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: `call-${actionId}`,
    action_id: actionId,
    observation: {
      kind: 'TerminalObservation',
      content: text(output),
      is_error: false,
      command: 'x',
      exit_code: exitCode,
      timeout: false,
      metadata: { exit_code: exitCode ?? -1 },
    },
  };
}

export function editAction(id: string, path: string, oldStr: string, newStr: string): EventJson {
  return {
    kind: 'ActionEvent',
    id,
    timestamp: ts(4),
    source: 'agent',
    thought: text(''),
    action: { kind: 'FileEditorAction', command: 'str_replace', path, old_str: oldStr, new_str: newStr },
    tool_name: 'file_editor',
    tool_call_id: `call-${id}`,
    tool_call: { id: `call-${id}`, name: 'file_editor', arguments: '{}' },
    llm_response_id: `resp-${id}`,
    security_risk: 'MEDIUM',
    summary: `Edit ${path}`,
  };
}

export function editObservation(
  id: string,
  actionId: string,
  path: string,
  before: string,
  after: string,
): EventJson {
  return {
    kind: 'ObservationEvent',
    id,
    timestamp: ts(5),
    source: 'environment',
    tool_name: 'file_editor',
    tool_call_id: `call-${actionId}`,
    action_id: actionId,
    observation: {
      kind: 'FileEditorObservation',
      content: text(`Edited ${path}.`),
      is_error: false,
      command: 'str_replace',
      path,
      prev_exist: true,
      old_content: before,
      new_content: after,
    },
  };
}

export const MATH_BEFORE =
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
export const MATH_AFTER =
  "export function add(a, b) {\n  if (typeof a !== 'number' || typeof b !== 'number') throw new TypeError('numbers only');\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n";

/** One event of every kind the panel knows (and two it does not), with named ids. */
export function everyKind(): { events: ViewEvent[]; ids: Record<string, string> } {
  const ids = {
    system: eid(1),
    user: eid(2),
    agent: eid(3),
    term: eid(4),
    termObs: eid(5),
    edit: eid(6),
    editObs: eid(7),
    rejected: eid(8),
    reject: eid(9),
    failed: eid(10),
    agentError: eid(11),
    condensation: eid(12),
    pause: eid(13),
    stuck: eid(14),
    status: eid(15),
    convError: eid(16),
    unknown: eid(17),
    corrupt: 'corrupt-18',
    request: eid(19),
    stats: eid(20),
    summary: eid(21),
    finish: eid(22),
  };
  const list: EventJson[] = [
    {
      kind: 'SystemPromptEvent',
      id: ids.system,
      source: 'agent',
      system_prompt: { type: 'text', text: 'You are Logbook, a careful coding agent.' },
      tools: [
        { type: 'function', function: { name: 'terminal' } },
        { type: 'function', function: { name: 'file_editor' } },
      ],
    },
    userMessage(ids.user, 'Add input validation to `src/math.js` and run the tests.'),
    agentMessage(
      ids.agent,
      "I'll add a **type check** to `add`:\n\n```js\nif (typeof a !== 'number') throw new TypeError('numbers only'); // guard\n```\n\n- then run `npm test`\n- [docs](https://example.com/docs)",
      'The user wants validation. Start with add().',
    ),
    terminalAction(ids.term, 'npm test -- --grep math', {
      summary: 'Run the math tests',
      thought: 'Running the tests first.',
    }),
    terminalObservation(
      ids.termObs,
      ids.term,
      '> mocha\n\n  math\n    ✔ adds\n    ✔ multiplies\n\n  2 passing (4ms)\n',
      0,
    ),
    editAction(
      ids.edit,
      'src/math.js',
      '  return a + b;',
      "  if (typeof a !== 'number') throw new TypeError('numbers only');\n  return a + b;",
    ),
    editObservation(ids.editObs, ids.edit, 'src/math.js', MATH_BEFORE, MATH_AFTER),
    terminalAction(ids.rejected, 'rm -rf node_modules && npm ci', {
      summary: 'Reinstall dependencies',
      risk: 'HIGH',
    }),
    {
      kind: 'UserRejectObservation',
      id: ids.reject,
      source: 'user',
      rejection_reason: 'No need to reinstall.',
      action_id: ids.rejected,
      tool_name: 'terminal',
      tool_call_id: `call-${ids.rejected}`,
    },
    terminalAction(ids.failed, 'cat missing.txt', { summary: 'Read a file', risk: 'UNKNOWN' }),
    {
      kind: 'AgentErrorEvent',
      id: ids.agentError,
      source: 'agent',
      error: 'Tool "terminal" failed: the shell exited unexpectedly',
      tool_name: 'terminal',
      tool_call_id: `call-${ids.failed}`,
    },
    {
      kind: 'Condensation',
      id: ids.condensation,
      source: 'agent',
      forgotten_event_ids: Array.from({ length: 42 }, (_, i) => eid(1000 + i)),
      summary: 'The agent **read** the code and ran tests.',
    },
    { kind: 'PauseEvent', id: ids.pause, source: 'user' },
    {
      kind: 'ConversationErrorEvent',
      id: ids.stuck,
      source: 'environment',
      code: 'stuck',
      detail: 'The same command failed 3 times with the same error.',
    },
    {
      kind: 'ConversationStateUpdateEvent',
      id: ids.status,
      source: 'environment',
      key: 'execution_status',
      value: 'paused',
    },
    {
      kind: 'ConversationErrorEvent',
      id: ids.convError,
      source: 'environment',
      code: 'llm_error',
      detail: 'The model endpoint returned 503.',
    },
    { kind: 'BrowserScreenshotEvent', id: ids.unknown, source: 'environment', url: 'https://example.com' },
    { kind: 'CorruptRecord', id: ids.corrupt, parent_id: null, index: 18, reason: 'checksum mismatch' },
    { kind: 'CondensationRequest', id: ids.request, source: 'environment' },
    {
      kind: 'ConversationStateUpdateEvent',
      id: ids.stats,
      source: 'environment',
      key: 'stats',
      value: { usage_to_metrics: {} },
    },
    { kind: 'CondensationSummaryEvent', id: ids.summary, source: 'environment', summary: 'Summary text.' },
    {
      kind: 'ActionEvent',
      id: ids.finish,
      source: 'agent',
      thought: text(''),
      action: { kind: 'FinishAction', message: 'Done: `add` now **validates** its inputs.' },
      tool_name: 'finish',
      tool_call_id: 'call-finish',
      tool_call: { id: 'call-finish', name: 'finish', arguments: '{}' },
      llm_response_id: 'resp-finish',
      security_risk: 'LOW',
      summary: 'Finish',
    },
  ];
  return { events: list.map((event, seq) => ({ seq, event: event as ViewEvent['event'] })), ids };
}

/** The real OpenHands events kept in the repository (terminal actions, observations, state updates). */
export function realFixtureEvents(): ViewEvent[] {
  const file = join(__dirname, '..', '..', 'fixtures', 'openhands', 'real-events.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, seq) => ({ seq, event: JSON.parse(l) as ViewEvent['event'] }));
}

/**
 * A long conversation: repeating turns of user message, agent reply with markdown and code, terminal
 * call + output, file edit + diff, and a stats update, so the mix of row heights is realistic.
 */
export function longConversation(count: number): ViewEvent[] {
  const out: ViewEvent[] = [];
  let n = 0;
  const push = (event: EventJson) => out.push({ seq: out.length, event: event as ViewEvent['event'] });
  while (out.length < count) {
    const k = n++;
    const step = k % 7;
    const id = eid(k, 'beef');
    if (step === 0) push(userMessage(id, `Step ${k}: please check the build and fix whatever fails.`));
    else if (step === 1)
      push(
        agentMessage(
          id,
          `Looking at **step ${k}**. The failing test is in \`src/math.js\`:\n\n\`\`\`ts\nexport const ok = (n: number): boolean => n > ${k}; // check\n\`\`\`\n\nI'll run it again.`,
        ),
      );
    else if (step === 2)
      push(terminalAction(id, `npm test -- --grep case-${k}`, { summary: `Run test case ${k}` }));
    else if (step === 3)
      push(
        terminalObservation(
          id,
          eid(k - 1, 'beef'),
          Array.from({ length: 1 + (k % 30) }, (_, i) => `line ${i} of output for case ${k}`).join('\n'),
          k % 5 === 0 ? 1 : 0,
        ),
      );
    else if (step === 4) push(editAction(id, `src/file-${k}.ts`, `const v = ${k};`, `const v = ${k + 1};`));
    else if (step === 5)
      push(
        editObservation(
          id,
          eid(k - 1, 'beef'),
          `src/file-${k}.ts`,
          `a\nb\nconst v = ${k};\nc\n`,
          `a\nb\nconst v = ${k + 1};\nc\n`,
        ),
      );
    else
      push({
        kind: 'ConversationStateUpdateEvent',
        id,
        source: 'environment',
        key: k % 2 ? 'stats' : 'execution_status',
        value: 'running',
      });
  }
  return out;
}
