// When the agent must ask before acting. Pure: the same policy and analyses give the same answers.
//   never  - never ask.
//   always - ask before every action that is not read-only, and before a read-only one that reads
//            outside the workspace (allow rules still apply to commands).
//   risky  - ask when the combined risk reaches the threshold (default MEDIUM) or is UNKNOWN,
//            unless the action is contained (contained.ts): with a sandbox running and the
//            checkpoints' coverage known, what stays in the sandbox and a checkpoint can undo runs
//            unasked, and the decision says so (`contained`).
// Read-only tools are judged by the path rules alone (they take no rating from the model): reading
// inside the workspace never asks, reading outside it (MEDIUM) or a secret (HIGH) asks like any
// other action, so `grep` cannot carry /etc/shadow to the model unasked. Allow rules approve
// terminal commands whose every sub-command they cover, but never over a HIGH rating from the
// rule-based analyzer: a prefix rule such as `rm -rf build` must not let `rm -rf build /` through.
import type { ActionAnalysis } from './analyzers';
import type { CheckpointCoverage } from '../checkpoints/types';
import type { HiddenPaths } from './hidden-paths';
import { matchAllowRules } from './allow-rules';
import { containedVerdict } from './contained';
import { maxRisk, type RiskLevel, riskRank, type SecurityRisk } from './risk';

export type ConfirmationMode = 'never' | 'always' | 'risky';

export interface ConfirmationPolicy {
  mode: ConfirmationMode;
  /** In `risky` mode, the lowest risk that needs confirmation (default MEDIUM). */
  threshold?: RiskLevel;
  /** Command prefixes the user allowed (terminal tool only). */
  allowRules?: readonly string[];
  /** Workspace folders, for judging what allowed commands write. */
  roots?: readonly string[];
  /**
   * Folders besides the workspace the agent may write (`logbook.sandbox.writable`): the file tools
   * write nowhere else, whatever the mode.
   */
  writable?: readonly string[];
  /** What the sandbox hides from commands: the file tools refuse it whatever the mode. */
  hidden?: readonly string[];
  /** The host's look at hard links to hidden files (hidden-paths.ts): refused too, whatever the mode. */
  hiddenLinks?: HiddenPaths['links'];
  /**
   * Whether the agent's commands run inside an OS sandbox. false (none could start, or the user
   * turned it off): every command asks, as in `always`, since nothing but these rules holds the
   * boundary. Absent: not known, the rules alone decide.
   */
  commandsSandboxed?: boolean;
  /**
   * What a checkpoint taken now would hold. With a sandbox running (`commandsSandboxed: true`), the
   * `risky` mode lets contained actions through (contained.ts). null or absent: nothing is known to
   * be undoable, the rules alone decide.
   */
  coverage?: CheckpointCoverage | null;
}

export interface ActionForReview {
  toolName: string;
  readOnly: boolean;
  /** The action's arguments (for the terminal, `command` and `is_input`). */
  args: Readonly<Record<string, unknown>>;
  analysis: ActionAnalysis;
  /** Where the agent's shell is now (commands' relative paths start there). */
  cwd?: string;
}

export interface ConfirmationDecision {
  confirm: boolean;
  /** Why, in words the user can read. */
  reason: string;
  risk: SecurityRisk;
  /** Allow rules that approved the action, when they did. */
  matchedRules?: string[];
  /** Set when it runs unasked because it is contained in the sandbox and undoable (risky mode). */
  contained?: true;
  /** Why it is not contained when that is what makes it ask (a path no checkpoint holds, a push). */
  notUndoable?: string;
}

export const DEFAULT_THRESHOLD: RiskLevel = 'MEDIUM';

/** An external ACP agent's permission request (host/node/acp): a command in it meets the allow rules too. */
export const AGENT_PERMISSION_TOOL = 'agent_permission';

export function needsConfirmation(
  policy: ConfirmationPolicy,
  actions: readonly ActionForReview[],
): ConfirmationDecision[] {
  return actions.map((action) => decide(policy, action));
}

function decide(policy: ConfirmationPolicy, action: ActionForReview): ConfirmationDecision {
  const { risk, reasons } = action.analysis;
  const because = reasons.length > 0 ? `: ${reasons.join('; ')}` : '';
  if (policy.mode === 'never') return { confirm: false, reason: 'confirmation is turned off', risk };
  if (action.readOnly) return decideReadOnly(policy, action);

  const allowed = allowedByRules(policy, action);
  if (allowed)
    return {
      confirm: false,
      reason: `allowed by ${allowed.map((r) => `"${r}"`).join(', ')}`,
      risk,
      matchedRules: allowed,
    };

  if (policy.mode === 'always')
    return { confirm: true, reason: `every action needs confirmation (${risk} risk${because})`, risk };
  if (policy.commandsSandboxed === false && runsCommand(action))
    return {
      confirm: true,
      reason: `no sandbox contains commands, so each one asks (${risk} risk${because})`,
      risk,
    };
  const threshold = policy.threshold ?? DEFAULT_THRESHOLD;
  const asks = risk === 'UNKNOWN' || riskRank(risk) >= riskRank(threshold);
  const verdict =
    policy.commandsSandboxed === true && policy.coverage
      ? containedVerdict({
          toolName: action.toolName,
          args: action.args,
          analysis: action.analysis,
          ...(action.cwd ? { cwd: action.cwd } : {}),
          roots: policy.roots ?? [],
          writable: policy.writable ?? [],
          coverage: policy.coverage,
        })
      : undefined;
  // Overwriting or deleting a path no checkpoint holds asks, however low the risk is rated.
  const named = verdict && !verdict.contained && verdict.named ? verdict.why : undefined;
  if (!asks && !named)
    return { confirm: false, reason: `${risk} risk is below the ${threshold} threshold`, risk };
  if (!asks && named)
    return { confirm: true, reason: `${risk} risk, but ${named}`, risk, notUndoable: named };
  if (verdict?.contained) return { confirm: false, reason: verdict.reason, risk, contained: true };
  const undoable = verdict?.why ? ` (${verdict.why})` : '';
  const notUndoable = verdict?.why ? { notUndoable: verdict.why } : {};
  if (risk === 'UNKNOWN')
    return { confirm: true, reason: `the risk is unknown${because}${undoable}`, risk, ...notUndoable };
  return { confirm: true, reason: `${risk} risk${because}${undoable}`, risk, ...notUndoable };
}

/** A read-only tool asks only when the path rules rate what it reads MEDIUM or more. */
function decideReadOnly(policy: ConfirmationPolicy, action: ActionForReview): ConfirmationDecision {
  const ruled = action.analysis.byAnalyzer.filter((r) => r.analyzer !== 'llm');
  const risk = ruled.reduce<SecurityRisk>((top, r) => maxRisk(top, r.risk), 'UNKNOWN');
  const threshold =
    policy.mode === 'risky' ? maxLevel(policy.threshold ?? DEFAULT_THRESHOLD, 'MEDIUM') : 'MEDIUM';
  if (risk === 'UNKNOWN' || riskRank(risk) < riskRank(threshold))
    return { confirm: false, reason: `${action.toolName} is read-only and reads inside the workspace`, risk };
  const reasons = ruled.filter((r) => r.risk === risk).flatMap((r) => r.reasons);
  return { confirm: true, reason: `${risk} risk: ${reasons.join('; ')}`, risk };
}

/** A terminal command, or input typed into a running one (reading its output asks nothing). */
function runsCommand(action: ActionForReview): boolean {
  if (action.toolName !== 'terminal') return false;
  const command = action.args.command;
  return !(action.args.is_input === true && (typeof command !== 'string' || command === ''));
}

function maxLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return riskRank(b) > riskRank(a) ? b : a;
}

function allowedByRules(policy: ConfirmationPolicy, action: ActionForReview): string[] | undefined {
  const rules = policy.allowRules ?? [];
  const command = action.args.command;
  const commandTool = action.toolName === 'terminal' || action.toolName === AGENT_PERMISSION_TOOL;
  if (rules.length === 0 || !commandTool || typeof command !== 'string') return undefined;
  if (action.args.is_input === true || command.trim() === '') return undefined;
  const ruleRisk = action.analysis.byAnalyzer.filter((r) => r.analyzer !== 'llm').map((r) => r.risk);
  if (ruleRisk.includes('HIGH')) return undefined;
  const match = matchAllowRules(command, rules, { roots: policy.roots ?? [] });
  return match.allowed ? match.matchedRules : undefined;
}
