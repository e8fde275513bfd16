// The MCP servers an editor passes in `session/new` and `session/load`, started the way the
// servers of Logbook's own MCP file start: sandboxed (a stdio server gets the sandbox's closed
// network, as the file's do unless they name hosts), their tools rated and their secrets redacted.
import type { McpServer } from '@agentclientprotocol/sdk';
import { type ParsedMcpConfig, parseMcpServers } from '../mcp';

/**
 * The editor's servers added to the user's own (`own`, from Logbook's settings). A name both hold
 * keeps the user's server; `note` says which editor servers were left out and why.
 */
export function withEditorServers(
  own: ParsedMcpConfig | undefined,
  editor: readonly McpServer[],
  note: (line: string) => void,
): ParsedMcpConfig | undefined {
  if (editor.length === 0) return own;
  const entries: Record<string, unknown> = {};
  for (const server of editor) {
    const name = server.name.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 40) || 'editor';
    if (own?.servers.has(name) || Object.hasOwn(entries, name)) {
      note(`MCP server "${server.name}" from the editor left out: the name is taken.`);
      continue;
    }
    entries[name] =
      'type' in server && (server.type === 'http' || server.type === 'sse')
        ? {
            type: server.type,
            url: server.url,
            headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
          }
        : {
            command: server.command,
            args: server.args,
            env: Object.fromEntries(server.env.map((e) => [e.name, e.value])),
          };
  }
  const parsed = parseMcpServers(entries);
  for (const problem of parsed.problems) note(`MCP server from the editor left out: ${problem}`);
  return {
    servers: new Map([...(own?.servers ?? []), ...parsed.servers]),
    problems: [...(own?.problems ?? []), ...parsed.problems],
  };
}
