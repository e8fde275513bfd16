// fast-check arbitraries for wire-format events (plain JSON objects, as found in a log file).
import fc from 'fast-check';
import { EVENT_KINDS, type EventKind } from '../../../src/core/events';

type Json = Record<string, unknown>;

const date = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2099-12-31T23:59:59Z'),
  noInvalidDate: true,
});
export const timestampArb = fc.oneof(
  date.map((d) => d.toISOString()), // what we write
  date.map((d) => d.toISOString().slice(0, -1) + '123'), // OpenHands: zone-less microseconds
  date.map((d) => d.toISOString().replace('Z', '+05:30')),
);
const sourceArb = fc.constantFrom('user', 'agent', 'environment', 'hook');
const str = fc.string({ maxLength: 20 });
const textArb = fc.record(
  { type: fc.constant('text'), text: str, cache_prompt: fc.boolean() },
  { requiredKeys: ['type', 'text'] },
);
const imageArb = fc.record({
  type: fc.constant('image'),
  image_urls: fc.array(fc.webUrl(), { maxLength: 2 }),
});
const contentArb = fc.array(fc.oneof(textArb, imageArb), { maxLength: 3 });
const nullableStr = fc.option(str, { nil: null });
const toolCallArb = fc.record(
  { id: str, name: str, arguments: fc.json(), origin: fc.constantFrom('completion', 'responses') },
  { requiredKeys: ['id', 'name', 'arguments'] },
);
/** Payloads of kinds no tool registers a schema for: any fields are valid. */
const openPayloadArb = (suffix: string) =>
  fc
    .tuple(
      fc.constantFrom('XyzTest', 'FutureTool'),
      fc.dictionary(fc.constantFrom('a', 'b', 'command'), fc.jsonValue(), { maxKeys: 3 }),
    )
    .map(([name, fields]) => ({ ...fields, kind: name + suffix }));
/**
 * Payloads of the real tools' kinds, valid for the schemas the tools register (src/core/tools/*-tool.ts),
 * so they parse whether or not those schemas are registered; `a`/`b` are extra fields they keep.
 */
const toolPayloadArb = (kind: string, model: Record<string, fc.Arbitrary<unknown>>, required: string[]) =>
  fc
    .tuple(
      fc.dictionary(fc.constantFrom('a', 'b'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
      fc.record(model, { requiredKeys: required }),
    )
    .map(([extra, fields]) => ({ ...extra, ...fields, kind }));
const nullableNat = fc.option(fc.nat(1000), { nil: null });
const taskListArb = fc.array(
  fc.record(
    { title: str, notes: str, status: fc.constantFrom('todo', 'in_progress', 'done') },
    { requiredKeys: ['title'] },
  ),
  { maxLength: 3 },
);
const toolActionArb = fc.oneof(
  toolPayloadArb(
    'TerminalAction',
    { command: str, is_input: fc.boolean(), timeout: nullableNat, reset: fc.boolean() },
    ['command'],
  ),
  toolPayloadArb(
    'FileEditorAction',
    {
      command: fc.constantFrom('view', 'create', 'str_replace', 'insert', 'undo_edit'),
      path: str,
      file_text: nullableStr,
      old_str: nullableStr,
      new_str: nullableStr,
      insert_line: nullableNat,
      view_range: fc.option(fc.array(fc.integer({ min: -1, max: 500 }), { maxLength: 2 }), { nil: null }),
    },
    ['command', 'path'],
  ),
  toolPayloadArb('TaskTrackerAction', { command: fc.constantFrom('plan', 'view'), task_list: taskListArb }, [
    'command',
  ]),
  toolPayloadArb('GlobAction', { pattern: str, path: nullableStr }, ['pattern']),
  toolPayloadArb('GrepAction', { pattern: str, path: nullableStr, include: nullableStr }, ['pattern']),
  toolPayloadArb('ThinkAction', { thought: str }, ['thought']),
  toolPayloadArb('FinishAction', { message: str }, ['message']),
);
const toolObservationArb = fc.oneof(
  toolPayloadArb(
    'TerminalObservation',
    {
      command: nullableStr,
      exit_code: fc.option(fc.integer({ min: -1, max: 255 }), { nil: null }),
      timeout: fc.boolean(),
      metadata: fc.dictionary(str, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
      full_output_save_dir: nullableStr,
      full_output_path: nullableStr,
    },
    [],
  ),
  toolPayloadArb(
    'FileEditorObservation',
    {
      command: str,
      path: nullableStr,
      prev_exist: fc.boolean(),
      old_content: nullableStr,
      new_content: nullableStr,
    },
    [],
  ),
  toolPayloadArb('TaskTrackerObservation', { command: str, task_list: taskListArb }, []),
  ...['Glob', 'Grep', 'Think', 'Finish'].map((name) => toolPayloadArb(`${name}Observation`, {}, [])),
);
const payloadArb = (suffix: 'Action' | 'Observation') =>
  fc.oneof(openPayloadArb(suffix), suffix === 'Action' ? toolActionArb : toolObservationArb);
/** Fields a newer version might add: prefixed so they never collide with known ones. */
const extrasArb = fc.dictionary(
  str.map((s) => `x_${s}`),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 2 },
);

function opt<T extends Json>(
  model: { [K in keyof T]: fc.Arbitrary<T[K]> },
  required: (keyof T)[],
): fc.Arbitrary<Json> {
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Json>;
}

const specific: Record<EventKind, fc.Arbitrary<Json>> = {
  SystemPromptEvent: opt(
    {
      system_prompt: textArb,
      tools: fc.array(fc.dictionary(str, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }), { maxLength: 2 }),
    },
    ['system_prompt', 'tools'],
  ),
  MessageEvent: opt(
    {
      llm_message: opt(
        {
          role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
          content: contentArb,
          tool_calls: fc.option(fc.array(toolCallArb, { maxLength: 2 }), { nil: null }),
          reasoning_content: nullableStr,
          thinking_blocks: fc.array(
            fc.oneof(
              fc.record({ type: fc.constant('thinking'), thinking: str, signature: nullableStr }),
              fc.record({ type: fc.constant('redacted_thinking'), data: str }),
            ),
            { maxLength: 2 },
          ),
        },
        ['role', 'content'],
      ),
      llm_response_id: nullableStr,
      activated_skills: fc.array(str, { maxLength: 2 }),
      extended_content: fc.array(textArb, { maxLength: 2 }),
      sender: nullableStr,
    },
    ['llm_message'],
  ),
  ActionEvent: opt(
    {
      thought: fc.array(textArb, { maxLength: 2 }),
      reasoning_content: nullableStr,
      thinking_blocks: fc.constant([]),
      responses_reasoning_item: fc.constant(null),
      action: fc.option(payloadArb('Action'), { nil: null }),
      tool_name: str,
      tool_call_id: str,
      tool_call: toolCallArb,
      llm_response_id: str,
      security_risk: fc.constantFrom('UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'),
      critic_result: fc.constant(null),
      summary: nullableStr,
    },
    ['thought', 'action', 'tool_name', 'tool_call_id', 'tool_call', 'llm_response_id'],
  ),
  ObservationEvent: opt(
    {
      observation: fc
        .tuple(payloadArb('Observation'), fc.array(textArb, { maxLength: 2 }), fc.boolean())
        .map(([p, content, is_error]) => ({ ...p, content, is_error })),
      action_id: fc.uuid(),
      tool_name: str,
      tool_call_id: str,
    },
    ['observation', 'action_id', 'tool_name', 'tool_call_id'],
  ),
  UserRejectObservation: opt(
    {
      rejection_reason: str,
      rejection_source: fc.constantFrom('user', 'hook'),
      action_id: fc.uuid(),
      tool_name: str,
      tool_call_id: str,
    },
    ['rejection_reason', 'action_id', 'tool_name', 'tool_call_id'],
  ),
  AgentErrorEvent: opt(
    { error: str, tool_name: str, tool_call_id: str, tool_call: toolCallArb, llm_response_id: str },
    ['error', 'tool_name', 'tool_call_id'],
  ),
  CondensationSummaryEvent: opt({ summary: str }, ['summary']),
  ConversationStateUpdateEvent: opt({ key: str, value: fc.jsonValue({ maxDepth: 3 }) }, ['key', 'value']),
  Condensation: opt(
    {
      forgotten_event_ids: fc.array(fc.uuid(), { maxLength: 3 }),
      summary: nullableStr,
      summary_offset: fc.option(fc.nat(50), { nil: null }),
      llm_response_id: nullableStr,
    },
    ['forgotten_event_ids'],
  ),
  CondensationRequest: fc.constant({}),
  PauseEvent: fc.constant({}),
  ConversationErrorEvent: opt({ code: str, detail: str }, ['code', 'detail']),
};

/** A valid event of `kind` as wire JSON, optionally with unknown extra fields. */
export function wireEventArb(kind: EventKind): fc.Arbitrary<Json> {
  return fc
    .tuple(
      fc.uuid(),
      timestampArb,
      sourceArb,
      fc.constantFrom(undefined, null, 'p-1'),
      specific[kind],
      extrasArb,
    )
    .map(([id, timestamp, source, parent, fields, extras]) => ({
      id,
      timestamp,
      source,
      ...(parent === undefined ? {} : { parent_id: parent }),
      ...fields,
      ...extras,
      kind,
    }));
}

export const anyWireEventArb: fc.Arbitrary<Json> = fc.constantFrom(...EVENT_KINDS).chain(wireEventArb);
