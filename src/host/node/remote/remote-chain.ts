// The agent-server's parent_id is a tree link: a state update names the action it is about, an
// update may name an earlier event still, so the server's parents branch. Logbook's log reads
// state along the parent chain from its last event, where such a branch would leave events out
// (a held action among them). A remote conversation's log is therefore one line in arrival order,
// as the server's own state sees it: each event's parent is the event appended before it, and the
// server's parent is kept in the event's received_from mark.

/** Where a received event came from, and when: the mark every remote record carries. */
export interface ReceivedFrom {
  server: string;
  at: string;
  /** The event the server named as parent (absent when it named none). */
  parent_id?: string;
}

/** The record to append for `e` received after `head` (none: the log is empty). */
export function chainRemoteEvent(
  e: Record<string, unknown>,
  head: string | undefined,
  from: { server: string; at: string },
): Record<string, unknown> & { received_from: ReceivedFrom } {
  const { parent_id: serverParent, ...rest } = e;
  const receivedFrom: ReceivedFrom =
    typeof serverParent === 'string' ? { ...from, parent_id: serverParent } : { ...from };
  return { ...rest, ...(head !== undefined ? { parent_id: head } : {}), received_from: receivedFrom };
}
