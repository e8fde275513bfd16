// Chat Completions messages (what the core builds) in the shape of VS Code's Language Model API.
// That API has only user and assistant turns: the system prompt becomes the first user turn, and
// tool results go back as tool-result parts of a user turn, consecutive ones in one turn.
import type { ChatMessage } from '../../../core/events/to-messages';
import type { LmApi } from './lm-api';

/** Said in place of an image: the Language Model API of VS Code 1.95 takes text parts only. */
export const IMAGE_LEFT_OUT =
  '[An image was attached here; it is left out because editor models receive text only.]';

export function toLmMessages(api: LmApi, messages: readonly ChatMessage[]): unknown[] {
  const out: unknown[] = [];
  let results: unknown[] = [];
  const flushResults = () => {
    if (results.length > 0) out.push(api.User(results));
    results = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      results.push(new api.ToolResultPart(m.tool_call_id, [new api.TextPart(m.content)]));
      continue;
    }
    flushResults();
    if (m.role === 'system') out.push(api.User([new api.TextPart(m.content)]));
    else if (m.role === 'user') out.push(api.User([new api.TextPart(userText(m.content))]));
    else {
      const parts: unknown[] = [];
      if (m.content) parts.push(new api.TextPart(m.content));
      for (const call of m.tool_calls ?? []) {
        parts.push(
          new api.ToolCallPart(call.id, call.function.name, argumentsObject(call.function.arguments)),
        );
      }
      if (parts.length > 0) out.push(api.Assistant(parts));
    }
  }
  flushResults();
  return out;
}

function userText(content: Extract<ChatMessage, { role: 'user' }>['content']): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : IMAGE_LEFT_OUT)).join('\n\n');
}

/**
 * The API wants an object. Arguments the model once wrote as invalid JSON were answered with an
 * error the model saw; they go back as their raw text so the turn still reads as it happened.
 */
export function argumentsObject(text: string): object {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  return { invalid_arguments: text };
}

/** The text of every message, for the model's own token count of the prompt. */
export function promptText(messages: readonly ChatMessage[]): string {
  return messages
    .map((m) => {
      if (m.role === 'assistant') {
        const calls = (m.tool_calls ?? []).map((c) => `${c.function.name} ${c.function.arguments}`);
        return [m.content ?? '', ...calls].join('\n');
      }
      return m.role === 'user' ? userText(m.content) : m.content;
    })
    .join('\n');
}
