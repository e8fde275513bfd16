/** Public API of MCP tools in the core. Import from `src/core/mcp`, not from the files inside. */
export type { McpCallOptions, McpServerPort, McpToolAnnotations, McpToolInfo } from './port';
export { annotationRisk, type AnnotatedRisk } from './annotations-risk';
export { assignToolNames, type AssignedName, type NameAssignment, type NamedTool } from './tool-names';
export {
  DEFAULT_RESULT_LIMITS,
  MCP_OBSERVATION_KIND,
  mcpError,
  observationFromResult,
  type ResultLimits,
} from './call-result';
export { argumentsSchema } from './json-arguments';
export {
  createMcpTool,
  MCP_ACTION_KIND,
  McpActionPayloadSchema,
  McpObservationPayloadSchema,
  type McpToolOptions,
} from './mcp-tool';
