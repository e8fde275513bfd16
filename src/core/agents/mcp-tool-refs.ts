// How an agent definition names MCP tools in `tools`: `server/tool`, by the server's name in the MCP
// configuration and the tool's own name (as the server lists it, whatever name the model is offered
// it under), or `server/*` for every tool of that server. A name without `/` is a built-in tool's.

export interface McpToolRef {
  server: string;
  /** The tool's own name; `*`: every tool of the server. */
  tool: string;
  /** As the definition writes it. */
  text: string;
}

export const ALL_TOOLS_OF_SERVER = '*';

/** The MCP tool a `tools` entry names, or null for a built-in tool's name. Splits at the first `/`. */
export function parseMcpToolRef(entry: string): McpToolRef | null {
  const at = entry.indexOf('/');
  if (at < 0) return null;
  return { server: entry.slice(0, at), tool: entry.slice(at + 1), text: entry };
}

/** What is wrong with a `tools` entry that names an MCP tool (empty server or tool), or null. */
export function mcpToolRefProblem(entry: string): string | null {
  const ref = parseMcpToolRef(entry);
  if (!ref || (ref.server && ref.tool)) return null;
  return `"${entry}" must name an MCP tool as server/tool, or every tool of a server as server/*`;
}

/** The MCP tools a definition's `tools` names; null: the definition has no list (every tool). */
export function mcpToolRefs(tools: readonly string[] | null): McpToolRef[] | null {
  if (tools === null) return null;
  return tools.flatMap((t) => parseMcpToolRef(t) ?? []);
}

/** Whether these references (null: no list, so all) select the server's tool, by its own name. */
export function selectsMcpTool(refs: readonly McpToolRef[] | null, server: string, tool: string): boolean {
  if (refs === null) return true;
  return refs.some((r) => r.server === server && (r.tool === ALL_TOOLS_OF_SERVER || r.tool === tool));
}
