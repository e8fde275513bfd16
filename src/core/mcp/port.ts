// What the agent needs from a connected MCP server. The host implements it on the official SDK
// (src/host/node/mcp); the core only sees plain data, so it stays free of transports and processes.

/** Hints a server gives about a tool (MCP ToolAnnotations); every one is optional. */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  /** The JSON schema of its arguments, as the server sent it. */
  inputSchema: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

export interface McpCallOptions {
  signal: AbortSignal;
}

/** A connected server. `callTool` resolves with the raw `tools/call` result (checked by the caller). */
export interface McpServerPort {
  readonly name: string;
  callTool(tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<unknown>;
}
