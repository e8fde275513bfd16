// The hook runs a conversation's log records, for `logbook show`: each hook, what it decided and
// why, how long it took (the full record, output included, is in `--json`).
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { HOOK_RUN_KEY, type HookRunRecord } from '../../../core/hooks/hook-runner';
import { type EventStore, isCorruptRecord } from '../../../core/log';
import { hookRunLine } from './event-line';

export async function recordedHookRuns(store: EventStore<StoredConversationEvent>): Promise<HookRunRecord[]> {
  const runs: HookRunRecord[] = [];
  for await (const slot of store.iterate(0)) {
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
  return runs;
}

export function hookRunsLines(runs: readonly HookRunRecord[]): string[] {
  return runs.length ? ['hook runs:', ...runs.map((r) => `  ${hookRunLine(r)}`)] : [];
}
