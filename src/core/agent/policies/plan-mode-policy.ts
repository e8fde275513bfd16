// Plan mode (see plan-mode.ts) as the loop meets it: the request carries the plan-mode
// instructions, a call that writes is refused before it is recorded, and an action recorded in act
// mode but run after a switch to plan mode is refused too.
import { validateToolCall, type ToolSpec } from '../../tools';
import { planModeRefusal, withPlanModePrompt } from '../plan-mode';
import type { ConversationPolicy } from './policy';

export interface PlanModeDeps {
  /** The workspace: a command's paths are judged against it. */
  cwd: string;
  /** Where the agent's shell is now, when known. */
  shellCwd: () => string | undefined;
  /** The tools a recorded action is validated against again. */
  tools: () => readonly ToolSpec[];
}

export function planModePolicy(deps: PlanModeDeps): ConversationPolicy {
  const refusal = (spec: ToolSpec, args: Record<string, unknown>) =>
    planModeRefusal(spec, args, [deps.cwd], deps.shellCwd());
  return {
    name: 'plan-mode',
    messages: (messages, { log }) => (log.state.mode === 'plan' ? withPlanModePrompt(messages) : messages),
    refuseValidCall: ({ spec, args }, { log }) => (log.state.mode === 'plan' ? refusal(spec, args) : null),
    refuseAction(action, { log }) {
      if (log.state.mode !== 'plan') return null;
      // Re-validated, as it is when it runs.
      const v = validateToolCall(deps.tools(), action.tool_name, action.tool_call.arguments);
      return v.ok ? refusal(v.spec, v.args) : null;
    },
  };
}
