// Independent check of the Chat Completions rules eventsToMessages must respect. Returns every
// problem found, so a failing property shows the whole story.
import type { ChatMessage } from '../../../src/core/events';

export function chatProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  // Calls of the latest assistant message still waiting for their tool message.
  let waiting: Set<string> | undefined;
  let waitingAt = -1;
  const close = (i: number) => {
    if (waiting && waiting.size > 0) {
      problems.push(`message ${waitingAt}: calls ${[...waiting].join(',')} unanswered before message ${i}`);
    }
    waiting = undefined;
  };
  messages.forEach((m, i) => {
    if (!['system', 'user', 'assistant', 'tool'].includes(m.role)) problems.push(`message ${i}: bad role`);
    if (m.role === 'tool') {
      if (!waiting) problems.push(`message ${i}: tool message ${m.tool_call_id} without a preceding call`);
      else if (!waiting.delete(m.tool_call_id))
        problems.push(`message ${i}: tool message ${m.tool_call_id} answers no open call`);
      if (typeof m.content !== 'string') problems.push(`message ${i}: tool content must be text`);
      return;
    }
    close(i);
    if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      if (m.tool_calls !== undefined && calls.length === 0) problems.push(`message ${i}: empty tool_calls`);
      if (calls.length === 0 && (m.content === null || m.content === undefined)) {
        problems.push(`message ${i}: assistant without content or tool calls`);
      }
      const ids = new Set<string>();
      for (const c of calls) {
        if (ids.has(c.id)) problems.push(`message ${i}: duplicate call id ${c.id}`);
        ids.add(c.id);
        if (
          c.type !== 'function' ||
          typeof c.function.name !== 'string' ||
          typeof c.function.arguments !== 'string'
        ) {
          problems.push(`message ${i}: malformed call ${c.id}`);
        }
      }
      if (ids.size > 0) {
        waiting = ids;
        waitingAt = i;
      }
    }
  });
  close(messages.length);
  return problems;
}
