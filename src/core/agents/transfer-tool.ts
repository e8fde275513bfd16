// `transfer_to_agent` (OpenHands' EventActions.transfer_to_agent): the conversation itself goes on
// with another agent definition: same log, and the events that follow carry the new agent_name and
// are signed by its key. The conversation takes the new agent's mode (plan or act) as an
// `agent_mode` update, the one the Plan/Act switch records, so state derived from the log and the
// editor's toggle follow the handoff; but never a wider grant than the agent handing over has
// (effective-grant.ts): a definition asking for act takes over a plan-mode conversation in plan
// mode, one asking for tools the current agent lacks does not get them, and the note says so.
// Recorded as an MCPToolAction (the SDK's action for tools outside its own set), so an export loads
// in the SDK.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolSpec } from '../tools';
import { BUILTIN_PARAMETERS } from '../tools/builtin-parameters';
import { errorObservation, observation } from '../tools/observation';
import type { AgentMode } from '../state';
import type { AgentDefinition } from './definition';
import { type HeldDefinition, notAcceptedMessage } from './definition-trust';
import { type AgentGrant, effectiveGrant } from './effective-grant';

export const TRANSFER_TOOL_NAME = 'transfer_to_agent';

const TransferArgsSchema = lazySchema(() =>
  z.object({
    agent_name: z.string().min(1).describe('The agent to hand the conversation to.'),
    reason: z.string().optional().describe('Why: what the next agent should do.'),
  }),
);
export type TransferArgs = z.infer<typeof TransferArgsSchema>;

export interface TransferDeps {
  agents: () => readonly AgentDefinition[];
  /**
   * The grant of the agent handing over, with the mode the user put the conversation in
   * (effective-grant.ts userMode) as its mode: the next agent gets no wider one.
   */
  grant(): Promise<AgentGrant>;
  /**
   * Records the handoff (with its grant and what was narrowed, if anything) and switches the agent
   * the log's next events belong to.
   */
  transfer(
    agent: AgentDefinition,
    reason: string | undefined,
    granted: { grant: AgentGrant; narrowed: readonly string[] },
  ): Promise<void>;
  /** Puts the conversation in the new agent's mode (a no-op when it is in it already). */
  setMode(mode: AgentMode): Promise<void>;
  /** A definition of this name the user has not accepted (definition-trust.ts): refused, saying why. */
  held?: (name: string) => HeldDefinition | null;
}

export function createTransferTool(deps: TransferDeps): ToolSpec<TransferArgs> {
  return {
    name: TRANSFER_TOOL_NAME,
    description:
      'Hand this conversation over to another agent: it continues from here with its own instructions and tools. ' +
      'Use it when the rest of the work is that agent’s speciality.',
    readOnly: true,
    actionKind: 'MCPToolAction',
    observationKind: 'MCPToolObservation',
    argsSchema: TransferArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.transfer_to_agent,
    toActionFields: (args) => ({ data: { ...args } }),
    execute: async (args) => {
      const defined = deps.agents().find((a) => a.name === args.agent_name);
      const held = defined ? null : deps.held?.(args.agent_name);
      if (held)
        return errorObservation('MCPToolObservation', notAcceptedMessage(held), {
          tool_name: TRANSFER_TOOL_NAME,
        });
      if (!defined) {
        const known = deps
          .agents()
          .map((a) => a.name)
          .join(', ');
        return errorObservation(
          'MCPToolObservation',
          `There is no agent "${args.agent_name}" (known: ${known}).`,
          {
            tool_name: TRANSFER_TOOL_NAME,
          },
        );
      }
      const { agent, grant, narrowed } = effectiveGrant(await deps.grant(), defined);
      await deps.transfer(agent, args.reason, { grant, narrowed });
      // Recorded by the new agent, after its start: its mode is part of taking over.
      await deps.setMode(agent.mode);
      const modeNote =
        agent.mode === 'plan'
          ? 'The conversation is in plan mode: only read, then give a plan.'
          : 'The conversation is in act mode.';
      const text = [
        `The conversation is now handled by the ${agent.name} agent.`,
        ...narrowed.map((n) => `It ${n}.`),
        modeNote,
        agent.instructions,
      ]
        .filter((t) => t)
        .join('\n\n');
      return observation('MCPToolObservation', text, { tool_name: TRANSFER_TOOL_NAME });
    },
  };
}
