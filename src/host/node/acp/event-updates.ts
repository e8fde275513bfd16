// Logbook's events as ACP `session/update` payloads: the one mapping both a live turn and
// `session/load` (a replay of the log) use, so an editor sees the same thing either way. Only
// types come from the SDK, so this module loads nothing of it.
import { isAbsolute, resolve } from 'node:path';
import type {
  ContentBlock,
  PlanEntry,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from '@agentclientprotocol/sdk';
import {
  type ActionEvent,
  type Event,
  type ObservationEvent,
  observationNewContent,
  textOf,
} from '../../../core/events';
import { ACTION_STARTED_KEY } from '../../../core/state';
import { actionWhat } from '../cli/event-line';
import { UsageTally } from './usage-update';

/** Tools whose call is the agent speaking or thinking, not an action an editor lists. */
const FINISH = 'finish';
const THINK = 'think';
const TASK_TRACKER = 'task_tracker';

const KIND_BY_TOOL: Record<string, ToolKind> = {
  terminal: 'execute',
  glob: 'search',
  grep: 'search',
  fetch: 'fetch',
  web_search: 'fetch',
  [TASK_TRACKER]: 'think',
};

export interface UpdateOptions {
  /** Where relative paths of the agent's calls resolve (ACP locations and diffs are absolute). */
  workspace: string;
  /**
   * Whether the model's text and reasoning already reached the editor as deltas (a live turn with a
   * streaming endpoint), so the recorded message repeats nothing; a replay sends it from the log.
   */
  streamed: boolean | (() => boolean);
}

/**
 * Turns events into updates, one event at a time. It remembers which action each model call id
 * belongs to, so a call's error or result updates the tool call the editor already shows.
 */
export class EventUpdates {
  private readonly actionOfCall = new Map<string, string>();
  /** File edits waiting for their result: a new file's text is kept in the action only. */
  private readonly edits = new Map<string, ActionEvent>();
  private readonly usage = new UsageTally();

  constructor(private readonly opts: UpdateOptions) {}

  /** The updates for one event (none for the events an editor has no use for). */
  of(event: Event): SessionUpdate[] {
    switch (event.kind) {
      case 'MessageEvent':
        return this.message(event.source, textOf(event.llm_message.content), event.llm_message);
      case 'ActionEvent':
        return this.action(event);
      case 'ObservationEvent':
        return this.observation(event);
      case 'UserRejectObservation':
        return [this.update(event.action_id, 'failed', [text(`Rejected: ${event.rejection_reason}`)])];
      case 'AgentErrorEvent': {
        const id = this.actionOfCall.get(event.tool_call_id);
        if (id) return [this.update(id, 'failed', [text(event.error)])];
        // A call that never became an action (invalid arguments): shown once, failed.
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: event.id,
            title: event.tool_name,
            kind: 'other',
            status: 'failed',
            content: [text(event.error)],
          },
        ];
      }
      case 'ConversationStateUpdateEvent': {
        const usage = this.usage.of(event.key, event.value);
        if (usage) return [usage];
        if (event.key !== ACTION_STARTED_KEY) return [];
        const id = (event.value as { action_id?: unknown } | null)?.action_id;
        return typeof id === 'string' ? [this.update(id, 'in_progress')] : [];
      }
      default:
        return [];
    }
  }

  private message(
    source: string,
    body: string,
    llm: { reasoning_content?: string | null | undefined },
  ): SessionUpdate[] {
    if (source === 'user') return body ? [chunk('user_message_chunk', body)] : [];
    if (source !== 'agent' || this.streamed()) return [];
    const out: SessionUpdate[] = [];
    if (llm.reasoning_content) out.push(chunk('agent_thought_chunk', llm.reasoning_content));
    if (body) out.push(chunk('agent_message_chunk', body));
    return out;
  }

  private action(e: ActionEvent): SessionUpdate[] {
    this.actionOfCall.set(e.tool_call_id, e.id);
    if (e.tool_name === 'file_editor') this.edits.set(e.id, e);
    const out: SessionUpdate[] = [];
    if (!this.streamed()) {
      if (e.reasoning_content) out.push(chunk('agent_thought_chunk', e.reasoning_content));
      const said = textOf(e.thought);
      if (said) out.push(chunk('agent_message_chunk', said));
    }
    const args = (e.action ?? {}) as Record<string, unknown>;
    // The agent's last word and its thinking read as what it says, not as tool calls.
    if (e.tool_name === FINISH && typeof args.message === 'string' && args.message !== '')
      return [...out, chunk('agent_message_chunk', args.message)];
    if (e.tool_name === THINK && typeof args.thought === 'string')
      return [...out, chunk('agent_thought_chunk', args.thought)];
    const path = typeof args.path === 'string' ? this.absolute(args.path) : undefined;
    out.push({
      sessionUpdate: 'tool_call',
      toolCallId: e.id,
      title: titleOf(e, path),
      kind: kindOf(e.tool_name, args),
      status: 'pending',
      ...(path ? { locations: [{ path } satisfies ToolCallLocation] } : {}),
      ...(e.tool_name === 'file_editor' ? { content: proposedDiff(args, path) } : {}),
      rawInput: e.action ?? e.tool_call.arguments,
    });
    return out;
  }

  private observation(e: ObservationEvent): SessionUpdate[] {
    const o = e.observation as Record<string, unknown>;
    const failed = o.is_error === true;
    const content: ToolCallContent[] = [];
    const path = typeof o.path === 'string' ? this.absolute(o.path) : undefined;
    const newText = observationNewContent(o, this.edits.get(e.action_id));
    this.edits.delete(e.action_id);
    if (path && newText !== undefined && !failed) {
      content.push({
        type: 'diff',
        path,
        oldText: typeof o.old_content === 'string' ? o.old_content : null,
        newText,
      });
    }
    const body = textOf(o.content as Parameters<typeof textOf>[0]);
    if (body) content.push(text(body));
    const out: SessionUpdate[] = [this.update(e.action_id, failed ? 'failed' : 'completed', content)];
    if (e.tool_name === TASK_TRACKER && !failed && Array.isArray(o.task_list)) {
      out.push({ sessionUpdate: 'plan', entries: planEntries(o.task_list as unknown[]) });
    }
    return out;
  }

  private update(
    toolCallId: string,
    status: 'in_progress' | 'completed' | 'failed',
    content?: ToolCallContent[],
  ): SessionUpdate {
    return { sessionUpdate: 'tool_call_update', toolCallId, status, ...(content ? { content } : {}) };
  }

  private streamed(): boolean {
    const { streamed } = this.opts;
    return typeof streamed === 'function' ? streamed() : streamed;
  }

  private absolute(path: string): string {
    return isAbsolute(path) ? path : resolve(this.opts.workspace, path);
  }
}

/** Logbook's task list as an ACP plan. */
export function planEntries(tasks: readonly unknown[]): PlanEntry[] {
  return tasks.flatMap((t) => {
    if (t === null || typeof t !== 'object') return [];
    const { title, status } = t as { title?: unknown; status?: unknown };
    if (typeof title !== 'string') return [];
    return [
      {
        content: title,
        priority: 'medium' as const,
        status: status === 'done' ? 'completed' : status === 'in_progress' ? 'in_progress' : 'pending',
      },
    ];
  });
}

function kindOf(tool: string, args: Record<string, unknown>): ToolKind {
  if (tool === 'file_editor') return args.command === 'view' ? 'read' : 'edit';
  return KIND_BY_TOOL[tool] ?? 'other';
}

function titleOf(e: ActionEvent, path: string | undefined): string {
  const args = (e.action ?? {}) as Record<string, unknown>;
  if (e.tool_name === 'file_editor' && path) {
    const verb = { view: 'Read', create: 'Create', undo_edit: 'Undo the last edit of' }[String(args.command)];
    return `${verb ?? 'Edit'} ${path}`;
  }
  return e.tool_name === 'terminal' ? actionWhat(e) : `${e.tool_name}: ${actionWhat(e)}`;
}

/** What a file edit proposes, as a diff where the call alone tells the new text (a new file). */
function proposedDiff(args: Record<string, unknown>, path: string | undefined): ToolCallContent[] {
  if (!path) return [];
  if (args.command === 'create' && typeof args.file_text === 'string')
    return [{ type: 'diff', path, oldText: null, newText: args.file_text }];
  if (args.command === 'str_replace' && typeof args.old_str === 'string')
    return [{ type: 'diff', path, oldText: args.old_str, newText: String(args.new_str ?? '') }];
  return [];
}

function chunk(
  sessionUpdate: 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk',
  body: string,
): SessionUpdate {
  return { sessionUpdate, content: { type: 'text', text: body } satisfies ContentBlock };
}

function text(body: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: body } };
}
