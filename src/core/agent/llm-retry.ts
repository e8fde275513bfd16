// The record of a failed model call that is being tried again: the chat shows it while the client
// waits ("Could not reach 127.0.0.1:11434, retrying in 4 s (2 of 5)"), and the log keeps it.
import type { LlmRetryNotice } from '../llm/types';

/** Key of the ConversationStateUpdateEvent; informational, the reducer ignores it. */
export const LLM_RETRY_KEY = 'llm_retry';

export interface LlmRetryValue {
  /** The LlmErrorKind of the failed attempt. */
  kind: string;
  /** Its message (names the endpoint, never the key). */
  error: string;
  endpoint: string;
  /** The attempt about to be made and how many there may be in all. */
  attempt: number;
  attempts: number;
  delay_ms: number;
  /** The failed attempt had streamed part of a reply, which was dropped. */
  discarded_partial_reply: boolean;
}

export function llmRetryValue(n: LlmRetryNotice): LlmRetryValue {
  return {
    kind: n.error.kind,
    error: n.error.message,
    endpoint: n.endpoint,
    attempt: n.attempt,
    attempts: n.attempts,
    delay_ms: n.delayMs,
    discarded_partial_reply: n.discardedPartialReply,
  };
}
