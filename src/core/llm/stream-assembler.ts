/**
 * Builds one reply from Chat Completions stream chunks and publishes each piece as it arrives.
 * Servers differ in the details, so it is lenient: reasoning arrives as `reasoning_content`
 * (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama); tool-call fragments are joined by index,
 * with a changed id meaning a new call for servers that reuse index 0; usage may come in any chunk.
 */
import { randomBytes } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { LlmDelta, LlmToolCall, LlmUsage } from './types';

interface ToolCallSlot {
  id: string;
  name: string;
  arguments: string;
}

/** Fields some OpenAI-compatible servers add to a delta. */
interface ExtendedDelta {
  content?: string | null;
  refusal?: string | null;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: ChatCompletionChunk.Choice.Delta.ToolCall[];
}

/** Usage fields beyond the OpenAI shape (DeepSeek reports its cache hits separately). */
interface ExtendedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  prompt_cache_hit_tokens?: number;
  /** OpenRouter: what the call cost, in USD (credits). */
  cost?: unknown;
}

export interface AssembledReply {
  id: string | undefined;
  model: string | undefined;
  content: string;
  reasoning: string;
  toolCalls: LlmToolCall[];
  finishReason: string | null;
  usage: LlmUsage | null;
  /** False when no chunk carried a choice (some gateways send `choices: []` only). */
  sawChoice: boolean;
}

export class StreamAssembler {
  private id: string | undefined;
  private model: string | undefined;
  private content = '';
  private reasoning = '';
  private readonly slots: ToolCallSlot[] = [];
  /** Stream index → position in `slots`. */
  private readonly slotByIndex = new Map<number, number>();
  private finishReason: string | null = null;
  private usage: LlmUsage | null = null;
  private sawChoice = false;
  private published = false;
  private bytes = 0;

  constructor(private readonly onDelta?: (d: LlmDelta) => void) {}

  /** True once any delta reached the listener: the call must not be silently retried after that. */
  get deliveredAnything(): boolean {
    return this.published;
  }

  /** UTF-8 bytes of the reply so far: text, reasoning, tool names and arguments. */
  get size(): number {
    return this.bytes;
  }

  /**
   * Adds a chunk; true when it carried part of the reply (text, a tool-call fragment, the finish
   * reason or usage). A chunk with an empty delta is a heartbeat, not progress.
   */
  push(chunk: ChatCompletionChunk): boolean {
    const before = this.bytes;
    const hadFinish = this.finishReason;
    if (chunk.id && !this.id) this.id = chunk.id;
    if (chunk.model && !this.model) this.model = chunk.model;
    if (chunk.usage) this.usage = toUsage(chunk.usage as ExtendedUsage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue; // n > 1 is never requested
      this.sawChoice = true;
      const delta = (choice.delta ?? {}) as ExtendedDelta;
      const reasoning = textField(delta.reasoning_content) ?? textField(delta.reasoning);
      if (reasoning) {
        this.reasoning += reasoning;
        this.bytes += Buffer.byteLength(reasoning);
        this.publish({ type: 'reasoning', text: reasoning });
      }
      // A refusal is the model's answer too: shown as text rather than lost as an "empty" reply.
      for (const piece of [delta.content, delta.refusal]) {
        if (typeof piece !== 'string' || piece === '') continue;
        this.content += piece;
        this.bytes += Buffer.byteLength(piece);
        this.publish({ type: 'text', text: piece });
      }
      for (const call of delta.tool_calls ?? []) this.pushToolCall(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return this.bytes > before || this.finishReason !== hadFinish || Boolean(chunk.usage);
  }

  result(): AssembledReply {
    return {
      id: this.id,
      model: this.model,
      content: this.content,
      reasoning: this.reasoning,
      toolCalls: this.slots.map((s) => ({
        id: s.id || `call_${randomBytes(12).toString('hex')}`,
        name: s.name,
        arguments: s.arguments,
      })),
      finishReason: this.finishReason,
      usage: this.usage,
      sawChoice: this.sawChoice,
    };
  }

  private pushToolCall(call: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const id = call.id ?? '';
    const name = call.function?.name ?? '';
    const args = call.function?.arguments ?? '';
    let position = call.index === undefined ? this.slots.length - 1 : this.slotByIndex.get(call.index);
    const current = position === undefined ? undefined : this.slots[position];
    const isNew = current === undefined || (id !== '' && current.id !== '' && id !== current.id);
    let slot: ToolCallSlot;
    if (isNew) {
      slot = { id, name, arguments: '' };
      position = this.slots.push(slot) - 1;
      if (call.index !== undefined) this.slotByIndex.set(call.index, position);
    } else {
      slot = current;
      if (!slot.id && id) slot.id = id;
      if (!slot.name && name) slot.name = name; // some servers repeat the name in every fragment
    }
    slot.arguments += args;
    this.bytes += Buffer.byteLength(args) + (isNew ? Buffer.byteLength(name) : 0);
    const delta: LlmDelta = { type: 'tool_call', index: position!, argumentsDelta: args };
    if (isNew && id) delta.id = id;
    if (isNew && name) delta.name = name;
    this.publish(delta);
  }

  private publish(d: LlmDelta): void {
    this.published = true;
    if (!this.onDelta) return;
    try {
      this.onDelta(d);
    } catch {
      // A failing listener (a closed webview) must not fail the call whose result is persisted.
    }
  }
}

function textField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function toUsage(u: ExtendedUsage): LlmUsage {
  return {
    promptTokens: u.prompt_tokens ?? 0,
    completionTokens: u.completion_tokens ?? 0,
    cachedTokens: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
    ...(typeof u.cost === 'number' && Number.isFinite(u.cost) && u.cost >= 0 ? { providerCost: u.cost } : {}),
  };
}
