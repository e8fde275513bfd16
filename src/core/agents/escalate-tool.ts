// `escalate`: a delegated agent stops early and hands the problem back to the agent that started it
// (OpenHands' EventActions.escalate). Recorded as a FinishAction under its own name, so an export
// loads in the SDK; the reducer ends the run on its observation as it does on finish's.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { ESCALATE_TOOL_NAME } from '../state/reducer';
import type { ToolSpec } from '../tools';
import { BUILTIN_PARAMETERS } from '../tools/builtin-parameters';
import { observation } from '../tools/observation';

export { ESCALATE_TOOL_NAME };

const EscalateArgsSchema = lazySchema(() =>
  z.object({
    message: z
      .string()
      .min(1)
      .describe(
        'Why you stop, what you found so far, and what the agent that gave you the task must decide.',
      ),
  }),
);
export type EscalateArgs = z.infer<typeof EscalateArgsSchema>;

export function createEscalateTool(): ToolSpec<EscalateArgs> {
  return {
    name: ESCALATE_TOOL_NAME,
    description:
      'Stop now and hand the task back to the agent that delegated it, when you cannot or should not go on ' +
      '(the task is unclear, needs a decision, or needs tools you do not have). The message is your result.',
    readOnly: true,
    actionKind: 'FinishAction',
    observationKind: 'FinishObservation',
    argsSchema: EscalateArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.escalate,
    execute: async (args) => observation('FinishObservation', args.message),
  };
}
