// Keeps what the next prompt is built from as events arrive: the incremental view, with
// condensation applied and converted messages cached. Nothing is re-read from the log.
import { ViewBuilder } from '../context';
import type { Event } from '../events';
import type { ChatMessage } from '../events/to-messages';

export class PromptBuilder {
  constructor(readonly view = new ViewBuilder()) {}

  /** `at`: the event's index in the log, kept so a snapshot can say where to read it back. */
  add(event: Event, at?: number): void {
    this.view.append(event, at);
  }

  messages(): ChatMessage[] {
    const messages = this.view.messages();
    if (messages.length === 0 || messages[0]!.role === 'system') return messages;
    // The system prompt leads every request, also one re-derived after the log's record of it was
    // lost and appended later (Conversation.open).
    const i = messages.findIndex((m) => m.role === 'system');
    if (i < 0) return messages;
    return [messages[i]!, ...messages.slice(0, i), ...messages.slice(i + 1)];
  }

  /** Whether the next request would carry a system prompt. */
  hasSystemPrompt(): boolean {
    return this.messages()[0]?.role === 'system';
  }
}
