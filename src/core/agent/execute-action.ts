// Runs one approved action with its tool and turns the outcome into ObservationEvent fields.
// A tool that throws, or an action that no longer validates, still gets an observation, so
// every call the model made is answered exactly once.
import type { ActionEvent } from '../events';
import { validateToolCall, type ToolContext, type ToolObservation, type ToolSpec } from '../tools';
import { SuspendAction } from '../tools/suspend';

export interface ObservationFields {
  observation: ToolObservation;
  action_id: string;
  tool_name: string;
  tool_call_id: string;
}

export async function executeAction(
  action: ActionEvent,
  tools: readonly ToolSpec[],
  ctx: ToolContext,
): Promise<ObservationFields> {
  const v = validateToolCall(tools, action.tool_name, action.tool_call.arguments);
  let observation: ToolObservation;
  if (!v.ok) {
    observation = errorObservation(action, v.error);
  } else {
    try {
      observation = await v.spec.execute(v.args, {
        ...ctx,
        actionId: action.id,
        ...(action.action ? { action: action.action as Readonly<Record<string, unknown>> } : {}),
      });
    } catch (err) {
      if (err instanceof SuspendAction && v.spec.resumable) throw err;
      const reason = ctx.signal.aborted
        ? 'The user stopped the agent while this action ran.'
        : errorText(err);
      observation = errorObservation(action, reason);
    }
  }
  return {
    observation,
    action_id: action.id,
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
  };
}

export function interruptedObservation(action: ActionEvent): ObservationFields {
  return {
    observation: errorObservation(action, 'The user stopped the agent before this action ran.'),
    action_id: action.id,
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
  };
}

/** The answer to an action that was not run, with the reason the model reads. */
export function refusedObservation(action: ActionEvent, reason: string): ObservationFields {
  return {
    observation: errorObservation(action, reason),
    action_id: action.id,
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
  };
}

function errorObservation(action: ActionEvent, message: string): ToolObservation {
  const payload = (action.action ?? {}) as { kind?: string; command?: unknown; path?: unknown };
  const actionKind = payload.kind ?? 'Action';
  return {
    kind: actionKind.endsWith('Action')
      ? `${actionKind.slice(0, -'Action'.length)}Observation`
      : 'ToolErrorObservation',
    content: [{ type: 'text', text: message }],
    is_error: true,
    // The SDK's observations of command tools (file editor, terminal, task tracker) require the
    // command: a refused one names what was refused, so its export validates.
    ...(typeof payload.command === 'string' ? { command: payload.command } : {}),
    ...(typeof payload.path === 'string' ? { path: payload.path } : {}),
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? `The tool failed: ${err.message}` : `The tool failed: ${String(err)}`;
}
