// Autopilot (confirmation mode `never`) asks nothing, and commands stay held by the sandbox. The file
// and search tools run in the host, outside it: where the rules rate their call HIGH (a secret read,
// a file that runs later in the user's own context), or rate a read MEDIUM (outside the workspace,
// where the sandbox shows commands an empty home), the default level would ask and autopilot has no
// one to ask. Such a call is refused instead, so autopilot never reaches further than the sandbox.
import type { ActionEvent } from '../../events';
import type { ToolSpec } from '../../tools';
import type { ConfirmationGate } from '../ports';
import type { ConversationPolicy } from './policy';

export function autopilotPolicy(
  gate: ConfirmationGate,
  tools: () => readonly ToolSpec[],
): ConversationPolicy {
  return {
    name: 'autopilot',
    refuseAction(action: ActionEvent, { settings }) {
      if (settings.confirmationMode !== 'never' || !inHost(tools(), action.tool_name)) return null;
      // The rules' own rating: a model cannot talk its call past this by rating it higher or lower.
      const ruled = gate.decide([action])[0]?.ruled;
      if (!ruled || ruled.reasons.length === 0) return null;
      const refused = ruled.risk === 'HIGH' || (ruled.risk === 'MEDIUM' && readsOnly(tools(), action));
      if (!refused) return null;
      const reasons = ruled.reasons;
      return (
        `Refused in autopilot: ${reasons.join('; ')}. Autopilot asks nothing, so what ` +
        'the default level would ask about here is not done. Switch to the default level to be asked.'
      );
    },
  };
}

/**
 * A built-in tool that reads or writes files in the host. The terminal runs in the sandbox; an MCP
 * tool is rated by its server's annotations and acts where its server does.
 */
function inHost(tools: readonly ToolSpec[], name: string): boolean {
  const spec = tools.find((t) => t.name === name);
  return spec !== undefined && name !== 'terminal' && spec.ruleRisk === undefined;
}

/** A call that only reads: a read-only tool, or the file editor's view. */
function readsOnly(tools: readonly ToolSpec[], action: ActionEvent): boolean {
  if (tools.find((t) => t.name === action.tool_name)?.readOnly) return true;
  const command = (action.action as { command?: unknown } | null)?.command;
  return action.tool_name === 'file_editor' && command === 'view';
}
