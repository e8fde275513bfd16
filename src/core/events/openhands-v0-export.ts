/**
 * Export of Logbook events to OpenHands V0 records (the reverse of importV0Trajectory). Events with
 * no V0 counterpart (condensation bookkeeping, other state keys) are left out; ids become numbers
 * (recovered from imported ids when possible) and `cause` links observations to their action.
 */
import { textOf } from './content';
import { observationText } from './payloads';
import { type Event, isOpaque, type KnownEvent } from './union';
import {
  agentStateFromStatus,
  riskToV0,
  V0_ACTION_KIND,
  V0_EVENT_KIND,
  V0_OBSERVATION_KIND,
  type V0Event,
  v0IdFromUuid,
} from './openhands-v0-types';

export interface V0ExportContext {
  /** Numeric V0 id of each exported event id. */
  readonly numbers: ReadonlyMap<string, number>;
  /** Numeric id of the action that made each tool call (latest wins when ids repeat). */
  readonly actionByCallId: ReadonlyMap<string, number>;
  /** How many calls each LLM response made. */
  readonly callsPerResponse: ReadonlyMap<string, number>;
}

type Args = Record<string, unknown>;

export function exportV0Trajectory(events: readonly Event[]): V0Event[] {
  const numbers = new Map<string, number>();
  let next = 0;
  for (const e of events) next = Math.max(next, (v0IdFromUuid(e.id) ?? -1) + 1);
  for (const e of events) numbers.set(e.id, v0IdFromUuid(e.id) ?? next++);
  const actionByCallId = new Map<string, number>();
  const callsPerResponse = new Map<string, number>();
  const out: V0Event[] = [];
  for (const e of events) {
    if (!isOpaque(e) && e.kind === 'ActionEvent') {
      actionByCallId.set(e.tool_call_id, numbers.get(e.id) as number);
      callsPerResponse.set(e.llm_response_id, (callsPerResponse.get(e.llm_response_id) ?? 0) + 1);
    }
  }
  const ctx: V0ExportContext = { numbers, actionByCallId, callsPerResponse };
  for (const e of events) {
    const v = toV0(e, ctx);
    if (v) out.push(v);
  }
  return out;
}

/** One event as a V0 record, or null when V0 has no counterpart. */
export function toV0(e: Event, ctx: V0ExportContext): V0Event | null {
  if (isOpaque(e))
    return e.original_kind === V0_EVENT_KIND ? ((e.raw.v0 as V0Event | undefined) ?? null) : null;
  const base = { id: ctx.numbers.get(e.id) ?? 0, timestamp: e.timestamp, source: v0Source(e.source) };
  const body = toV0Body(e, ctx);
  return body ? { ...base, ...body } : null;
}

function toV0Body(e: KnownEvent, ctx: V0ExportContext): Partial<V0Event> | null {
  switch (e.kind) {
    case 'MessageEvent': {
      const images = e.llm_message.content.flatMap((c) => (c.type === 'image' ? c.image_urls : []));
      const content = textOf(e.llm_message.content);
      return {
        message: content,
        action: 'message',
        args: { content, image_urls: images, wait_for_response: false },
      };
    }
    case 'SystemPromptEvent':
      return { action: 'system', args: { content: e.system_prompt.text, tools: e.tools } };
    case 'ActionEvent':
      return {
        ...actionBody(e.action, textOf(e.thought), e.security_risk, e.tool_name),
        tool_call_metadata: {
          function_name: e.tool_call.name,
          tool_call_id: e.tool_call_id,
          model_response: { id: e.llm_response_id },
          total_calls_in_response: ctx.callsPerResponse.get(e.llm_response_id) ?? 1,
        },
      };
    case 'ObservationEvent':
      return { cause: ctx.numbers.get(e.action_id) ?? null, ...observationBody(e.observation) };
    case 'UserRejectObservation':
      return {
        cause: ctx.numbers.get(e.action_id) ?? null,
        observation: 'user_rejected',
        content: e.rejection_reason,
        extras: {},
      };
    case 'AgentErrorEvent':
      return {
        cause: ctx.actionByCallId.get(e.tool_call_id) ?? null,
        observation: 'error',
        content: e.error,
        extras: { error_id: '' },
      };
    case 'ConversationErrorEvent':
      return { observation: 'error', content: e.detail, extras: { error_id: e.code } };
    case 'ConversationStateUpdateEvent': {
      const state = e.key === 'execution_status' ? agentStateFromStatus(e.value) : undefined;
      // V0 files write the lowercase enum values.
      return state
        ? { observation: 'agent_state_changed', content: '', extras: { agent_state: state.toLowerCase() } }
        : null;
    }
    case 'PauseEvent':
      return { action: 'change_agent_state', args: { agent_state: 'paused', thought: '' } };
    default:
      return null; // condensation events: V0 has no equivalent in the documented format
  }
}

function actionBody(
  action: Readonly<Args> | null,
  thought: string,
  risk: Parameters<typeof riskToV0>[0],
  toolName: string,
): Partial<V0Event> {
  const security_risk = riskToV0(risk);
  const a = (action ?? { kind: '' }) as Args;
  switch (a.kind) {
    case 'TerminalAction': {
      const args = {
        command: a.command,
        is_input: a.is_input === true,
        thought,
        blocking: false,
        hidden: false,
        confirmation_state: 'confirmed',
        security_risk,
      };
      return typeof a.timeout === 'number'
        ? { action: 'run', args, timeout: a.timeout }
        : { action: 'run', args };
    }
    case 'FileEditorAction':
      if (a.command === 'view') {
        return {
          action: 'read',
          args: {
            path: a.path,
            start: 0,
            end: -1,
            thought,
            impl_source: 'oh_aci',
            view_range: a.view_range ?? null,
          },
        };
      }
      return {
        action: 'edit',
        args: {
          path: a.path,
          command: a.command,
          file_text: a.file_text ?? null,
          old_str: a.old_str ?? null,
          new_str: a.new_str ?? null,
          insert_line: a.insert_line ?? null,
          thought,
          security_risk,
          impl_source: 'oh_aci',
        },
      };
    case 'ThinkAction':
      return { action: 'think', args: { thought: a.thought } };
    case 'FinishAction':
      return {
        action: 'finish',
        args: { final_thought: a.message, task_completed: 'true', outputs: {}, thought },
      };
    case 'MCPToolAction':
      return { action: 'call_tool_mcp', args: { name: toolName, arguments: a.data ?? {}, thought } };
    case V0_ACTION_KIND:
      return { action: String(a.action), args: (a.args ?? {}) as Args };
    default:
      // A tool V0 does not know (or a call that failed validation): keep the causal chain with a no-op.
      return { action: 'null', args: {} };
  }
}

function observationBody(o: Readonly<Args> & { kind: string }): Partial<V0Event> {
  const content = observationText(o as Parameters<typeof observationText>[0]);
  switch (o.kind) {
    case 'TerminalObservation': {
      const metadata = { ...((o.metadata ?? {}) as Args), exit_code: o.exit_code ?? -1 };
      return {
        observation: 'run',
        content,
        extras: { command: o.command, metadata, hidden: false },
        success: o.exit_code === 0,
      };
    }
    case 'FileEditorObservation': {
      if (o.command === 'view')
        return { observation: 'read', content, extras: { path: o.path, impl_source: 'oh_aci' } };
      const extras: Args = { path: o.path };
      for (const k of ['prev_exist', 'old_content', 'new_content']) if (o[k] !== undefined) extras[k] = o[k];
      return { observation: 'edit', content, extras };
    }
    case 'ThinkObservation':
      return { observation: 'think', content, extras: {} };
    case 'MCPToolObservation':
      return { observation: 'mcp', content, extras: { name: o.tool_name ?? '', arguments: {} } };
    case V0_OBSERVATION_KIND:
      return { observation: String(o.observation), content, extras: (o.extras ?? {}) as Args };
    default:
      return { observation: o.is_error === true ? 'error' : 'success', content, extras: {} };
  }
}

function v0Source(s: string): string {
  return s === 'user' || s === 'agent' ? s : 'environment';
}
