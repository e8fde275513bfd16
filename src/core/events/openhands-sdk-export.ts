/**
 * Events as the OpenHands SDK persists them (the revision after v1.43.1; its schemas are in
 * test/fixtures/openhands/sdk-v1.43). Logbook's log follows the SDK's format, with a few additions
 * the SDK's models forbid; an export (`logbook export-openhands`, the editor's JSON export) passes
 * every event through `SdkExporter`, which writes the SDK's form:
 * - SystemPromptEvent `tools`: SDK ToolDefinitions (openhands-sdk-tools.ts); so are the tools a
 *   `tools_offered` update records;
 * - an observation that refers to its action's text gets the text back (observation-refs.ts);
 * - TerminalObservation: `full_output_path` is left out (the SDK has `full_output_save_dir`, which
 *   Logbook writes too, and the path is in the text the model read); GrepObservation `matches`
 *   are the matching files, as the SDK has them (each line found is in the text);
 * - AgentErrorEvent: `tool_call` and `llm_response_id` are left out. A log written before refused
 *   and invalid calls got their own ActionEvent has only the error: the ActionEvent the SDK writes
 *   for such a call (`action: null`) is rebuilt from it, so the SDK's message conversion keeps the
 *   call and its answer;
 * - ActionEvent: `tool_call.origin` (required by the SDK) is 'completion' when a log lacks it;
 * - the web tools (`fetch`, `web_search`) have no SDK kind: their calls are exported as the SDK
 *   records an MCP tool's (MCPToolAction with the call's arguments as `data`, MCPToolObservation
 *   with the text the model read), as OpenHands' own fetch is an MCP server's; the address a fetch
 *   was checked at stays in Logbook's log and in that text;
 * - what only a V0 import made (OpenHandsV0Action / Observation payloads, OpenHandsV0Event records)
 *   has no SDK kind: such an action is exported as a call with no action, its result as the call's
 *   error text, and an opaque V0 record is left out.
 * - `agent_name` and `branch` (on every event Logbook writes) are left out; the agents' starts and
 *   ends stay as `agent_start`/`agent_end` state updates.
 * - the mark of an event received from an agent-server (`received_from`) is left out: the SDK's
 *   models forbid it, and its `parent_id` (the server's) can name an event received after it,
 *   which the export's order forbids. The event keeps the log's parent (the event received
 *   before it); the mark, the server's parent with it, is in the records the export keeps.
 * Anything else passes as it is, so an imported SDK conversation exports byte for byte as it came.
 */
import { isLlmConvertible } from './accessors';
import { derivedUuid } from './derived-uuid';
import { observationText } from './payloads';
import { ObservationRefResolver } from './observation-refs';
import { sdkToolDefinition } from './openhands-sdk-tools';
import { V0_ACTION_KIND, V0_EVENT_KIND, V0_OBSERVATION_KIND } from './openhands-v0-types';
import type { Event } from './union';

/** The SDK version whose persisted format the export writes. */
export const OPENHANDS_SDK_TARGET = '1.43.1';

type Json = Record<string, unknown>;

/** What the export changed or left out, for the note the exporter prints. */
export interface SdkExportNotes {
  /** Events left out, by kind. */
  leftOut: Record<string, number>;
  /** ActionEvents rebuilt for calls the log answered with an error only. */
  rebuiltCalls: number;
  /** Fields left out, as `Kind.field`, with how many events had them. */
  droppedFields: Record<string, number>;
}

/** Logbook's web tools' action kinds, with the fields that are the call's arguments. */
const WEB_TOOL_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  FetchAction: ['url', 'max_length', 'start_index', 'raw'],
  WebSearchAction: ['query', 'limit'],
};

/** The key of the update that records the tools from outside offered to the model (state/reducer). */
const TOOLS_OFFERED_KEY = 'tools_offered';

/** Actions whose tools record where their path led (core/tools/recorded-path.ts). */
const RECORDS_REAL_PATH = new Set(['FileEditorAction', 'GlobAction', 'GrepAction']);

/** The mark of an event received from an agent-server (host/node/remote/remote-chain.ts). */
function receivedFrom(event: Event): boolean {
  return 'received_from' in event;
}

export class SdkExporter {
  private readonly refs = new ObservationRefResolver();
  /** tool_call_ids of ActionEvents not answered yet. */
  private readonly open = new Set<string>();
  readonly notes: SdkExportNotes = { leftOut: {}, rebuiltCalls: 0, droppedFields: {} };
  /** Ids of the LLM-convertible events so far, in log order, and their positions: a range's ids. */
  private readonly shown: string[] = [];
  private readonly positions = new Map<string, number>();

  /** The SDK events for `e`, in log order: none (left out), the event, or a rebuilt call and its error. */
  convert(event: Event): Event[] {
    const e = this.refs.resolve(this.unstamped(event));
    if (isLlmConvertible(e)) {
      this.positions.set(e.id, this.shown.length);
      this.shown.push(e.id);
    }
    switch (e.kind) {
      case 'Condensation':
        return [this.condensation(e)];
      case 'OpaqueEvent':
        if (e.original_kind === V0_EVENT_KIND) {
          this.count(this.notes.leftOut, e.original_kind);
          return [];
        }
        return [e];
      case 'SystemPromptEvent':
        return [
          withField(
            e,
            'tools',
            e.tools.map((t) => sdkToolDefinition(t as Json)),
          ),
        ];
      case 'ConversationStateUpdateEvent':
        return [this.stateUpdate(e)];
      case 'ActionEvent':
        this.open.add(e.tool_call_id);
        return [this.action(e)];
      case 'ObservationEvent':
      case 'UserRejectObservation':
        this.open.delete(e.tool_call_id);
        return e.kind === 'ObservationEvent' ? [this.observation(e)] : [e];
      case 'AgentErrorEvent':
        return this.agentError(e);
      default:
        return [e];
    }
  }

  /**
   * Without `agent_name` and `branch`, which the SDK's models forbid: who wrote an event stays in
   * the `agent_start`/`agent_end` updates the export keeps, and the record as stored is kept
   * beside the export (logbook-original-records.jsonl).
   */
  /**
   * A forgotten range spelled out as OpenHands lists forgotten events: every event from its first
   * through its last (those hidden already included, which forgetting again leaves hidden).
   */
  private condensation(e: Extract<Event, { kind: 'Condensation' }>): Event {
    const range = e.forgotten_range;
    if (!range) return e;
    const from = this.positions.get(range.first) ?? -1;
    const to = this.positions.get(range.last) ?? -1;
    const ids = from < 0 || to < from ? [] : this.shown.slice(from, to + 1);
    const { forgotten_range: _range, ...rest } = e;
    return withField(rest as Event, 'forgotten_event_ids', [...e.forgotten_event_ids, ...ids]);
  }

  private unstamped(event: Event): Event {
    const received = receivedFrom(event);
    if (!('agent_name' in event) && !('branch' in event) && !received) return event;
    const { agent_name: _name, branch: _branch, received_from: _from, ...rest } = event as unknown as Json;
    if ('agent_name' in event || 'branch' in event)
      this.count(this.notes.droppedFields, 'agent_name and branch');
    if (received) this.count(this.notes.droppedFields, 'received_from');
    return rest as unknown as Event;
  }

  private action(e: Extract<Event, { kind: 'ActionEvent' }>): Event {
    let out: Json = e as unknown as Json;
    if (e.tool_call.origin === undefined)
      out = { ...out, tool_call: { ...e.tool_call, origin: 'completion' } };
    const kind = (e.action as Json | null)?.kind;
    if (kind === V0_ACTION_KIND) out = { ...out, action: null };
    if (typeof kind === 'string' && RECORDS_REAL_PATH.has(kind) && 'real_path' in (e.action as Json)) {
      // Where the path led when it was rated: Logbook's own, which the SDK's model forbids.
      this.count(this.notes.droppedFields, `${kind}.real_path`);
      const { real_path: _real, ...action } = e.action as Json;
      out = { ...out, action };
    }
    const args = typeof kind === 'string' ? WEB_TOOL_ARGUMENTS[kind] : undefined;
    if (args) {
      const action = e.action as Json;
      const data = Object.fromEntries(args.filter((k) => k in action).map((k) => [k, action[k]]));
      const extra = Object.keys(action).filter((k) => k !== 'kind' && !args.includes(k));
      for (const k of extra) this.count(this.notes.droppedFields, `${kind}.${k}`);
      out = { ...out, action: { data, kind: 'MCPToolAction' } };
    }
    return out as unknown as Event;
  }

  private observation(e: Extract<Event, { kind: 'ObservationEvent' }>): Event {
    const o = e.observation as Json;
    if (o.kind === V0_OBSERVATION_KIND) {
      // The SDK has no observation for it: the model's answer to the call is its text.
      return sdkError(e.id, e.timestamp, e.parent_id, {
        source: e.source,
        tool_name: e.tool_name,
        tool_call_id: e.tool_call_id,
        error: observationText(e.observation),
      });
    }
    if (
      o.kind === 'GrepObservation' &&
      Array.isArray(o.matches) &&
      o.matches.some((m) => typeof m !== 'string')
    ) {
      // The SDK lists the files that match; each line found is in the text the model read.
      this.count(this.notes.droppedFields, 'GrepObservation.matches line numbers and texts');
      const files = (o.matches as unknown[]).map((m) =>
        typeof m === 'string' ? m : String((m as Json).path),
      );
      return withField(e, 'observation', { ...o, matches: [...new Set(files)] });
    }
    if (o.kind === 'FetchObservation' || o.kind === 'WebSearchObservation') {
      return withField(e, 'observation', {
        kind: 'MCPToolObservation',
        content: o.content,
        is_error: o.is_error,
        tool_name: e.tool_name,
      });
    }
    if (o.kind === 'FileEditorObservation' && ('real_path' in o || 'refused' in o)) {
      // Where the file really landed, and a refusal's mark: in the text the model read too.
      for (const k of ['real_path', 'refused'].filter((k) => k in o))
        this.count(this.notes.droppedFields, `FileEditorObservation.${k}`);
      const { real_path: _real, refused: _refused, ...rest } = o;
      return withField(e, 'observation', rest);
    }
    if (o.kind === 'TerminalObservation' && 'full_output_path' in o) {
      this.count(this.notes.droppedFields, 'TerminalObservation.full_output_path');
      const { full_output_path: _path, ...rest } = o;
      return withField(e, 'observation', rest);
    }
    return e;
  }

  private agentError(e: Extract<Event, { kind: 'AgentErrorEvent' }>): Event[] {
    const { tool_call, llm_response_id, ...fields } = e as unknown as Json & {
      tool_call?: { id: string; name: string; arguments: string; origin?: string };
      llm_response_id?: string;
    };
    if (tool_call !== undefined) this.count(this.notes.droppedFields, 'AgentErrorEvent.tool_call');
    if (llm_response_id !== undefined)
      this.count(this.notes.droppedFields, 'AgentErrorEvent.llm_response_id');
    const error = fields as unknown as Event;
    if (this.open.delete(e.tool_call_id) || tool_call === undefined) return [error];
    // A log from before refused calls were recorded as the SDK records them: the call is rebuilt.
    this.notes.rebuiltCalls++;
    const actionId = derivedId(e.id);
    const action: Json = {
      id: actionId,
      timestamp: e.timestamp,
      source: 'agent',
      ...(e.parent_id !== undefined ? { parent_id: e.parent_id } : {}),
      thought: [],
      thinking_blocks: [],
      action: null,
      tool_name: e.tool_name,
      tool_call_id: e.tool_call_id,
      tool_call: { ...tool_call, origin: tool_call.origin ?? 'completion' },
      llm_response_id: llm_response_id ?? e.id,
      security_risk: 'UNKNOWN',
      kind: 'ActionEvent',
    };
    const answer = e.parent_id !== undefined ? { ...fields, parent_id: actionId } : fields;
    return [action as unknown as Event, answer as unknown as Event];
  }

  private stateUpdate(e: Extract<Event, { kind: 'ConversationStateUpdateEvent' }>): Event {
    const value = e.value as Json | null;
    if (e.key !== TOOLS_OFFERED_KEY || !value || !Array.isArray(value.tools)) return e;
    const tools = (value.tools as Json[]).map((t) => sdkToolDefinition(t));
    return withField(e, 'value', { ...value, tools });
  }

  private count(into: Record<string, number>, key: string): void {
    into[key] = (into[key] ?? 0) + 1;
  }
}

/** The notes as sentences, for the exporter to print; [] when the export changed nothing of note. */
export function sdkExportNoteLines(notes: SdkExportNotes): string[] {
  const lines: string[] = [];
  for (const [kind, n] of Object.entries(notes.leftOut))
    lines.push(
      `left out ${n} ${kind} record${n === 1 ? '' : 's'} (no OpenHands SDK kind; kept in the Logbook log)`,
    );
  if (notes.rebuiltCalls > 0)
    lines.push(
      `rebuilt ${notes.rebuiltCalls} refused or invalid call${notes.rebuiltCalls === 1 ? '' : 's'} as ActionEvents with no action`,
    );
  for (const [field, n] of Object.entries(notes.droppedFields))
    lines.push(
      `left out ${field} of ${n} event${n === 1 ? '' : 's'} (not in the SDK's model; kept in the Logbook log)`,
    );
  return lines;
}

function withField(e: Event, key: string, value: unknown): Event {
  // Same key order as the event: the file reads as the SDK writes it.
  const out: Json = {};
  for (const [k, v] of Object.entries(e as unknown as Json)) out[k] = k === key ? value : v;
  return out as unknown as Event;
}

function sdkError(
  id: string,
  timestamp: string,
  parentId: string | null | undefined,
  fields: { source: string; tool_name: string; tool_call_id: string; error: string },
): Event {
  return {
    id,
    timestamp,
    ...fields,
    ...(parentId !== undefined ? { parent_id: parentId } : {}),
    kind: 'AgentErrorEvent',
  } as unknown as Event;
}

/** A stable id for an event the export adds, derived from the event it stands beside. */
function derivedId(fromId: string): string {
  return derivedUuid(`logbook-sdk-export:${fromId}`);
}
