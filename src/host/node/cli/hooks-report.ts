// The hook runs a conversation's log records, for `logbook show`: each hook, what it decided and
// why, how long it took (the full record, output included, is in `--json`).
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { HOOK_RUN_KEY, type HookRunRecord } from '../../../core/hooks/hook-runner';
import { type EventStore, isCorruptRecord } from '../../../core/log';
import { hookRunLine } from './event-line';

/**
 * The hook runs recorded from index `from` on: `show` reads those after the snapshot it starts
 * from (a long log is not read whole for them), so a run before it is in the full log only.
 */
export async function recordedHookRuns(
  store: EventStore<StoredConversationEvent>,
  from: number,
): Promise<HookRunRecord[]> {
  const runs: HookRunRecord[] = [];
  for (let i = from; i < store.length; i += CHUNK) {
    for (const slot of await store.slice(i, Math.min(store.length, i + CHUNK))) {
      if (isCorruptRecord(slot)) continue;
      const e = slot as { kind?: string; key?: string; value?: unknown };
      if (
        e.kind === 'ConversationStateUpdateEvent' &&
        e.key === HOOK_RUN_KEY &&
        e.value &&
        typeof e.value === 'object'
      )
        runs.push(e.value as HookRunRecord);
    }
  }
  return runs;
}

const CHUNK = 200;

export function hookRunsLines(runs: readonly HookRunRecord[], from: number): string[] {
  if (!runs.length) return [];
  return [
    from > 0 ? `hook runs (since event ${from}):` : 'hook runs:',
    ...runs.map((r) => `  ${hookRunLine(r)}`),
  ];
}
