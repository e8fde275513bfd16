// A point of the conversation named in the user's words: the command an action ran, the summary
// it gave, the start of a message. What a restore went back to, or where time travel stands, is
// said with these ("before: npm test"), never with ids or hashes.
import type { EventJson } from '../../../src/protocol/messages';
import { contentText, obj, str } from './fields';

const MAX_CHARS = 48;

function shorten(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}

/** The few words that name `e` for a person, or undefined when it has none of its own. */
export function pointWords(e: EventJson): string | undefined {
  if (e.kind === 'ActionEvent') {
    const action = obj(e.action);
    // What the action did before what the model says it did (its summary is the model's words): a
    // terminal's command as typed (other tools' "command" is the tool's own word), a file's path.
    const command = str(e.tool_name) === 'terminal' ? str(action?.['command']) : undefined;
    const words = command ?? str(action?.['path']) ?? str(e.summary) ?? str(e.tool_name);
    return words?.trim() ? shorten(words) : undefined;
  }
  if (e.kind === 'MessageEvent') {
    const text = contentText(obj(e.llm_message)?.['content']);
    return text.trim() ? shorten(text) : undefined;
  }
  return undefined;
}
