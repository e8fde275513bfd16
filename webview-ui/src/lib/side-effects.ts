// Tools that change nothing outside the conversation: they never ask, so a risk badge on them
// says nothing (and without a model rating it read UNKNOWN, which looked alarming).
import { str, type Json } from './fields';

// `delegate` itself changes nothing: each action of the agents it starts is rated on its own.
const SIDE_EFFECT_FREE = new Set([
  'finish',
  'think',
  'task_tracker',
  'glob',
  'grep',
  'web_search',
  'delegate',
]);
const READING_COMMANDS = new Set(['view']);

export function isSideEffectFree(tool: string, action: Json | undefined): boolean {
  if (SIDE_EFFECT_FREE.has(tool)) return true;
  return tool === 'file_editor' && READING_COMMANDS.has(str(action?.command) ?? '');
}
