// The slice of an OpenAI Chat Completions request the server reads. Bodies arrive as untrusted JSON,
// so these types are only applied after validate-messages.ts has accepted the body.

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: Role;
  content?: unknown;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
  name?: string;
}

/** A validated request, reduced to what scenario matching and reply building need. */
export interface ChatRequestView {
  model: string;
  messages: ChatMessage[];
  tools: unknown[] | undefined;
  toolChoice: unknown;
  stream: boolean;
  includeUsage: boolean;
}

export function toRequestView(body: Record<string, unknown>): ChatRequestView {
  const streamOptions = body.stream_options as { include_usage?: unknown } | null | undefined;
  return {
    model: body.model as string,
    messages: body.messages as ChatMessage[],
    tools: Array.isArray(body.tools) ? body.tools : undefined,
    toolChoice: body.tool_choice,
    stream: body.stream === true,
    includeUsage: body.stream === true && streamOptions?.include_usage === true,
  };
}

// One reading of a message's text, shared with the demo model's server.
export { messageText } from '../../../src/host/node/demo-model/demo-wire';

/** 'auto', 'none', 'required', 'function:NAME', or '(unset)': one string form so scenarios can match it. */
export function describeToolChoice(toolChoice: unknown): string {
  if (toolChoice === undefined || toolChoice === null) return '(unset)';
  if (typeof toolChoice === 'string') return toolChoice;
  const name = (toolChoice as { function?: { name?: unknown } }).function?.name;
  return typeof name === 'string' ? `function:${name}` : JSON.stringify(toolChoice);
}
