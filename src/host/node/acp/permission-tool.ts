// An external agent's `session/request_permission` as an action of Logbook's: the agent asks before
// one of its own tools, and the ask goes through the same gate as Logbook's own actions (the
// confirmation policy, plan mode, the allow rules for a command). Running the action only grants
// the permission; the agent runs the tool itself, inside the sandbox it was started in.
import { z } from 'zod';
import {
  MCP_ACTION_KIND,
  McpActionPayloadSchema,
  McpObservationPayloadSchema,
} from '../../../core/mcp/mcp-tool';
import { MCP_OBSERVATION_KIND } from '../../../core/mcp/call-result';
import { lazySchema } from '../../../core/schema/lazy-schema';
import { commandRisk } from '../../../core/security/command-risk';
import { AGENT_PERMISSION_TOOL } from '../../../core/security/confirmation-policy';
import type { ToolSpec } from '../../../core/tools/tool';

export { AGENT_PERMISSION_TOOL };

/** The observation's text when the permission is granted; the agent is told so. */
export const GRANTED = 'Permission granted: the agent runs its tool.';

// Built on first use: `logbook approve` and `reject` load this module whether or not an agent asks.
const ArgsSchema = lazySchema(() =>
  z.looseObject({
    title: z.string(),
    /** ACP's tool kind: read, edit, delete, move, search, execute, think, fetch, other. */
    kind: z.string().optional(),
    /** The command line, for an `execute` call that names one: rated as a terminal command is. */
    command: z.string().optional(),
    /** The ACP tool call as the agent sent it. */
    tool_call: z.unknown().optional(),
  }),
);

export function agentPermissionTool(agentName: string): ToolSpec<Record<string, unknown>> {
  return {
    name: AGENT_PERMISSION_TOOL,
    description: `The external agent "${agentName}" asks to run one of its own tools.`,
    readOnly: false,
    actionKind: MCP_ACTION_KIND,
    observationKind: MCP_OBSERVATION_KIND,
    argsSchema: ArgsSchema,
    ruleRisk: (args) => {
      if (typeof args.command === 'string' && args.command.trim() !== '') return commandRisk(args.command);
      const kind = typeof args.kind === 'string' ? args.kind : 'other';
      // Nothing tells what the agent's own tool does beyond its kind: not rated low.
      return { risk: 'MEDIUM', reasons: [`the agent "${agentName}" asks to run its own tool (${kind})`] };
    },
    toActionFields: ({ security_risk: _r, summary: _s, ...args }) => ({ data: args }),
    async execute() {
      return {
        kind: MCP_OBSERVATION_KIND,
        tool_name: AGENT_PERMISSION_TOOL,
        content: [{ type: 'text', text: GRANTED }],
        is_error: false,
      };
    },
    actionPayloadSchema: McpActionPayloadSchema,
    observationPayloadSchema: McpObservationPayloadSchema,
  };
}
