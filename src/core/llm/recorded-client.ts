// An LlmClient that answers with the replies a conversation's log recorded, in order, instead of a
// model: what replays a conversation needs (no network, the same tool calls with the same ids). A
// reply is rebuilt from the events recordReply wrote for it: the actions (and the calls refused
// before they became actions) that share one llm_response_id, or the agent's final message.
import type { Event } from '../events';
import { textOf } from '../events/content';
import { LlmError, type LlmClient, type LlmResponse, type LlmToolCall } from './types';

/** The model replies `events` record, in the order the agent received them. */
export function recordedReplies(events: readonly Event[]): LlmResponse[] {
  const replies: LlmResponse[] = [];
  const byId = new Map<string, LlmResponse>();
  const model = 'recorded';
  const reply = (id: string): LlmResponse => {
    let r = byId.get(id);
    if (!r) {
      r = {
        id,
        model,
        content: '',
        reasoning: null,
        toolCalls: [],
        finishReason: 'tool_calls',
        usage: null,
        cost: 0,
        costSource: 'unknown',
        latencyMs: 0,
      };
      byId.set(id, r);
      replies.push(r);
    }
    return r;
  };
  const call = (tc: { id: string; name: string; arguments: string }): LlmToolCall => ({
    id: tc.id,
    name: tc.name,
    arguments: tc.arguments,
  });
  for (const e of events) {
    if (e.kind === 'ActionEvent' && e.source === 'agent') {
      const r = reply(e.llm_response_id);
      if (r.toolCalls.length === 0) {
        r.content = textOf(e.thought);
        r.reasoning = e.reasoning_content ?? null;
      }
      r.toolCalls.push(call(e.tool_call));
    } else if (e.kind === 'AgentErrorEvent' && e.tool_call && e.llm_response_id) {
      // A call of a batch refused before it became an action still belongs to its reply.
      const r = reply(e.llm_response_id);
      if (!r.toolCalls.some((c) => c.id === e.tool_call!.id)) r.toolCalls.push(call(e.tool_call));
    } else if (e.kind === 'MessageEvent' && e.source === 'agent' && e.llm_response_id) {
      const r = reply(e.llm_response_id);
      r.content = textOf(e.llm_message.content);
      r.finishReason = 'stop';
    }
  }
  return replies;
}

export class RecordedLlmClient implements LlmClient {
  readonly model = 'recorded';
  private next = 0;

  constructor(private readonly replies: readonly LlmResponse[]) {}

  /** Replies handed out so far. */
  get used(): number {
    return this.next;
  }

  get total(): number {
    return this.replies.length;
  }

  complete(): Promise<LlmResponse> {
    const r = this.replies[this.next];
    if (!r)
      return Promise.reject(
        new LlmError(
          'bad_request',
          `the recording has no model reply left: the agent asked for reply ${this.next + 1}, the conversation recorded ${this.replies.length}`,
        ),
      );
    this.next++;
    return Promise.resolve({ ...r, toolCalls: r.toolCalls.map((c) => ({ ...c })) });
  }
}
