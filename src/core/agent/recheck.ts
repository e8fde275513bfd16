// The last look before an action runs. Actions are rated when the model's batch arrives, but a
// batch runs in order, so an earlier action (`ln -s /etc link`) can change where a later one's
// path leads (`create link/x`). Right before each action runs it is rated again by the same gate
// (the same analyzers, the same file system lookup, the same policy): when it now needs
// confirmation at a higher risk than it was approved at, it must not run; it waits for the user
// again with the new rating. An approval at a risk still stands while the rating does not rise.
import type { ActionEvent, SecurityRisk } from '../events';
import type { ReconfirmValue } from '../state';
import type { ConfirmationGate } from './ports';

/** How much a rating asks of the user: an unknown risk is more than LOW, less than MEDIUM. */
const WEIGHT: Record<SecurityRisk, number> = { LOW: 0, UNKNOWN: 1, MEDIUM: 2, HIGH: 3 };

/** Whether `now` is a higher risk than `before`. */
export function riskRose(now: SecurityRisk, before: SecurityRisk): boolean {
  return WEIGHT[now] > WEIGHT[before];
}

/**
 * The record of the wait when `action` must be confirmed again before it runs, or null when it
 * may run. `approvedRisk`: the risk the user approved it at; LOW when it was approved without
 * asking (the policy let it through when the batch arrived).
 */
export function recheckBeforeRun(
  gate: ConfirmationGate,
  action: ActionEvent,
  approvedRisk: SecurityRisk,
): ReconfirmValue | null {
  const decision = gate.decide([action])[0];
  if (!decision?.confirm || !riskRose(decision.risk, approvedRisk)) return null;
  return {
    action_id: action.id,
    risk: decision.risk,
    approved_risk: approvedRisk,
    reasons: decision.riskReasons?.length ? decision.riskReasons : decision.reasons,
  };
}
