// Keeps what the next prompt is built from as events arrive: the incremental view (condensation
// applied, converted messages cached) and the actions by id. Nothing is re-read from the log.
import { ViewBuilder } from '../context';
import type { ActionEvent, Event } from '../events';
import type { ChatMessage } from '../events/to-messages';

export class PromptBuilder {
  readonly view = new ViewBuilder();
  private readonly actions = new Map<string, ActionEvent>();

  add(event: Event): void {
    if (event.kind === 'ActionEvent') this.actions.set(event.id, event);
    this.view.append(event);
  }

  action(id: string): ActionEvent | undefined {
    return this.actions.get(id);
  }

  messages(): ChatMessage[] {
    return this.view.messages();
  }
}
