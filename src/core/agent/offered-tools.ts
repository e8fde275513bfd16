// Which tools from outside (MCP servers, the editor's language-model tools) the model is offered.
// The system prompt event lists the built-in tools; these come and go while a conversation runs (a
// server starts, stops or changes its tools), so each change is recorded, with the definitions the
// model saw, before the request that offers it: the log then says what the agent could call.
import { createHash } from 'node:crypto';
import { stringifyJson } from '../json/stringify';
import { TOOLS_OFFERED_KEY, type ToolRating } from '../state';
import { toolDefinition, type ToolSpec } from '../tools';

export { TOOLS_OFFERED_KEY };
export type { ToolRating };

export interface ToolsOfferedValue {
  /** The definitions of every tool from outside offered from now on (empty: none). */
  tools: ReturnType<typeof toolDefinition>[];
  /**
   * The rating each tool has of its own (an MCP tool's annotations), by name: what the gate weighs
   * against the model's rating, kept so a reader of the log (`logbook show`) rates a held call the
   * same way without starting the server.
   */
  ratings?: Record<string, ToolRating>;
  /** sha256 of the definitions, to tell a change without reading them all again. */
  sha256: string | null;
}

/** The update to record before a request offering `outside`, or null when the set is as recorded. */
export function toolsOfferedUpdate(
  outside: readonly ToolSpec[],
  recorded: string | null,
): { key: string; value: ToolsOfferedValue } | null {
  const tools = outside.map(toolDefinition);
  const ratings: Record<string, ToolRating> = {};
  for (const spec of outside) {
    // An MCP tool's rating comes from its annotations alone (its arguments do not change it).
    const own = spec.ruleRisk?.({});
    if (own) ratings[spec.name] = { risk: own.risk, reasons: own.reasons, read_only: spec.readOnly };
  }
  const hasRatings = Object.keys(ratings).length > 0;
  const sha256 = tools.length
    ? createHash('sha256')
        .update(stringifyJson(hasRatings ? { tools, ratings } : tools) ?? '')
        .digest('hex')
    : null;
  return sha256 === recorded
    ? null
    : { key: TOOLS_OFFERED_KEY, value: { tools, sha256, ...(hasRatings ? { ratings } : {}) } };
}
