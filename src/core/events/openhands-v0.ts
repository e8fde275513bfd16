/**
 * Opening OpenHands V0 trajectories (a JSON array of V0 records) as Logbook events, and exporting
 * back (`toV0`, in openhands-v0-export.ts). Mapping:
 *   message -> MessageEvent; system -> SystemPromptEvent; run -> TerminalAction;
 *   read/write/edit -> FileEditorAction; think -> ThinkAction; finish -> FinishAction;
 *   other actions -> OpenHandsV0Action payload; change_agent_state(paused) -> PauseEvent;
 *   observations caused by an action -> ObservationEvent (Terminal/FileEditor/Think/OpenHandsV0
 *   Observation), error -> AgentErrorEvent, user_rejected -> UserRejectObservation;
 *   agent_state_changed -> ConversationStateUpdateEvent(execution_status); error without an action
 *   -> ConversationErrorEvent; null records are skipped; anything else -> opaque OpenHandsV0Event.
 * Tool call ids come from `tool_call_metadata` when present, else are synthesized from the numeric
 * id; observations find their action through `cause`. Every call gets its own response id unless
 * metadata says several calls came from one LLM response.
 */
import { type EventSource, type SecurityRisk, TimestampSchema } from './base';
import { createEvent, parseEvent } from './codec';
import type { Content } from './content';
import type { ActionPayload, ObservationPayload } from './payloads';
import type { Event } from './union';
import {
  parseAgentState,
  riskFromV0,
  statusFromAgentState,
  uuidForV0Id,
  V0_ACTION_KIND,
  V0_EVENT_KIND,
  V0_OBSERVATION_KIND,
  type V0Event,
  V0EventSchema,
} from './openhands-v0-types';

export * from './openhands-v0-types';
export { exportV0Trajectory, toV0 } from './openhands-v0-export';

interface ImportedAction {
  id: string;
  toolName: string;
  toolCallId: string;
  payload: ActionPayload;
}

interface Ctx {
  actions: Map<number, ImportedAction>;
  lastTimestamp: string;
}

type Args = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const textContent = (text: string): Content[] => [{ type: 'text', text }];

/** Imports a V0 trajectory. Never throws on content: unrecognised records become opaque events. */
export function importV0Trajectory(items: readonly unknown[]): Event[] {
  const ctx: Ctx = { actions: new Map(), lastTimestamp: '1970-01-01T00:00:00Z' };
  const out: Event[] = [];
  items.forEach((item, position) => {
    const parsed = V0EventSchema.safeParse(item);
    const e = parsed.success
      ? fromV0(parsed.data, position, ctx)
      : opaque(item, position, ctx, 'environment');
    if (e) out.push(e);
  });
  return out;
}

function fromV0(v: V0Event, position: number, ctx: Ctx): Event | undefined {
  const source = sourceOf(v.source);
  // Records without a (valid) timestamp inherit the previous one, keeping the log ordered.
  if (v.timestamp && TimestampSchema.safeParse(v.timestamp).success) ctx.lastTimestamp = v.timestamp;
  const base = { id: idOf(v, position), timestamp: ctx.lastTimestamp, source };
  // null: deliberately skipped (V0 no-ops); undefined: no mapping, keep the record opaque.
  const mapped =
    v.action !== undefined
      ? actionFromV0(v, v.action, v.args ?? {}, base, ctx)
      : v.observation !== undefined
        ? observationFromV0(v, v.observation, base, ctx)
        : undefined;
  if (mapped === null) return undefined;
  return mapped ?? opaque(v, position, ctx, source);
}

type Base = { id: string; timestamp: string; source: EventSource };

function actionFromV0(v: V0Event, type: string, args: Args, base: Base, ctx: Ctx): Event | null | undefined {
  const thought = str(args.thought) ?? '';
  switch (type) {
    case 'null':
      return null;
    case 'message': {
      const content: Content[] = textContent(str(args.content) ?? v.message ?? '');
      const urls = Array.isArray(args.image_urls) ? args.image_urls.filter((u) => typeof u === 'string') : [];
      if (urls.length > 0) content.push({ type: 'image', image_urls: urls });
      const role = base.source === 'user' ? 'user' : 'assistant';
      return createEvent('MessageEvent', { ...base, llm_message: { role, content } });
    }
    case 'system':
      return createEvent('SystemPromptEvent', {
        ...base,
        system_prompt: { type: 'text', text: str(args.content) ?? '' },
        tools: Array.isArray(args.tools) ? (args.tools as Record<string, unknown>[]) : [],
      });
    case 'change_agent_state':
      return parseAgentState(args.agent_state) === 'PAUSED' ? createEvent('PauseEvent', base) : undefined;
    case 'recall':
      return undefined; // V0's internal memory lookup: kept opaque
  }
  const mapped = actionPayload(type, args, v);
  const toolName = mapped.toolName;
  const toolCallId = v.tool_call_metadata?.tool_call_id ?? `v0_call_${v.id ?? base.id}`;
  const responseId = v.tool_call_metadata?.model_response?.id ?? `v0_response_${v.id ?? base.id}`;
  const { kind: _kind, ...callArgs } = mapped.payload;
  const risk: SecurityRisk = riskFromV0(args.security_risk);
  const event = createEvent('ActionEvent', {
    ...base,
    thought: mapped.thoughtInPayload || thought === '' ? [] : [{ type: 'text', text: thought }],
    action: mapped.payload,
    tool_name: toolName,
    tool_call_id: toolCallId,
    tool_call: { id: toolCallId, name: toolName, arguments: JSON.stringify(callArgs), origin: 'completion' },
    llm_response_id: responseId,
    security_risk: risk,
  });
  if (v.id !== undefined)
    ctx.actions.set(v.id, { id: event.id, toolName, toolCallId, payload: mapped.payload });
  return event;
}

function actionPayload(
  type: string,
  args: Args,
  v: V0Event,
): { payload: ActionPayload; toolName: string; thoughtInPayload?: boolean } {
  const path = str(args.path) ?? '';
  switch (type) {
    case 'run':
      return {
        toolName: 'terminal',
        payload: {
          kind: 'TerminalAction',
          command: str(args.command) ?? '',
          is_input: args.is_input === true,
          timeout: typeof v.timeout === 'number' ? v.timeout : null,
          reset: false,
        },
      };
    case 'read':
      return {
        toolName: 'file_editor',
        payload: { kind: 'FileEditorAction', command: 'view', path, view_range: args.view_range ?? null },
      };
    case 'write':
      return {
        toolName: 'file_editor',
        payload: { kind: 'FileEditorAction', command: 'create', path, file_text: str(args.content) ?? '' },
      };
    case 'edit':
      if (str(args.command)) {
        const fields: Args = { kind: 'FileEditorAction', command: args.command, path };
        for (const k of ['file_text', 'old_str', 'new_str', 'insert_line', 'view_range']) {
          if (args[k] !== undefined && args[k] !== null) fields[k] = args[k];
        }
        return { toolName: 'file_editor', payload: fields as ActionPayload };
      }
      break; // LLM-based edit (content/start/end) has no FileEditorAction equivalent
    case 'think':
      return {
        toolName: 'think',
        thoughtInPayload: true,
        payload: { kind: 'ThinkAction', thought: str(args.thought) ?? '' },
      };
    case 'finish': {
      const outputs = (args.outputs ?? {}) as Args;
      const message = str(args.final_thought) || str(outputs.content) || str(args.thought) || '';
      return { toolName: 'finish', thoughtInPayload: true, payload: { kind: 'FinishAction', message } };
    }
  }
  const toolName = v.tool_call_metadata?.function_name ?? type;
  return { toolName, payload: { kind: V0_ACTION_KIND, action: type, args } };
}

function observationFromV0(v: V0Event, type: string, base: Base, ctx: Ctx): Event | null | undefined {
  const content = v.content ?? '';
  const extras = v.extras ?? {};
  if (type === 'null') return null;
  if (type === 'agent_state_changed') {
    const state = parseAgentState(extras.agent_state);
    if (!state) return undefined;
    return createEvent('ConversationStateUpdateEvent', {
      ...base,
      key: 'execution_status',
      value: statusFromAgentState(state),
    });
  }
  const action = v.cause !== undefined && v.cause !== null ? ctx.actions.get(v.cause) : undefined;
  if (!action) {
    if (type !== 'error') return undefined;
    const code = str(extras.error_id) || 'OPENHANDS_V0_ERROR';
    return createEvent('ConversationErrorEvent', { ...base, code, detail: content });
  }
  const link = { action_id: action.id, tool_name: action.toolName, tool_call_id: action.toolCallId };
  if (type === 'error') {
    return createEvent('AgentErrorEvent', {
      ...base,
      error: content,
      tool_name: link.tool_name,
      tool_call_id: link.tool_call_id,
    });
  }
  if (type === 'user_rejected')
    return createEvent('UserRejectObservation', { ...base, ...link, rejection_reason: content });
  return createEvent('ObservationEvent', {
    ...base,
    ...link,
    observation: observationPayload(type, content, extras, action),
  });
}

function observationPayload(
  type: string,
  content: string,
  extras: Args,
  action: ImportedAction,
): ObservationPayload {
  const body = { content: textContent(content), is_error: false };
  const actionKind = action.payload.kind;
  if (type === 'run' && actionKind === 'TerminalAction') {
    const metadata = (extras.metadata ?? {}) as Args;
    const exit = typeof metadata.exit_code === 'number' ? metadata.exit_code : null;
    const command = str(extras.command) ?? str(action.payload.command) ?? '';
    return { kind: 'TerminalObservation', ...body, command, exit_code: exit, timeout: false, metadata };
  }
  if (['read', 'write', 'edit'].includes(type) && actionKind === 'FileEditorAction') {
    const fields: Args = {
      kind: 'FileEditorObservation',
      ...body,
      command: action.payload.command,
      path: str(extras.path) ?? '',
    };
    for (const k of ['prev_exist', 'old_content', 'new_content'])
      if (extras[k] !== undefined) fields[k] = extras[k];
    return fields as ObservationPayload;
  }
  if (type === 'think' && actionKind === 'ThinkAction') return { kind: 'ThinkObservation', ...body };
  return { kind: V0_OBSERVATION_KIND, ...body, observation: type, extras };
}

function opaque(item: unknown, position: number, ctx: Ctx, source: string): Event {
  const id =
    typeof (item as V0Event | null)?.id === 'number'
      ? uuidForV0Id((item as { id: number }).id)
      : uuidForV0Id(position, true);
  const r = parseEvent({ id, timestamp: ctx.lastTimestamp, source, kind: V0_EVENT_KIND, v0: item });
  if (!r.ok) throw new Error(r.error.message); // unreachable: the record is built to be valid
  return r.event;
}

function sourceOf(s: string | undefined): EventSource {
  const lower = s?.toLowerCase();
  return lower === 'user' || lower === 'agent' ? lower : 'environment';
}

function idOf(v: V0Event, position: number): string {
  return v.id !== undefined ? uuidForV0Id(v.id) : uuidForV0Id(position, true);
}
