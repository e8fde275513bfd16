// A tool that cannot finish now throws this: a delegated agent waits for a confirmation, or was
// paused with the conversation. The action gets no observation yet and the conversation waits (or
// is paused). Only tools marked `resumable` may: running one again later picks up where it stopped.
export class SuspendAction extends Error {
  override name = 'SuspendAction';

  constructor(
    message: string,
    /** Why: the user must answer something, or the user paused the run. */
    readonly reason: 'confirmation' | 'paused' = 'confirmation',
  ) {
    super(message);
  }
}
