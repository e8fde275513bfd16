// The default ConfirmationGate: every action is rated by the security analyzers (the model's own
// rating and the rule-based checks of commands and paths, the highest wins), then the user's
// confirmation policy (mode, threshold, allow rules) decides. Read-only tools wait only when the
// path rules rate what they read MEDIUM or more (outside the workspace, secrets).
import type { CheckpointCoverage } from '../checkpoints/types';
import type { ActionEvent } from '../events';
import {
  analyzeAction,
  llmRiskAnalyzer,
  maxRisk,
  type SecurityRisk,
  needsConfirmation,
  type Analyzer,
  type ConfirmationPolicy,
} from '../security';
import type { ToolSpec } from '../tools';
import type { ConfirmationDecision, ConfirmationGate } from './ports';

export class PolicyGate implements ConfirmationGate {
  /** What a checkpoint would hold, as last read (see setCoverage); null: nothing known undoable. */
  private coverage: CheckpointCoverage | null = null;

  constructor(
    private readonly tools: () => readonly ToolSpec[],
    private readonly policy: () => ConfirmationPolicy,
    /** Folders besides the workspace the agent may read freely (e.g. where full command output is kept). */
    private readonly readableRoots: () => readonly string[] = () => [],
    /** Where the agent's shell is now: commands are judged from there (see trackShellCwd). */
    private readonly shellCwd: () => string | undefined = () => undefined,
  ) {}

  shellCwdNow(): string | undefined {
    return this.shellCwd();
  }

  /**
   * Only the default mode with a sandbox running weighs what the checkpoints hold, and only for an
   * action that is not a read-only tool's (the policy decides those by what they read).
   */
  wantsCoverage(actions: readonly ActionEvent[]): boolean {
    const policy = this.policy();
    if (policy.mode !== 'risky' || policy.commandsSandboxed !== true) return false;
    const tools = this.tools();
    return actions.some((a) => tools.find((t) => t.name === a.tool_name)?.readOnly !== true);
  }

  setCoverage(coverage: CheckpointCoverage | null): void {
    this.coverage = coverage;
  }

  decide(actions: readonly ActionEvent[]): ConfirmationDecision[] {
    const own = this.policy();
    const policy = own.coverage === undefined ? { ...own, coverage: this.coverage } : own;
    const roots = policy.roots ?? [];
    const cwd = this.shellCwd();
    const specs = actions.map((a) => this.tools().find((t) => t.name === a.tool_name));
    const reviews = actions.map((a, i) => {
      const args = argumentsOf(a);
      const spec = specs[i];
      return {
        toolName: a.tool_name,
        readOnly: spec?.readOnly ?? false,
        args,
        ...(cwd ? { cwd } : {}),
        analysis: analyzeAction(a.tool_name, args, roots, {
          readableRoots: this.readableRoots(),
          shellCwd: cwd,
          ...(policy.commandsSandboxed ? { commandsSandboxed: true } : {}),
          ...(policy.writable ? { writableRoots: policy.writable } : {}),
          ...(policy.hidden ? { hiddenRoots: policy.hidden } : {}),
          ...(policy.hiddenLinks ? { hiddenLinks: policy.hiddenLinks } : {}),
          ...(a.action ? { action: a.action as Readonly<Record<string, unknown>> } : {}),
          ...(spec?.ruleRisk ? { analyzers: ownRules(spec, a.action) } : {}),
        }),
      };
    });
    return needsConfirmation(policy, reviews).map((d, i) => {
      const allowed = specs[i]?.alwaysAllow === true && d.confirm;
      const analysis = reviews[i]!.analysis;
      const rules = analysis.byAnalyzer.filter((r) => r.analyzer !== 'llm');
      const ruleRisk = rules.reduce<SecurityRisk>((top, r) => maxRisk(top, r.risk), 'UNKNOWN');
      const ruled = {
        risk: ruleRisk,
        reasons: rules.filter((r) => r.risk === ruleRisk).flatMap((r) => r.reasons),
      };
      const ruleReasons = analysis.byAnalyzer
        .filter((r) => r.analyzer !== 'llm' && r.risk === analysis.risk)
        .flatMap((r) => r.reasons);
      return {
        actionId: actions[i]!.id,
        confirm: allowed ? false : d.confirm,
        risk: d.risk,
        reasons: [allowed ? `${actions[i]!.tool_name} is always allowed by the user` : d.reason],
        riskReasons: analysis.reasons,
        ...(ruleReasons.length > 0 ? { ruleReasons } : {}),
        ruled,
        ...(d.contained && !allowed ? { contained: true as const } : {}),
        ...(d.notUndoable && !allowed ? { notUndoable: d.notUndoable } : {}),
      };
    });
  }
}

/** A tool that rates its own calls (an MCP tool, by its annotations) in place of the built-in rules. */
function ownRules(spec: ToolSpec, action: ActionEvent['action']): Analyzer[] {
  const recorded = (action ?? undefined) as Readonly<Record<string, unknown>> | undefined;
  return [llmRiskAnalyzer, { name: 'rules', analyze: (_name, args) => spec.ruleRisk!(args, recorded) }];
}

/** The model's arguments (including its security_risk), falling back to the validated action. */
export function argumentsOf(a: ActionEvent): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(a.tool_call.arguments);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through: the stored action is what was validated
  }
  return { ...(a.action as Record<string, unknown> | null), security_risk: a.security_risk };
}
