// `--mcp-config FILE`: MCP servers in the shape Claude Desktop, Cline and others use
// (`{"mcpServers": {...}}`). `run` records the file's path, so approve/reject/resolve start the
// same servers unless given another file.
import { readMcpConfigFile, type ParsedMcpConfig } from '../mcp';
import { UsageError } from './exit-codes';
import type { CliIo } from './io';

export const MCP_CONFIG_OPTION = { 'mcp-config': { type: 'string' } } as const;

/** The servers of FILE (an unreadable or invalid file is a usage error: the user named it). */
export function mcpConfigFrom(command: string, path: string | undefined): ParsedMcpConfig | undefined {
  if (path === undefined) return undefined;
  try {
    return readMcpConfigFile(path);
  } catch (err) {
    throw new UsageError(`logbook ${command}: --mcp-config: ${(err as Error).message}`);
  }
}

/** MCP lines go to stderr: they are about the run, not events of the conversation. */
export function mcpLog(io: CliIo): (line: string) => void {
  return (line) => io.err(`[mcp] ${line}`);
}
