// How the bench asks whether a corpus action needs a question: the action becomes the ActionEvent
// the agent would record (validated, its payload completed by the tool), and the agent's own gate
// (PolicyGate: the real analyzers, then needsConfirmation) decides under each level's policy, as
// the hosts build it (conversation-assembly.ts).
import { autopilotPolicy } from '../src/core/agent/policies/autopilot-policy';
import type { PolicyContext } from '../src/core/agent/policies/policy';
import { PolicyGate } from '../src/core/agent/policy-gate';
import type { CheckpointCoverage } from '../src/core/checkpoints/types';
import type { ActionEvent } from '../src/core/events';
import type { ConfirmationPolicy } from '../src/core/security';
import { validateToolCall, type ToolSpec } from '../src/core/tools';
import type { CorpusAction, Level } from './confirmation-corpus';

/**
 * The policy of a level. The rules alone are the confirmation rules as they were before any
 * sandbox: `risky` with nothing known about one. The three others run in the sandbox; the default
 * also gets what the checkpoints hold, for a policy that reads it (an older one ignores it).
 */
export function levelPolicy(
  level: Level,
  roots: readonly string[],
  coverage: CheckpointCoverage | null,
): ConfirmationPolicy {
  const base = { allowRules: [], roots, writable: [] };
  switch (level) {
    case 'rules-alone':
      return { ...base, mode: 'risky' };
    case 'ask-everything':
      return { ...base, mode: 'always', commandsSandboxed: true };
    case 'default':
      return Object.assign({ ...base, mode: 'risky' as const, commandsSandboxed: true }, { coverage });
    case 'autopilot':
      return { ...base, mode: 'never', commandsSandboxed: true };
  }
}

/**
 * The ActionEvent the agent records for this call. The model rates its own calls LOW here, so that
 * only the rules decide (a tool that takes no rating ignores it).
 */
export async function actionEventFor(
  tools: readonly ToolSpec[],
  action: CorpusAction,
  id: string,
): Promise<ActionEvent> {
  const { tool, ...rest } = action;
  const args = JSON.stringify({ ...rest, security_risk: 'LOW' });
  const v = validateToolCall(tools, tool, args);
  if (!v.ok) throw new Error(`${tool} ${JSON.stringify(rest)}: ${v.error}`);
  const payload = v.spec.prepareAction ? await v.spec.prepareAction(v.args, v.action) : v.action;
  return {
    kind: 'ActionEvent',
    id,
    timestamp: new Date().toISOString(),
    source: 'agent',
    thought: [],
    action: payload,
    tool_name: tool,
    tool_call_id: `call-${id}`,
    tool_call: { id: `call-${id}`, name: tool, arguments: args, origin: 'completion' },
    llm_response_id: `response-${id}`,
    security_risk: v.security_risk,
    summary: null,
  } as ActionEvent;
}

/** Whether `event` asks at `level` (or is refused there, by autopilot), and why. */
export function judge(
  level: Level,
  tools: readonly ToolSpec[],
  roots: readonly string[],
  shellCwd: string,
  event: ActionEvent,
  coverage: CheckpointCoverage | null,
): { asked: boolean; refused: boolean; reason: string } {
  const gate = new PolicyGate(
    () => [...tools],
    () => levelPolicy(level, roots, coverage),
    () => [],
    () => shellCwd,
  );
  const [decision] = gate.decide([event]);
  const policy = levelPolicy(level, roots, coverage);
  // What autopilot refuses instead of asking (the conversation's autopilot policy, as it runs).
  const ctx = { settings: { confirmationMode: policy.mode } } as unknown as PolicyContext;
  const refused = autopilotPolicy(gate, () => tools).refuseAction?.(event, ctx) ?? null;
  if (refused) return { asked: false, refused: true, reason: refused };
  return { asked: decision!.confirm, refused: false, reason: decision!.reasons.join('; ') };
}
