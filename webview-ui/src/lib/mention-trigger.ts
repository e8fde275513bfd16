// Where a mention is being typed: the word before the caret, when it starts with "@" or "#" (an
// e-mail address or a "#" inside a word is not a mention), or a "/" that starts the message (an MCP
// server's prompt, as a slash command).
export interface MentionTrigger {
  /** Index of the "@", "#" or "/". */
  start: number;
  trigger: '@' | '#' | '/';
  query: string;
}

export function mentionAt(text: string, caret: number): MentionTrigger | undefined {
  let i = caret;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  const first = text[i];
  if (first === '/' && i === 0) return { start: 0, trigger: '/', query: text.slice(1, caret) };
  if (first !== '@' && first !== '#') return undefined;
  return { start: i, trigger: first, query: text.slice(i + 1, caret) };
}
