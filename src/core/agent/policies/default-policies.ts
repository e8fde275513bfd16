// The policies every conversation runs with, in the order they are consulted: the budget is
// checked before anything is recorded for a request, the call cap before tools are asked about a
// call, and the stuck detector only once the budgets let the run go on.
import type { ConversationPolicy } from './policy';
import type { ConfirmationGate } from '../ports';
import { autopilotPolicy } from './autopilot-policy';
import { budgetPolicy } from './budget-policy';
import { callCapPolicy } from './call-cap-policy';
import { costUnknownPolicy } from './cost-unknown-policy';
import { planModePolicy, type PlanModeDeps } from './plan-mode-policy';
import { sandboxPolicy } from './sandbox-policy';
import { shellPolicy } from './shell-policy';
import { stuckPolicy } from './stuck-policy';
import type { ToolSet } from './tool-set';
import type { SandboxNotice, ShellNotice } from '../../state';

export interface DefaultPolicyDeps {
  toolSet: ToolSet;
  planMode: PlanModeDeps;
  /** The configured model's name, read at each reply. */
  model: () => string;
  sandbox?: () => SandboxNotice;
  shell?: () => ShellNotice;
  /** Rates a recorded action again where autopilot must refuse what it would otherwise ask. */
  gate?: ConfirmationGate;
}

export function defaultPolicies(deps: DefaultPolicyDeps): ConversationPolicy[] {
  return [
    budgetPolicy,
    sandboxPolicy(deps.sandbox),
    shellPolicy(deps.shell),
    callCapPolicy,
    deps.toolSet,
    planModePolicy(deps.planMode),
    ...(deps.gate ? [autopilotPolicy(deps.gate, deps.planMode.tools)] : []),
    costUnknownPolicy(deps.model),
    stuckPolicy,
  ];
}
