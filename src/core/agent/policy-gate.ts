// The default ConfirmationGate: every action is rated by the security analyzers (the model's own
// rating and the rule-based checks of commands and paths, the highest wins), then the user's
// confirmation policy (mode, threshold, allow rules) decides. Read-only tools wait only when the
// path rules rate what they read MEDIUM or more (outside the workspace, secrets).
import type { ActionEvent } from '../events';
import { analyzeAction, needsConfirmation, type ConfirmationPolicy } from '../security';
import type { ToolSpec } from '../tools';
import type { ConfirmationDecision, ConfirmationGate } from './ports';

export class PolicyGate implements ConfirmationGate {
  constructor(
    private readonly tools: () => readonly ToolSpec[],
    private readonly policy: () => ConfirmationPolicy,
    /** Folders besides the workspace the agent may read freely (e.g. where full command output is kept). */
    private readonly readableRoots: () => readonly string[] = () => [],
    /** Where the agent's shell is now: commands are judged from there (see trackShellCwd). */
    private readonly shellCwd: () => string | undefined = () => undefined,
  ) {}

  decide(actions: readonly ActionEvent[]): ConfirmationDecision[] {
    const policy = this.policy();
    const roots = policy.roots ?? [];
    const reviews = actions.map((a) => {
      const args = argumentsOf(a);
      return {
        toolName: a.tool_name,
        readOnly: this.tools().find((t) => t.name === a.tool_name)?.readOnly ?? false,
        args,
        analysis: analyzeAction(a.tool_name, args, roots, {
          readableRoots: this.readableRoots(),
          shellCwd: this.shellCwd(),
        }),
      };
    });
    return needsConfirmation(policy, reviews).map((d, i) => ({
      actionId: actions[i]!.id,
      confirm: d.confirm,
      risk: d.risk,
      reasons: [d.reason],
      riskReasons: reviews[i]!.analysis.reasons,
    }));
  }
}

/** The model's arguments (including its security_risk), falling back to the validated action. */
function argumentsOf(a: ActionEvent): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(a.tool_call.arguments);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through: the stored action is what was validated
  }
  return { ...(a.action as Record<string, unknown> | null), security_risk: a.security_risk };
}
