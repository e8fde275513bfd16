// Redaction of the model's streamed deltas (shown live in the chat, never stored). A secret can
// arrive split over several deltas, so each stream (the text, the reasoning, each tool call's
// arguments) holds back a tail that could be the start of one until the next delta or the end.
import type { LlmDelta } from '../llm/types';
import type { SecretRedactor } from './redact-secrets';

export type StreamEvent = LlmDelta | { type: 'end' };

export class StreamRedactor {
  /** Text not passed on yet, per stream. */
  private readonly held = new Map<string, string>();

  constructor(private readonly redactor: () => SecretRedactor) {}

  /** The deltas to pass on for `d` (none while everything is held back; the rest at `end`). */
  push(d: StreamEvent): StreamEvent[] {
    const redactor = this.redactor();
    if (d.type === 'end') return [...this.flush(redactor), d];
    if (d.type !== 'text' && d.type !== 'reasoning' && d.type !== 'tool_call') {
      // Anything else (a retry discarding what streamed so far) ends what is held: forget it.
      this.held.clear();
      return [d];
    }
    if (redactor.empty && this.held.size === 0) return [d];
    const key = d.type === 'tool_call' ? `tool_call:${d.index}` : d.type;
    const text = (this.held.get(key) ?? '') + (d.type === 'tool_call' ? d.argumentsDelta : d.text);
    const redacted = redactor.redactText(text);
    const keep = redactor.heldBackLength(redacted);
    const out = redacted.slice(0, redacted.length - keep);
    if (keep > 0) this.held.set(key, redacted.slice(redacted.length - keep));
    else this.held.delete(key);
    if (d.type === 'tool_call') {
      // The first delta of a call names it: pass that on even when its text is held back.
      return out || d.id || d.name ? [{ ...d, argumentsDelta: out }] : [];
    }
    return out ? [{ ...d, text: out }] : [];
  }

  private flush(redactor: SecretRedactor): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const [key, rest] of this.held) {
      const text = redactor.redactText(rest);
      if (key.startsWith('tool_call:')) {
        out.push({ type: 'tool_call', index: Number(key.slice('tool_call:'.length)), argumentsDelta: text });
      } else {
        out.push({ type: key as 'text' | 'reasoning', text });
      }
    }
    this.held.clear();
    return out;
  }
}
