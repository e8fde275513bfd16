/**
 * Joins message lists converted separately the way `eventsToMessages` joins them in one pass:
 * a user message that follows a user message is merged into it. Never mutates its inputs.
 */
import type { ChatMessage, ChatUserMessage } from '../events';

/** Appends `next` to `out` in place; `out`'s last element may be replaced, never modified. */
export function appendMessages(out: ChatMessage[], next: readonly ChatMessage[]): void {
  const first = next[0];
  const last = out.at(-1);
  let from = 0;
  if (first?.role === 'user' && last?.role === 'user') {
    out[out.length - 1] = mergeUser(last, first);
    from = 1;
  }
  for (let i = from; i < next.length; i++) out.push(next[i]!);
}

/** `a` followed by `b` in a new array (one allocation: this runs for every prompt). */
export function joinMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): ChatMessage[] {
  const out = a.slice();
  appendMessages(out, b);
  return out;
}

function mergeUser(a: ChatUserMessage, b: ChatUserMessage): ChatUserMessage {
  if (typeof a.content === 'string' && typeof b.content === 'string') {
    return { role: 'user', content: `${a.content}\n\n${b.content}` };
  }
  const asParts = (c: ChatUserMessage['content']) =>
    typeof c === 'string' ? [{ type: 'text' as const, text: c }] : c;
  return { role: 'user', content: [...asParts(a.content), ...asParts(b.content)] };
}
