// A conversation an external agent ran, reopened by `approve`, `reject` or `resolve` after the
// agent stopped: the model that says so, and how session.json names such a conversation's model.
import { type LlmClient, LlmError, type LlmResponse } from '../../../core/llm';

/**
 * `approve`, `reject` and `resolve` on a conversation an external agent ran: the agent stopped
 * when `run` ended, so after the user's decision is carried out the turn ends with an error that
 * says so, rather than with a reply of a model that was never part of it.
 */
export class StoppedAgentModel implements LlmClient {
  constructor(readonly model: string) {}

  complete(): Promise<LlmResponse> {
    const name = this.model.slice('acp:'.length);
    return Promise.reject(
      new LlmError(
        'bad_request',
        `The agent "${name}" stopped when logbook run ended; your decision is carried out and recorded. ` +
          `Give it a new task with logbook run --agent ${name} --store DIR --task TEXT.`,
      ),
    );
  }
}

/** The model name session.json records for a conversation an external agent runs. */
export function isAgentModel(model: string | null | undefined): model is string {
  return typeof model === 'string' && model.startsWith('acp:');
}
