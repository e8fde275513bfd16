// A remote conversation's results came from the agent-server's tools, its replay's from Logbook's:
// the same call gets the same effect worded differently (the server's terminal lays output out in
// columns and keeps how the command ended in a field; the two file editors describe an edit in
// their own sentences). Across the two agents a result is compared by what both state: a terminal
// command's output as words and its exit code, any other tool's result as how it ended.
import type { Event } from '../events';
import { text } from '../events/accessors';
import { ENDING_NOTE, NO_OUTPUT } from '../tools/terminal-notes';

const TERMINAL = 'terminal';
const WORKING_DIR_NOTE = /^\[Working directory is now /;

/** The part of a tool call's result that both agents' tools state the same way. */
export function crossAgentForm(e: Event): string {
  if (e.kind === 'AgentErrorEvent') return 'error';
  if (e.kind === 'UserRejectObservation') return 'rejected';
  if (e.kind !== 'ObservationEvent') return text(e);
  const o = e.observation as { is_error?: boolean; exit_code?: unknown };
  if (e.tool_name !== TERMINAL) return o.is_error ? 'failed' : 'succeeded';
  const words = text(e)
    .split('\n')
    .filter((l) => !ENDING_NOTE.test(l) && !WORKING_DIR_NOTE.test(l) && l !== NO_OUTPUT)
    .join(' ')
    .split(/\s+/)
    .filter((w) => w !== '')
    .join(' ');
  return `${words}\n(exit code ${typeof o.exit_code === 'number' ? o.exit_code : 'unknown'})`;
}
