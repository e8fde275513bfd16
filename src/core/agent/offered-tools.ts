// Which tools from outside (MCP servers, the editor's language-model tools) the model is offered.
// The system prompt event lists the built-in tools; these come and go while a conversation runs (a
// server starts, stops or changes its tools), so each change is recorded, with the definitions the
// model saw, before the request that offers it: the log then says what the agent could call.
import { createHash } from 'node:crypto';
import { stringifyJson } from '../json/stringify';
import { TOOLS_OFFERED_KEY } from '../state';
import { toolDefinition, type ToolSpec } from '../tools';

export { TOOLS_OFFERED_KEY };

export interface ToolsOfferedValue {
  /** The definitions of every tool from outside offered from now on (empty: none). */
  tools: ReturnType<typeof toolDefinition>[];
  /** sha256 of the definitions, to tell a change without reading them all again. */
  sha256: string | null;
}

/** The update to record before a request offering `outside`, or null when the set is as recorded. */
export function toolsOfferedUpdate(
  outside: readonly ToolSpec[],
  recorded: string | null,
): { key: string; value: ToolsOfferedValue } | null {
  const tools = outside.map(toolDefinition);
  const sha256 = tools.length
    ? createHash('sha256')
        .update(stringifyJson(tools) ?? '')
        .digest('hex')
    : null;
  return sha256 === recorded ? null : { key: TOOLS_OFFERED_KEY, value: { tools, sha256 } };
}
