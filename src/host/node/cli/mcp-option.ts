// `--mcp-config FILE`: MCP servers in the shape Claude Desktop, Cline and others use
// (`{"mcpServers": {...}}`). `run` records the file's path, so approve/reject/resolve start the
// same servers unless given another file.
import crypto from 'node:crypto';
import { readMcpConfigFile, type ParsedMcpConfig } from '../mcp';
import { UsageError } from './exit-codes';
import type { CliIo } from './io';

export const MCP_CONFIG_OPTION = { 'mcp-config': { type: 'string' } } as const;

/**
 * The servers of FILE (an unreadable or invalid file is a usage error: the user named it); `read`
 * gets the fingerprint of the content they come from.
 */
export function mcpConfigFrom(
  command: string,
  path: string | undefined,
  read?: (sha256: string) => void,
): ParsedMcpConfig | undefined {
  if (path === undefined) return undefined;
  try {
    return readMcpConfigFile(path, (text) => read?.(crypto.hash('sha256', text, 'hex')));
  } catch (err) {
    throw new UsageError(`logbook ${command}: --mcp-config: ${(err as Error).message}`);
  }
}

/** MCP lines go to stderr: they are about the run, not events of the conversation. */
export function mcpLog(io: CliIo): (line: string) => void {
  return (line) => io.err(`[mcp] ${line}`);
}
