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
    return this.view.messages();
  }
}
