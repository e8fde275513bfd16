// Keeps what the next prompt is built from as events arrive: the incremental view, with
// condensation applied and converted messages cached. Nothing is re-read from the log.
import { ViewBuilder } from '../context';
import type { Event } from '../events';
import type { ChatMessage } from '../events/to-messages';

export class PromptBuilder {
  constructor(readonly view = new ViewBuilder()) {}

  add(event: Event): void {
    this.view.append(event);
  }

  messages(): ChatMessage[] {
    return this.view.messages();
  }
}
