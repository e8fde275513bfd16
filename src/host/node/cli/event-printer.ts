// Prints events as they are appended: a summary line each, or (--json) the event's OpenHands JSON
// (the record as stored, with a long argument the log keeps once written out in full).
import { type Event, serializeEvent } from '../../../core/events';
import { eventLine } from './event-line';
import type { CliIo } from './io';
import { stampOf } from '../../../core/agents/agent-events';
import { printableLine } from '../../../core/text/printable';
import { terminalText } from '../../../core/text/terminal-text';

export interface OutputMode {
  json: boolean;
}

export function eventPrinter(io: CliIo, mode: OutputMode): (event: Event) => void {
  if (mode.json) return (e) => io.out(serializeEvent(e));
  return (e) => {
    // The finish action's line says its message (whole); its observation repeats it word for word.
    if (e.kind === 'ObservationEvent' && e.tool_name === 'finish') return;
    const finish = finishMessage(e);
    if (finish === undefined) return io.out(childIndent(e) + eventLine(e));
    const [first = '', ...rest] = terminalText(finish).trim().split('\n');
    io.out(childIndent(e) + printableLine(`[agent] finish: ${first}`));
    for (const line of rest) io.out(childIndent(e) + printableLine(`  ${line}`));
  };
}

/** The message of a finish action, shown in full: it is the agent's answer. */
function finishMessage(e: Event): string | undefined {
  if (e.kind !== 'ActionEvent' || e.tool_name !== 'finish') return undefined;
  const message = (e.action as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** A delegated agent's events are printed under its parent's, indented by depth and named. */
export function childIndent(e: Event): string {
  const { agent_name, branch } = stampOf(e);
  const depth = Math.floor((branch.split('.').length - 1) / 2);
  return depth > 0 ? `${'    '.repeat(depth)}${agent_name} │ ` : '';
}

/** Notes for people (the conversation directory, hints): stdout, or stderr when stdout is JSON. */
export function note(io: CliIo, mode: OutputMode, line: string): void {
  if (mode.json) io.err(line);
  else io.out(line);
}
