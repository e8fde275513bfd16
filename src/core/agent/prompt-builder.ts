// Keeps what the next prompt is built from, as events arrive: the system prompt, the events the
// LLM sees (with condensation applied) and the actions by id. The prompt is rebuilt from these in
// memory; nothing is re-read from the log.
import { eventsToMessages, isLlmConvertible, textOf, type ActionEvent, type Event } from '../events';
import type { ChatMessage } from '../events/to-messages';

export class PromptBuilder {
  private system: string | null = null;
  private llmEvents: Event[] = [];
  private readonly actions = new Map<string, ActionEvent>();

  add(event: Event): void {
    if (event.kind === 'SystemPromptEvent') {
      this.system = event.system_prompt.text;
      return;
    }
    if (event.kind === 'ActionEvent') this.actions.set(event.id, event);
    if (event.kind === 'Condensation') {
      const forgotten = new Set(event.forgotten_event_ids);
      const kept = this.llmEvents.filter(
        (e) => !forgotten.has(e.id) && e.kind !== 'CondensationSummaryEvent',
      );
      if (event.summary) {
        const at = Math.min(event.summary_offset ?? 0, kept.length);
        kept.splice(at, 0, {
          kind: 'CondensationSummaryEvent',
          id: `${event.id}-summary`,
          timestamp: event.timestamp,
          source: 'environment',
          summary: event.summary,
        } as unknown as Event);
      }
      this.llmEvents = kept;
      return;
    }
    if (isLlmConvertible(event)) this.llmEvents.push(event);
  }

  /** The events the LLM currently sees (after condensation), for condensers and the stuck check. */
  events(): readonly Event[] {
    return this.llmEvents;
  }

  action(id: string): ActionEvent | undefined {
    return this.actions.get(id);
  }

  messages(): ChatMessage[] {
    const body = eventsToMessages(this.llmEvents);
    return this.system ? [{ role: 'system', content: this.system }, ...body] : body;
  }
}

export { textOf };
