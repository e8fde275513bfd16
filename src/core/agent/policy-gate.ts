// The default ConfirmationGate: the user's confirmation mode and allow rules applied to each
// action's assessed risk. Read-only tools never wait.
import type { ActionEvent } from '../events';
import type { ToolSpec } from '../tools';
import type { ConfirmationDecision, ConfirmationGate } from './ports';
import type { ConfirmationMode } from './settings';

export type RiskAssessor = (action: ActionEvent) => { risk: ConfirmationDecision['risk']; reasons: string[] };

export class PolicyGate implements ConfirmationGate {
  constructor(
    private readonly tools: () => readonly ToolSpec[],
    private readonly mode: () => ConfirmationMode,
    private readonly assess: RiskAssessor = (a) => ({ risk: a.security_risk ?? 'UNKNOWN', reasons: [] }),
    private readonly allowed: (a: ActionEvent) => boolean = () => false,
  ) {}

  decide(actions: readonly ActionEvent[]): ConfirmationDecision[] {
    const mode = this.mode();
    return actions.map((a) => {
      const readOnly = this.tools().find((t) => t.name === a.tool_name)?.readOnly ?? false;
      if (readOnly) return { actionId: a.id, confirm: false, risk: 'LOW', reasons: ['read-only tool'] };
      let assessed: { risk: ConfirmationDecision['risk']; reasons: string[] };
      try {
        assessed = this.assess(a);
      } catch (err) {
        // An analyzer that fails must not let an action through unchecked.
        assessed = { risk: 'HIGH', reasons: [`risk analysis failed: ${(err as Error).message}`] };
      }
      const confirm =
        mode === 'always' ? true : mode === 'never' ? false : assessed.risk !== 'LOW' && !this.allowed(a);
      return { actionId: a.id, confirm, ...assessed };
    });
  }
}
