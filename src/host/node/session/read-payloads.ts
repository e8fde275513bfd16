// The payload schemas a log is read with when its conversation's own tool list does not exist yet
// (the store opens first) or never will (show, export, replay): every built-in tool's, and the
// one pair every MCP tool shares. Each kind belongs to one tool, so a log reads no stricter than
// its own tools wrote it; a kind none of these makes (a host's own tool) stays open.
import type { PayloadSchemas } from '../../../core/events';
import {
  MCP_ACTION_KIND,
  MCP_OBSERVATION_KIND,
  McpActionPayloadSchema,
  McpObservationPayloadSchema,
} from '../../../core/mcp';
import { payloadSchemasOfBuiltIns } from '../../../core/tools';

export function payloadSchemasForReading(): PayloadSchemas {
  const builtIn = payloadSchemasOfBuiltIns();
  return {
    actions: new Map([...builtIn.actions, [MCP_ACTION_KIND, McpActionPayloadSchema]]),
    observations: new Map([...builtIn.observations, [MCP_OBSERVATION_KIND, McpObservationPayloadSchema]]),
  };
}
