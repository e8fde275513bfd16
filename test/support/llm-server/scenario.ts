// Scenario data: the script of replies and faults the server plays back, one turn per request.
// Scenarios are plain JSON, so parseScenario checks their shape by hand and rejects unknown keys:
// a typo such as "lastContentInclude" must fail loudly instead of silently matching everything.
import { readFile } from 'node:fs/promises';
import { type Role } from './chat-request';

export interface Scenario {
  name: string;
  description?: string;
  /** Ids listed by GET /v1/models; defaults to ["scripted-model"]. */
  models?: string[];
  turns: Turn[];
  /** Reply for every request once the turns have run out; without it such requests get a 400. */
  fallback?: Reply;
}

export interface Turn {
  /** Free text shown in mismatch errors, to say which step of the script this is. */
  note?: string;
  match?: TurnMatch;
  reply?: Reply;
  fault?: Fault;
  /** Number of consecutive requests this turn answers (default 1); meant for retry tests. */
  repeat?: number;
}

export interface TurnMatch {
  lastRole?: Role;
  /** Substring of the last message's text. */
  lastContentIncludes?: string;
  /** Substring of some tool message sent after the last assistant message. */
  toolResultIncludes?: string;
  hasTools?: boolean;
  /** 'auto' | 'none' | 'required' | 'function:NAME' | '(unset)'. */
  toolChoice?: string;
  model?: string;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export interface Reply {
  content?: string;
  /** Sent as `reasoning_content`, as some OpenAI-compatible servers do. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: FinishReason;
  /** Token counts; each missing one is estimated from character counts. */
  usage?: Partial<ScriptedUsage>;
  /** Characters per streamed content/arguments delta (default 8). */
  chunkSize?: number;
  /** Pause between streamed chunks, or before a non-streamed body. */
  delayMs?: number;
  /**
   * Nothing is sent until the test calls `release(name)` on the server (or POSTs /__release with
   * `{"name": …}`): the client is held inside its request for exactly as long as the test needs.
   */
  holdUntilReleased?: string;
}

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** An object is sent as its JSON; a string is sent verbatim, so it may be deliberately invalid JSON. */
  arguments: string | { [key: string]: unknown };
}

export interface ScriptedUsage {
  prompt: number;
  completion: number;
  cached: number;
  reasoning: number;
  /** USD the provider says the call cost, sent as `usage.cost` as OpenRouter does; absent by default. */
  cost: number;
}

export interface Fault {
  /** HTTP error status to answer with (4xx/5xx), in the OpenAI error shape. */
  status?: number;
  message?: string;
  type?: string;
  code?: string | null;
  param?: string | null;
  /** Seconds, sent as the Retry-After header. */
  retryAfter?: number;
  /** Milliseconds, sent as the retry-after-ms header (the OpenAI SDK honours it, keeping retry tests fast). */
  retryAfterMs?: number;
  /** Delay before anything, headers included, is sent. */
  slowFirstByteMs?: number;
  /** Send this many SSE chunks of the turn's reply, then destroy the socket. */
  disconnectAfterChunks?: number;
  /** Answer with a well-formed completion whose `choices` is empty. */
  emptyChoices?: boolean;
  /** Send this many SSE chunks of the turn's reply, then nothing more, holding the connection open. */
  stallAfterChunks?: number;
  /**
   * A stream that never ends, paced by the reply's `delayMs` (default: as fast as the client reads):
   * `content` repeats the reply's content (or "x") as deltas; `keep-alive` sends only SSE comments;
   * `empty-chunks` sends chunks with an empty delta; `one-line` starts a data line and never ends it.
   */
  endless?: EndlessKind;
}

export type EndlessKind = 'content' | 'keep-alive' | 'empty-chunks' | 'one-line';
const ENDLESS_KINDS: readonly EndlessKind[] = ['content', 'keep-alive', 'empty-chunks', 'one-line'];

export const ROLES: readonly Role[] = ['system', 'developer', 'user', 'assistant', 'tool'];
const FINISH_REASONS: readonly FinishReason[] = ['stop', 'tool_calls', 'length', 'content_filter'];

export class ScenarioFormatError extends Error {
  override name = 'ScenarioFormatError';
}

export async function loadScenarioFile(file: string): Promise<Scenario> {
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ScenarioFormatError(`scenario file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return parseScenario(json, file);
}

/** Checks the shape of a scenario and returns it typed; throws ScenarioFormatError naming the bad field. */
export function parseScenario(value: unknown, source = 'scenario'): Scenario {
  const fail = (path: string, problem: string): never => {
    throw new ScenarioFormatError(`${source}: ${path} ${problem}`);
  };
  const scenario = expectObject(value, 'the scenario', fail);
  expectKeys(scenario, ['name', 'description', 'models', 'turns', 'fallback'], 'the scenario', fail);
  expectString(scenario.name, 'name', fail);
  optional(scenario.description, (v) => expectString(v, 'description', fail));
  optional(scenario.models, (v) => {
    if (!Array.isArray(v) || v.length === 0) fail('models', 'must be a non-empty array of strings');
    (v as unknown[]).forEach((m, i) => expectString(m, `models[${i}]`, fail));
  });
  if (!Array.isArray(scenario.turns)) fail('turns', 'must be an array');
  (scenario.turns as unknown[]).forEach((turn, i) => checkTurn(turn, `turns[${i}]`, fail));
  optional(scenario.fallback, (v) => checkReply(v, 'fallback', fail));
  return scenario as unknown as Scenario;
}

type Fail = (path: string, problem: string) => never;

function checkTurn(value: unknown, path: string, fail: Fail): void {
  const turn = expectObject(value, path, fail);
  expectKeys(turn, ['note', 'match', 'reply', 'fault', 'repeat'], path, fail);
  if (turn.reply === undefined && turn.fault === undefined) fail(path, 'needs a "reply" or a "fault"');
  optional(turn.note, (v) => expectString(v, `${path}.note`, fail));
  optional(turn.repeat, (v) => expectInteger(v, `${path}.repeat`, 1, fail));
  optional(turn.match, (v) => checkMatch(v, `${path}.match`, fail));
  optional(turn.reply, (v) => checkReply(v, `${path}.reply`, fail));
  optional(turn.fault, (v) => checkFault(v, `${path}.fault`, fail));
}

function checkMatch(value: unknown, path: string, fail: Fail): void {
  const match = expectObject(value, path, fail);
  expectKeys(
    match,
    ['lastRole', 'lastContentIncludes', 'toolResultIncludes', 'hasTools', 'toolChoice', 'model'],
    path,
    fail,
  );
  optional(match.lastRole, (v) => expectOneOf(v, ROLES, `${path}.lastRole`, fail));
  optional(match.lastContentIncludes, (v) => expectString(v, `${path}.lastContentIncludes`, fail));
  optional(match.toolResultIncludes, (v) => expectString(v, `${path}.toolResultIncludes`, fail));
  optional(match.hasTools, (v) => expectBoolean(v, `${path}.hasTools`, fail));
  optional(match.toolChoice, (v) => expectString(v, `${path}.toolChoice`, fail));
  optional(match.model, (v) => expectString(v, `${path}.model`, fail));
}

function checkReply(value: unknown, path: string, fail: Fail): void {
  const reply = expectObject(value, path, fail);
  expectKeys(
    reply,
    [
      'content',
      'reasoning',
      'toolCalls',
      'finishReason',
      'usage',
      'chunkSize',
      'delayMs',
      'holdUntilReleased',
    ],
    path,
    fail,
  );
  optional(reply.content, (v) => expectString(v, `${path}.content`, fail));
  optional(reply.reasoning, (v) => expectString(v, `${path}.reasoning`, fail));
  optional(reply.finishReason, (v) => expectOneOf(v, FINISH_REASONS, `${path}.finishReason`, fail));
  optional(reply.chunkSize, (v) => expectInteger(v, `${path}.chunkSize`, 1, fail));
  optional(reply.delayMs, (v) => expectInteger(v, `${path}.delayMs`, 0, fail));
  optional(reply.holdUntilReleased, (v) => expectString(v, `${path}.holdUntilReleased`, fail));
  optional(reply.toolCalls, (v) => {
    if (!Array.isArray(v)) fail(`${path}.toolCalls`, 'must be an array');
    (v as unknown[]).forEach((call, i) => checkToolCall(call, `${path}.toolCalls[${i}]`, fail));
  });
  optional(reply.usage, (v) => {
    const usage = expectObject(v, `${path}.usage`, fail);
    expectKeys(usage, ['prompt', 'completion', 'cached', 'reasoning', 'cost'], `${path}.usage`, fail);
    for (const [key, count] of Object.entries(usage)) {
      if (key === 'cost') expectCost(count, `${path}.usage.cost`, fail);
      else expectInteger(count, `${path}.usage.${key}`, 0, fail);
    }
  });
}

function checkToolCall(value: unknown, path: string, fail: Fail): void {
  const call = expectObject(value, path, fail);
  expectKeys(call, ['id', 'name', 'arguments'], path, fail);
  optional(call.id, (v) => expectString(v, `${path}.id`, fail));
  expectString(call.name, `${path}.name`, fail);
  const args = call.arguments;
  if (typeof args !== 'string' && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    fail(`${path}.arguments`, 'must be a string or an object');
  }
}

function checkFault(value: unknown, path: string, fail: Fail): void {
  const fault = expectObject(value, path, fail);
  const keys = ['status', 'message', 'type', 'code', 'param', 'retryAfter', 'retryAfterMs'] as const;
  const effects = [
    'slowFirstByteMs',
    'disconnectAfterChunks',
    'emptyChoices',
    'stallAfterChunks',
    'endless',
  ] as const;
  expectKeys(fault, [...keys, ...effects], path, fail);
  if (![...effects, 'status', 'code'].some((k) => fault[k] !== undefined)) {
    fail(path, `needs at least one of status, code, ${effects.join(', ')}`);
  }
  optional(fault.status, (v) => {
    expectInteger(v, `${path}.status`, 400, fail);
    if ((v as number) > 599) fail(`${path}.status`, 'must be an HTTP error status (400-599)');
  });
  for (const key of ['message', 'type'] as const)
    optional(fault[key], (v) => expectString(v, `${path}.${key}`, fail));
  for (const key of ['code', 'param'] as const) {
    optional(fault[key], (v) => (v === null ? undefined : expectString(v, `${path}.${key}`, fail)));
  }
  const counts = [
    'retryAfter',
    'retryAfterMs',
    'slowFirstByteMs',
    'disconnectAfterChunks',
    'stallAfterChunks',
  ] as const;
  for (const key of counts) optional(fault[key], (v) => expectInteger(v, `${path}.${key}`, 0, fail));
  optional(fault.emptyChoices, (v) => expectBoolean(v, `${path}.emptyChoices`, fail));
  optional(fault.endless, (v) => expectOneOf(v, ENDLESS_KINDS, `${path}.endless`, fail));
}

function optional(value: unknown, check: (value: unknown) => void): void {
  if (value !== undefined) check(value);
}

function expectObject(value: unknown, path: string, fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  return value as Record<string, unknown>;
}

function expectKeys(
  obj: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
  fail: Fail,
): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(path, `has unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  }
}

function expectString(value: unknown, path: string, fail: Fail): void {
  if (typeof value !== 'string') fail(path, 'must be a string');
}

function expectBoolean(value: unknown, path: string, fail: Fail): void {
  if (typeof value !== 'boolean') fail(path, 'must be true or false');
}

function expectInteger(value: unknown, path: string, min: number, fail: Fail): void {
  if (!Number.isInteger(value) || (value as number) < min) fail(path, `must be an integer >= ${min}`);
}

function expectCost(value: unknown, path: string, fail: Fail): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(path, 'must be a number >= 0');
}

function expectOneOf(value: unknown, allowed: readonly string[], path: string, fail: Fail): void {
  if (typeof value !== 'string' || !allowed.includes(value))
    fail(path, `must be one of ${allowed.join(', ')}`);
}
