// `think` (OpenHands ThinkAction): room to reason about a problem; it changes nothing.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolSpec } from './tool';
import { observation } from './observation';
import { BUILTIN_PARAMETERS } from './builtin-parameters';

export const THINK_TOOL_NAME = 'think';

const ThinkArgsSchema = lazySchema(() => z.object({ thought: z.string().describe('Your reasoning.') }));
export type ThinkArgs = z.infer<typeof ThinkArgsSchema>;

export function createThinkTool(): ToolSpec<ThinkArgs> {
  return {
    name: THINK_TOOL_NAME,
    description:
      'Think through a problem before acting: weigh causes of a bug, compare approaches, plan a change. ' +
      'It neither fetches information nor changes anything; the thought is only recorded.',
    readOnly: true,
    actionKind: 'ThinkAction',
    observationKind: 'ThinkObservation',
    argsSchema: ThinkArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.think,
    execute: async () => observation('ThinkObservation', 'Your thought has been recorded.'),
    actionPayloadSchema: z.looseObject({ thought: z.string() }),
  };
}
