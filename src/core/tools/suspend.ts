// A tool that cannot finish now without the user (a delegated agent waits for a confirmation)
// throws this: the action gets no observation yet and the conversation waits. Only tools marked
// `resumable` may: running one again later picks up where it stopped.
export class SuspendAction extends Error {
  override name = 'SuspendAction';
}
