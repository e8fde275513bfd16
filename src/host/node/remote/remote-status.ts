// What the agent-server's events say of its conversation: its execution status (from its state
// updates) and the actions that wait for an answer.
export type RemoteStatus =
  'idle' | 'running' | 'paused' | 'waiting_for_confirmation' | 'finished' | 'error' | 'stuck' | 'deleting';

const STATUSES = new Set<string>([
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
  'deleting',
]);

/** The status an event sets, if it is a state update that sets one. */
export function remoteStatus(e: Record<string, unknown>): RemoteStatus | undefined {
  if (e.kind !== 'ConversationStateUpdateEvent') return undefined;
  let value: unknown;
  if (e.key === 'execution_status') value = e.value;
  else if (e.key === 'full_state')
    value = (e.value as { execution_status?: unknown } | null)?.execution_status;
  return typeof value === 'string' && STATUSES.has(value) ? (value as RemoteStatus) : undefined;
}

/** The last status the events set, if any. */
export function lastStatus(events: readonly Record<string, unknown>[]): RemoteStatus | undefined {
  let last: RemoteStatus | undefined;
  for (const e of events) last = remoteStatus(e) ?? last;
  return last;
}

/** The ActionEvents no observation, rejection or error has answered yet, oldest first. */
export function heldActions(events: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const answered = new Set<unknown>();
  for (const e of events) {
    if (e.action_id !== undefined) answered.add(e.action_id);
    if (e.kind === 'AgentErrorEvent' && e.tool_call_id !== undefined)
      answered.add(`call:${String(e.tool_call_id)}`);
  }
  return events.filter(
    (e) => e.kind === 'ActionEvent' && !answered.has(e.id) && !answered.has(`call:${String(e.tool_call_id)}`),
  );
}
