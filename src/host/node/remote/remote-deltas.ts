// The agent-server's streaming deltas (StreamingDeltaEvent: the reply's text and reasoning as the
// model writes them) as the chat's live preview takes them. They are transient on the server too:
// never in its event list, never in Logbook's log. The reply's final event (the agent's message or
// action) replaces the preview; a stream that dropped mid-reply lost some of its deltas, so what
// was shown of that reply is dropped and the rest of it waits for the final event.

/** Partial reply text for the chat, in the shape of the local conversation's stream. */
export type RemoteDelta =
  { type: 'text' | 'reasoning'; text: string } | { type: 'end' } | { type: 'discard' };

export const STREAMING_DELTA_KIND = 'StreamingDeltaEvent';

/** The text a StreamingDeltaEvent carries, reasoning first (the model writes it first). */
export function streamingDeltas(e: Record<string, unknown>): RemoteDelta[] {
  if (e.kind !== STREAMING_DELTA_KIND) return [];
  const out: RemoteDelta[] = [];
  if (typeof e.reasoning_content === 'string' && e.reasoning_content)
    out.push({ type: 'reasoning', text: e.reasoning_content });
  if (typeof e.content === 'string' && e.content) out.push({ type: 'text', text: e.content });
  return out;
}

/** Follows one conversation's stream: which deltas to show, and when to drop or end the preview. */
export class RemoteReplyPreview {
  /** Deltas were shown since the agent's last event: a reply is being written. */
  private midReply = false;
  /** The stream dropped mid-reply: its deltas have a hole, so none is shown until its final event. */
  private muted = false;

  constructor(private readonly emit: ((delta: RemoteDelta) => void) | undefined) {}

  delta(e: Record<string, unknown>): void {
    if (this.muted || !this.emit) return;
    for (const d of streamingDeltas(e)) {
      this.midReply = true;
      this.emit(d);
    }
  }

  /** An event of the conversation arrived: the agent's own is the final form of the reply. */
  event(e: Record<string, unknown>): void {
    if (e.source !== 'agent') return;
    this.midReply = false;
    this.muted = false;
  }

  /** The socket dropped: a reply half shown would miss what was sent meanwhile. */
  dropped(): void {
    if (!this.midReply) return;
    this.midReply = false;
    this.muted = true;
    this.emit?.({ type: 'discard' });
  }

  /** The stream ended (a stop, a pause, the server gone): the preview ends as a local one does. */
  ended(): void {
    if (!this.midReply) return;
    this.midReply = false;
    this.emit?.({ type: 'end' });
  }
}
