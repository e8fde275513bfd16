// What a PreToolUse hook's `updatedInput` made of an action, from the log's hook_run records, so
// its card shows the call that ran and marks it (the original stays one line below). The same
// reading as the agent's: a failed, stopping or denying hook means nothing ran, the first rewrite
// counts, and its fields map back to Logbook's arguments as the agent maps them (tool-names.ts).
import { logbookArgs } from '../../../src/core/hooks/tool-names';
import type { EventJson } from '../../../src/protocol/messages';
import { obj, str, type Json } from '../lib/fields';

export interface HookRewrite {
  /** The hook's command line. */
  by: string;
  reason?: string;
  /** The action's fields as the hook rewrote them (what the card shows). */
  action: Json;
  /** The model's own values of the fields the hook changed. */
  original: Json;
}

interface PreToolRun {
  command: string;
  refused: boolean;
  reason?: string;
  updated?: Json;
}

const runs = new Map<string, PreToolRun[]>();

export function clearHookRewrites(): void {
  runs.clear();
}

/** Takes in a hook_run record; returns the action it concerns when it may change its card. */
export function noteHookRun(e: EventJson): string | undefined {
  if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== 'hook_run') return undefined;
  const v = obj(e.value);
  const actionId = str(v?.['action_id']);
  if (!v || !actionId || v['event'] !== 'PreToolUse') return undefined;
  const updated = obj(v['updated_input']);
  const list = runs.get(actionId) ?? [];
  list.push({
    command: str(v['command']) ?? '?',
    refused: v['status'] === 'failed' || !!v['stop'] || v['decision'] === 'deny',
    ...(str(v['reason']) ? { reason: str(v['reason']) } : {}),
    ...(updated ? { updated } : {}),
  });
  runs.set(actionId, list);
  return actionId;
}

/** The rewrite that ran in place of the model's call, if a hook made one. */
export function hookRewrite(action: EventJson): HookRewrite | undefined {
  const list = runs.get(action.id);
  if (!list || list.some((r) => r.refused)) return undefined;
  const run = list.find((r) => r.updated);
  const fields = obj(action.action);
  if (!run?.updated || !fields) return undefined;
  const tool = str(action.tool_name) ?? '';
  const args = argsOf(action, fields);
  const next = logbookArgs(tool, args, run.updated);
  const original: Json = {};
  const changed: Json = {};
  for (const [k, value] of Object.entries(next)) {
    if (JSON.stringify(value) === JSON.stringify(args[k])) continue;
    original[k] = args[k];
    changed[k] = value;
  }
  if (!Object.keys(changed).length) return undefined;
  return {
    by: run.command,
    ...(run.reason ? { reason: run.reason } : {}),
    action: { ...fields, ...changed },
    original,
  };
}

/** The model's arguments, with the recorded fields for what they do not name. */
function argsOf(action: EventJson, fields: Json): Json {
  try {
    const parsed = obj(JSON.parse(str(obj(action.tool_call)?.['arguments']) ?? ''));
    if (parsed) return { ...fields, ...parsed };
  } catch {
    // the recorded fields are what was validated
  }
  return fields;
}
