// A conversation an external agent ran before this process: the agent starts a new session (its
// own saved sessions live in the sandbox's home, which starts empty each time), so its first
// prompt carries a brief record of the earlier turns, newest kept when they are long.
import type { ChatMessage } from '../../../core/events/to-messages';
import { textOf } from './agent-stops';

/** At most this much of the earlier turns goes with the prompt. */
const BRIEF_CHARS = 6_000;
/** Each message is cut to this. */
const MESSAGE_CHARS = 1_500;

/** The earlier turns before `messages`' last (the new task), or undefined when there are none. */
export function historyBrief(messages: readonly ChatMessage[], limit = BRIEF_CHARS): string | undefined {
  const lines: string[] = [];
  let size = 0;
  for (const m of messages.slice(0, -1).reverse()) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const text = textOf(m).trim();
    if (!text) continue;
    const cut = text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)} […]` : text;
    const line = `${m.role === 'user' ? 'User' : 'You'}: ${cut}`;
    if (size + line.length > limit) break;
    lines.unshift(line);
    size += line.length;
  }
  if (lines.length === 0) return undefined;
  return (
    'Earlier in this conversation (you were started again and did not see it; a brief record):\n\n' +
    lines.join('\n\n') +
    '\n\nThe new message follows.\n'
  );
}
