// An MCP server's tool as a ToolSpec: offered under its (possibly prefixed) name with the server's
// description and schema, rated by its annotations, logged as OpenHands' MCPToolAction /
// MCPToolObservation, and answered with an error observation whatever goes wrong with the server.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { ContentSchema } from '../events/content';
import type { ToolSpec } from '../tools/tool';
import { annotationRisk } from './annotations-risk';
import {
  DEFAULT_RESULT_LIMITS,
  MCP_OBSERVATION_KIND,
  mcpError,
  observationFromResult,
  type ResultLimits,
} from './call-result';
import { argumentsSchema } from './json-arguments';
import type { McpServerPort, McpToolInfo } from './port';

export const MCP_ACTION_KIND = 'MCPToolAction';

export interface McpToolOptions {
  /** The name the model calls (the tool's own unless it clashed). */
  exposedName: string;
  /** Calls run without asking (the server's `alwaysAllow` list names it). */
  alwaysAllow?: boolean;
  limits?: ResultLimits;
}

export function createMcpTool(
  server: McpServerPort,
  info: McpToolInfo,
  opts: McpToolOptions,
): ToolSpec<Record<string, unknown>> {
  const rated = annotationRisk(server.name, info.annotations);
  const limits = opts.limits ?? DEFAULT_RESULT_LIMITS;
  const description =
    (info.description?.trim() || info.annotations?.title || info.name) + ` (MCP server "${server.name}")`;
  return {
    name: opts.exposedName,
    mcp: { server: server.name, tool: info.name },
    description,
    readOnly: rated.readOnly,
    actionKind: MCP_ACTION_KIND,
    observationKind: MCP_OBSERVATION_KIND,
    jsonSchema: info.inputSchema,
    argsSchema: argumentsSchema(info.inputSchema),
    ruleRisk: () => ({ risk: rated.risk, reasons: rated.reasons }),
    ...(opts.alwaysAllow ? { alwaysAllow: true } : {}),
    toActionFields: (args) => ({ data: args }),
    async execute(args, ctx) {
      let raw: unknown;
      try {
        raw = await server.callTool(info.name, args, { signal: ctx.signal });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        return mcpError(
          info.name,
          `The MCP server "${server.name}" could not run ${info.name}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      return observationFromResult(raw, { server: server.name, tool: info.name, limits, ctx });
    },
    actionPayloadSchema: McpActionPayloadSchema,
    observationPayloadSchema: McpObservationPayloadSchema,
  };
}

/** OpenHands' MCPToolAction: the call's arguments under `data`. */
export const McpActionPayloadSchema = lazySchema(() =>
  z.looseObject({ data: z.record(z.string(), z.unknown()) }),
);
export const McpObservationPayloadSchema = lazySchema(() =>
  z.looseObject({
    tool_name: z.string(),
    content: z.array(ContentSchema).optional(),
  }),
);
