// The slice of a Chat Completions request the demo model reads, and the shape of its replies.

export interface DemoMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface DemoRequest {
  messages: DemoMessage[];
}

export interface DemoToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface DemoReply {
  content?: string;
  toolCalls?: DemoToolCall[];
  /** Characters per streamed delta. */
  chunkSize?: number;
  /** Pause between streamed deltas, so the reply reads as it arrives. */
  delayMs?: number;
}

/** Text of a message's content, whether it is a plain string or an array of content parts. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : '';
    })
    .join('');
}
