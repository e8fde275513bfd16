// A point of the conversation named in the user's words: the command an action ran, the summary
// it gave, the start of a message. What a restore went back to, or where time travel stands, is
// said with these ("before: npm test"), never with ids or hashes.
import type { EventJson } from '../../../src/protocol/messages';
import { contentText, obj, str } from './fields';

const MAX_CHARS = 48;

/**
 * The text with its whitespace collapsed, cut at MAX_CHARS. It reads only the words it keeps: every
 * message is named as it arrives, and a long one must not be scanned whole for 48 characters.
 */
function shorten(s: string): string {
  const word = new RegExp(`\\S{1,${MAX_CHARS + 1}}`, 'g'); // a longer piece ends the name anyway
  let line = '';
  for (let m = word.exec(s); m && line.length <= MAX_CHARS; m = word.exec(s))
    line = line ? `${line} ${m[0]}` : m[0];
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
