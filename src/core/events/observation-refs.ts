// An observation may take its new content from its action instead of repeating it: a file_editor
// create writes exactly the action's file_text, so its observation says
// `new_content_from_action: "file_text"` and leaves `new_content` null. Readers that want the text
// (the review, exports for OpenHands) resolve it here from the action.
import type { ActionEvent, Event, ObservationEvent } from './union';

/** The observation field that names the action field holding its new content. */
export const NEW_CONTENT_FROM_ACTION = 'new_content_from_action';

type Payload = Readonly<Record<string, unknown>>;

/** The action field an observation takes its new content from, if it refers to one. */
export function newContentSource(observation: Payload): string | undefined {
  const field = observation[NEW_CONTENT_FROM_ACTION];
  return typeof field === 'string' ? field : undefined;
}

/**
 * The text an edit left in the file: the observation's new_content, or the action's field it
 * refers to. undefined when neither holds a string (an error, a view, an action not found).
 */
export function observationNewContent(
  observation: Payload,
  action: { readonly action?: unknown } | undefined,
): string | undefined {
  if (typeof observation.new_content === 'string') return observation.new_content;
  const field = newContentSource(observation);
  const payload = action?.action;
  const value =
    field !== undefined && typeof payload === 'object' && payload !== null
      ? (payload as Payload)[field]
      : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Gives every observation its content back, for a reader that does not know the reference (an
 * OpenHands export). Feed it the events in log order; it keeps the payloads of actions still
 * waiting for their observation, and nothing else.
 */
export class ObservationRefResolver {
  private readonly waiting = new Map<string, ActionEvent>();

  resolve(e: Event): Event {
    if (e.kind === 'ActionEvent') {
      this.waiting.set(e.id, e);
      return e;
    }
    if (e.kind === 'UserRejectObservation') this.waiting.delete(e.action_id);
    if (e.kind !== 'ObservationEvent') return e;
    const action = this.waiting.get(e.action_id);
    this.waiting.delete(e.action_id);
    const observation = e.observation as Payload;
    if (newContentSource(observation) === undefined) return e;
    const text = observationNewContent(observation, action);
    if (text === undefined) return e;
    const { [NEW_CONTENT_FROM_ACTION]: _ref, ...rest } = observation;
    return { ...e, observation: { ...rest, new_content: text } } as unknown as ObservationEvent;
  }
}
