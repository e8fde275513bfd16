// The agent tools (delegate, transfer, escalate) as specs whose schemas alone are read: the list
// whose parameters are computed ahead with the built-in tools' (scripts/builtin-parameters.ts).
import type { ToolSpec } from '../tools';
import { createDelegateTool } from './delegate-tool';
import { createEscalateTool } from './escalate-tool';
import { createTransferTool } from './transfer-tool';

const notForUse = () => Promise.reject(new Error('not for use'));

export function everyAgentTool(): ToolSpec[] {
  return [
    createDelegateTool({
      agents: () => [],
      runner: { run: notForUse },
      readOnlyTools: new Set(),
    }),
    createTransferTool({ agents: () => [], grant: notForUse, transfer: notForUse, setMode: notForUse }),
    createEscalateTool(),
  ] as ToolSpec[];
}
