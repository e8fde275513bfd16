/** MCP servers for hosts on Node (the CLI and the VS Code extension host). */
export { joinSecrets, McpHub, type McpHubOptions, type McpServerStatus } from './mcp-hub';
export {
  type HttpServerConfig,
  isStdio,
  type McpServerConfig,
  parseMcpServers,
  type ParsedMcpConfig,
  readMcpConfigFile,
  type StdioServerConfig,
} from './mcp-config';
export { environmentResolver, expandReferences, type ReferenceResolver } from './references';
