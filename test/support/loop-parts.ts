// The parts of the conversation loop on a real in-memory log, for tests that pin one part's
// contract without the whole Conversation: a journal, policies over it, model replies as data.
import { z } from 'zod';
import type { Event, PayloadSchemas } from '../../src/core/events';
import type { LlmResponse } from '../../src/core/llm/types';
import { MemoryEventStore } from '../../src/core/log/memory-store';
import { ConversationMemory } from '../../src/core/agent/conversation-memory';
import { ConversationJournal } from '../../src/core/agent/conversation-journal';
import type { StoredConversationEvent } from '../../src/core/agent/event-codec';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from '../../src/core/agent/settings';
import {
  ConversationPolicies,
  type ConversationPolicy,
  type PolicyContext,
} from '../../src/core/agent/policies/policy';
import { SecretGuard, type NamedSecret } from '../../src/core/secrets';
import { defaultTools, payloadSchemasOf, type ToolSpec } from '../../src/core/tools';

export interface JournalFixture {
  store: MemoryEventStore<StoredConversationEvent>;
  journal: ConversationJournal;
  memory: ConversationMemory;
  /** Every event appended, in order, as the listeners saw it. */
  seen: Event[];
}

/** The built-in tools' payload schemas, as a conversation with them checks its events. */
const DEFAULT_PAYLOAD_SCHEMAS = payloadSchemasOf(defaultTools());

export async function openJournal(
  opts: { secrets?: readonly NamedSecret[]; snapshotEvery?: number; payloads?: PayloadSchemas } = {},
): Promise<JournalFixture> {
  const store = new MemoryEventStore<StoredConversationEvent>();
  const { memory } = await ConversationMemory.load(store, 'parts-test');
  const secrets = opts.secrets ?? [];
  const journal = new ConversationJournal(
    store,
    memory,
    new SecretGuard(() => secrets),
    opts.snapshotEvery ?? 500,
    () => opts.payloads ?? DEFAULT_PAYLOAD_SCHEMAS,
  );
  const seen: Event[] = [];
  journal.onEvent((e) => seen.push(e));
  return { store, journal, memory, seen };
}

/** A policy context over the fixture's journal, with settings the test may change. */
export function policyContext(
  f: JournalFixture,
  settings: Partial<AgentSettings> = {},
): PolicyContext & { settings: AgentSettings } {
  return {
    log: f.journal,
    settings: { ...DEFAULT_AGENT_SETTINGS, ...settings },
    get recent() {
      return f.memory.recent;
    },
  };
}

export function policiesOver(
  list: ConversationPolicy[],
  f: JournalFixture,
  settings: Partial<AgentSettings> = {},
): ConversationPolicies {
  return new ConversationPolicies(list, policyContext(f, settings));
}

/** A model reply calling the given tools (arguments as objects, sent as the model's JSON text). */
export function reply(
  calls: { name: string; args: Record<string, unknown> }[],
  content = '',
  usage = { promptTokens: 10, completionTokens: 5 },
): LlmResponse {
  return {
    id: `resp-${Math.random().toString(36).slice(2)}`,
    model: 'parts-model',
    content,
    reasoning: null,
    toolCalls: calls.map((c, i) => ({ id: `call_${i}`, name: c.name, arguments: JSON.stringify(c.args) })),
    finishReason: calls.length ? 'tool_calls' : 'stop',
    usage: { ...usage, cachedTokens: 0, reasoningTokens: 0 },
    cost: 0,
    latencyMs: 1,
  };
}

/** A tool that writes nothing real: it notes each call and answers with its text. */
export function noteTool(
  name: string,
  opts: { readOnly?: boolean; onRun?: (text: string) => void | Promise<void> } = {},
): ToolSpec & { runs: string[] } {
  const runs: string[] = [];
  return {
    name,
    description: `notes its text (${name})`,
    readOnly: opts.readOnly ?? false,
    actionKind: 'NoteAction',
    observationKind: 'NoteObservation',
    argsSchema: z.object({ text: z.string() }) as unknown as z.ZodType<Record<string, unknown>>,
    runs,
    async execute(args) {
      const text = String(args.text);
      runs.push(text);
      await opts.onRun?.(text);
      return { kind: 'NoteObservation', content: [{ type: 'text', text: `noted ${text}` }], is_error: false };
    },
  };
}

export const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

export const updates = (events: readonly Event[], key: string) =>
  ofKind(events, 'ConversationStateUpdateEvent').filter((e) => e.key === key);
