// The risk a held action was held at: the model's own rating and the rule-based checks of its
// command or paths, the higher wins, with the rules' reasons (as the confirmation gate rates it).
import type { ActionEvent } from '../../../core/events';
import { argumentsOf } from '../../../core/agent/policy-gate';
import { analyzeAction, llmRiskAnalyzer, type SecurityRisk } from '../../../core/security';
import type { ToolRating } from '../../../core/state';
import { FETCH_TOOL_NAME, fetchRisk } from '../../../core/tools';

export interface HeldRisk {
  risk: SecurityRisk;
  modelRisk: string;
  reasons: string[];
}

/**
 * `ratings`: the own ratings of the tools from outside as the log recorded them (an MCP tool's
 * annotations), weighed against the model's rating as the gate does, instead of the built-in rules.
 */
export function heldRisk(
  action: ActionEvent,
  workspace: string | null,
  ratings: Readonly<Record<string, ToolRating>> = {},
): HeldRisk {
  const own = Object.hasOwn(ratings, action.tool_name) ? ratings[action.tool_name] : undefined;
  // A held fetch was held for its host, which was not a trusted one then: rated from what its
  // action recorded (the URL and the address it resolved to), as the gate rated it.
  const fetched =
    action.tool_name === FETCH_TOOL_NAME
      ? fetchRisk(String(argumentsOf(action).url ?? ''), (action.action ?? undefined) as never, () => false)
      : undefined;
  const rated = own ?? fetched;
  const analysis = analyzeAction(
    action.tool_name,
    argumentsOf(action),
    workspace ? [workspace] : [],
    rated
      ? {
          analyzers: [
            llmRiskAnalyzer,
            { name: 'rules', analyze: () => ({ risk: rated.risk, reasons: rated.reasons }) },
          ],
        }
      : {},
  );
  return { risk: analysis.risk, modelRisk: action.security_risk ?? 'UNKNOWN', reasons: analysis.reasons };
}

/** One line per held action: what it does, its risk and why, e.g. for the CLI's waiting message. */
export function heldRiskLine(what: string, risk: string, reasons: readonly string[]): string {
  const why = reasons.length > 0 ? `: ${reasons.join('; ')}` : '';
  return `  ${what} (${risk}${why})`;
}
