// `finish` (OpenHands FinishAction): the agent says it is done; the message is its final answer.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolSpec } from './tool';
import { observation } from './observation';
import { BUILTIN_PARAMETERS } from './builtin-parameters';

export const FINISH_TOOL_NAME = 'finish';

const FinishArgsSchema = lazySchema(() =>
  z.object({
    message: z
      .string()
      .describe('Your final message to the user: what you did, what is left, anything to check.'),
  }),
);
export type FinishArgs = z.infer<typeof FinishArgsSchema>;

export function createFinishTool(): ToolSpec<FinishArgs> {
  return {
    name: FINISH_TOOL_NAME,
    description:
      'Call when the task is complete, or when you cannot go further without the user. ' +
      'The message is shown to the user as your final answer.',
    readOnly: true,
    actionKind: 'FinishAction',
    observationKind: 'FinishObservation',
    argsSchema: FinishArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.finish,
    execute: async (args) => observation('FinishObservation', args.message),
    actionPayloadSchema: z.looseObject({ message: z.string() }),
  };
}
