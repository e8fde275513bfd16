// A deterministic event log builder for state tests: ids and timestamps come from a counter, so
// two builders fed the same calls produce identical events.
import {
  type ActionEvent,
  createEvent,
  type Event,
  parseEvent,
  type PauseEvent,
} from '../../../src/core/events';

export function eventId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function timestamp(n: number): string {
  return new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
}

type Extra = { parent_id?: string };

export class LogBuilder {
  readonly events: Event[] = [];
  private n = 0;
  private nextParent: string | undefined;

  /** The next event names `parentId` as its parent (a fork when it is not the last event). */
  forkFrom(parentId: string): this {
    this.nextParent = parentId;
    return this;
  }

  private base(): { id: string; timestamp: string } & Extra {
    const n = ++this.n;
    const parent = this.nextParent;
    this.nextParent = undefined;
    return {
      id: eventId(n),
      timestamp: timestamp(n),
      ...(parent !== undefined ? { parent_id: parent } : {}),
    };
  }

  private push<E extends Event>(e: E): E {
    this.events.push(e);
    return e;
  }

  user(text = 'hello', skills: string[] = []): Event {
    return this.push(
      createEvent('MessageEvent', {
        ...this.base(),
        llm_message: { role: 'user', content: [{ type: 'text', text }] },
        activated_skills: skills,
      }),
    );
  }

  agent(text = 'done', responseId?: string, toolCalls = false): Event {
    return this.push(
      createEvent('MessageEvent', {
        ...this.base(),
        llm_message: {
          role: 'assistant',
          content: [{ type: 'text', text }],
          ...(toolCalls ? { tool_calls: [{ id: 'tc', name: 'terminal', arguments: '{}' }] } : {}),
        },
        ...(responseId !== undefined ? { llm_response_id: responseId } : {}),
      }),
    );
  }

  action(
    callId: string,
    responseId: string,
    opts: { tool?: string; payload?: Record<string, unknown> } = {},
  ): ActionEvent {
    const tool = opts.tool ?? 'terminal';
    const payload = opts.payload ?? { kind: 'TerminalAction', command: `echo ${callId}` };
    return this.push(
      createEvent('ActionEvent', {
        ...this.base(),
        action: payload as { kind: string },
        tool_name: tool,
        tool_call_id: callId,
        tool_call: { id: callId, name: tool, arguments: JSON.stringify(payload) },
        llm_response_id: responseId,
      }),
    );
  }

  plan(callId: string, responseId: string, titles: string[]): ActionEvent {
    return this.action(callId, responseId, {
      tool: 'task_tracker',
      payload: {
        kind: 'TaskTrackerAction',
        command: 'plan',
        task_list: titles.map((title, i) => ({ title, notes: `n${i}`, status: i === 0 ? 'done' : 'todo' })),
      },
    });
  }

  observe(
    a: { id: string; tool_call_id: string; tool_name: string },
    opts: { isError?: boolean; byCallIdOnly?: boolean } = {},
  ): Event {
    return this.push(
      createEvent('ObservationEvent', {
        ...this.base(),
        observation: {
          kind: 'TerminalObservation',
          content: [{ type: 'text', text: 'out' }],
          is_error: opts.isError ?? false,
        },
        // An action_id that names no action makes the reducer fall back to tool_call_id.
        action_id: opts.byCallIdOnly ? eventId(999_999) : a.id,
        tool_name: a.tool_name,
        tool_call_id: a.tool_call_id,
      }),
    );
  }

  reject(a: ActionEvent, reason = 'no'): Event {
    return this.push(
      createEvent('UserRejectObservation', {
        ...this.base(),
        rejection_reason: reason,
        action_id: a.id,
        tool_name: a.tool_name,
        tool_call_id: a.tool_call_id,
      }),
    );
  }

  agentError(callId: string, opts: { tool?: string; responseId?: string; error?: string } = {}): Event {
    return this.push(
      createEvent('AgentErrorEvent', {
        ...this.base(),
        error: opts.error ?? `error for ${callId}`,
        tool_name: opts.tool ?? 'terminal',
        tool_call_id: callId,
        ...(opts.responseId !== undefined ? { llm_response_id: opts.responseId } : {}),
      }),
    );
  }

  update(key: string, value: unknown): Event {
    return this.push(createEvent('ConversationStateUpdateEvent', { ...this.base(), key, value }));
  }

  status(value: string): Event {
    return this.update('execution_status', value);
  }

  started(a: ActionEvent): Event {
    return this.update('action_started', { action_id: a.id, tool_call_id: a.tool_call_id });
  }

  usage(usageId: string, v: Partial<Record<string, unknown>> = {}): Event {
    return this.update('llm_usage', {
      usage_id: usageId,
      model: 'm',
      prompt_tokens: 10,
      completion_tokens: 5,
      cached_tokens: 2,
      reasoning_tokens: 1,
      cost: 0.25,
      latency_ms: 100,
      response_id: 'r',
      ...v,
    });
  }

  pause(): PauseEvent {
    return this.push(createEvent('PauseEvent', { ...this.base() }));
  }

  conversationError(code = 'LLM_FAILED', detail = 'it broke'): Event {
    return this.push(createEvent('ConversationErrorEvent', { ...this.base(), code, detail }));
  }

  condensation(): Event {
    return this.push(createEvent('Condensation', { ...this.base(), forgotten_event_ids: [] }));
  }

  /** A record of a kind this version does not know (kept as an OpaqueEvent). */
  opaque(): Event {
    const r = parseEvent({ ...this.base(), source: 'environment', kind: 'FutureEvent', x: 1 });
    if (!r.ok) throw new Error(r.error.message);
    return this.push(r.event);
  }

  /** Appends already-built events (e.g. recovery events), keeping the counter ahead of them. */
  append(...events: Event[]): void {
    this.n += events.length;
    this.events.push(...events);
  }

  get last(): Event {
    const e = this.events[this.events.length - 1];
    if (!e) throw new Error('empty log');
    return e;
  }
}

/** Deterministic id source for EventContext. */
export function counterIds(start = 500_000): () => string {
  let n = start;
  return () => eventId(n++);
}
