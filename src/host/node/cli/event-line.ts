// One human-readable line per event, e.g. `[agent] terminal: npm test (risk LOW)` or
// `[env] exit 0: 12 passing`. Lines are for people skimming a run; --json gives the full record.
import { isStartingState } from '../../../core/checkpoints/starting-state';
import { terminalText } from '../../../core/text/terminal-text';
import { DEFINITION_ACCEPTED_KEY, type HeldDefinition } from '../../../core/agents/definition-trust';
import { type ActionEvent, type Event, type ObservationEvent, textOf } from '../../../core/events';
import { LLM_RETRY_KEY, type LlmRetryValue } from '../../../core/agent/llm-retry';
import { COST_UNKNOWN_KEY, type CostUnknownValue } from '../../../core/agent/cost-cap';
import { TOOL_SOURCE_KEY, type ToolSourceNotice } from '../../../core/agent/ports';
import { TOOLS_OFFERED_KEY, type ToolsOfferedValue } from '../../../core/agent/offered-tools';
import {
  CHECKPOINT_AFTER_KEY,
  CHECKPOINT_KEY,
  CHECKPOINT_UNAVAILABLE_KEY,
  type CheckpointEventValue,
} from '../../../core/checkpoints/types';
import {
  AGENT_MODE_KEY,
  EXECUTION_STATUS_KEY,
  LLM_USAGE_KEY,
  RECONFIRM_KEY,
  ReconfirmValueSchema,
  SANDBOX_KEY,
  SandboxNoticeSchema,
  UNASKED_KEY,
  UnaskedSchema,
} from '../../../core/state';
import { forgottenCount } from '../../../core/context';
import { HOOK_RUN_KEY, type HookRunRecord } from '../../../core/hooks/hook-runner';
import { printableLine } from '../../../core/text/printable';
import { AGENT_START_KEY, AgentStartValueSchema } from '../../../core/agents/agent-events';
import { acpRecordLine } from '../acp/record-lines';
import { isTaskDecision, TASK_DECISION_KEY, taskDecisionText } from '../../../core/worktrees/task-decision';

const MAX_CHARS = 160;

/** A hook run: which hook, for what, what it decided and why, how long it took. */
export function hookRunLine(r: HookRunRecord): string {
  const target = r.tool_name ? ` ${r.tool_name}${r.action_id ? ` (action ${r.action_id})` : ''}` : '';
  const what =
    r.status === 'failed'
      ? 'failed'
      : r.status === 'blocked'
        ? 'blocked'
        : r.updated_input
          ? `${r.decision === 'none' ? 'rewrote' : `${r.decision}, rewrote`}`
          : r.decision === 'none'
            ? 'ok'
            : r.decision;
  const why = r.reason ? `: ${r.reason.replace(/\s+/g, ' ')}` : '';
  const context = r.additional_context ? ` [context for the model: ${clip(r.additional_context)}]` : '';
  const rewrite = r.updated_input ? ` [runs with: ${clip(JSON.stringify(r.updated_input))}]` : '';
  const stop = r.stop ? ` [stopped the agent: ${clip(r.stop)}]` : '';
  const said = r.system_message ? ` [message: ${clip(r.system_message)}]` : '';
  return `[hook] ${r.event}${target} \`${r.command}\` (${r.origin}) ${what}${why}${rewrite}${context}${stop}${said}, ${r.duration_ms} ms, input sha256:${r.input_sha256.slice(0, 12)}`;
}

/** The line for an event, with every control character of the model's or a tool's text escaped. */
export function eventLine(e: Event): string {
  return printableLine(describeEvent(e));
}

function describeEvent(e: Event): string {
  switch (e.kind) {
    case 'SystemPromptEvent':
      return `[system] system prompt, ${e.tools.length} tool${e.tools.length === 1 ? '' : 's'}`;
    case 'MessageEvent': {
      const who = e.source === 'environment' ? 'env' : e.source;
      return `[${who}] ${clip(terminalText(textOf(e.llm_message.content, ' ')))}`;
    }
    case 'ActionEvent':
      // A command the host ran for the user (a worktree's setup) says what it was.
      return e.source === 'user' && e.summary
        ? `[user] ${e.summary}: ${actionWhat(e)}`
        : `[agent] ${actionText(e)}`;
    case 'ObservationEvent':
      return `[env] ${observationLine(e)}`;
    case 'UserRejectObservation':
      return `[${e.rejection_source ?? 'user'}] rejected ${e.tool_name}: ${clip(e.rejection_reason)}`;
    case 'AgentErrorEvent':
      return `[agent] error in ${e.tool_name}: ${clip(e.error)}`;
    case 'ConversationStateUpdateEvent':
      return stateUpdateLine(e.key, e.value);
    case 'ConversationErrorEvent':
      return `[error] ${e.code}: ${clip(e.detail)}`;
    case 'PauseEvent':
      return '[user] paused';
    case 'Condensation':
      return `[context] condensed: ${forgottenCount(e)} event(s) forgotten`;
    case 'CondensationRequest':
      return '[context] condensation requested';
    case 'CondensationSummaryEvent':
      return `[context] summary: ${clip(e.summary)}`;
    case 'OpaqueEvent':
      return `[${e.source}] ${e.original_kind} (not known to this version)`;
  }
}

export function actionText(e: ActionEvent): string {
  const risk = READ_ONLY_TOOLS.has(e.tool_name) ? '' : ` (risk ${e.security_risk ?? 'UNKNOWN'})`;
  return `${e.tool_name}: ${actionWhat(e)}${risk}`;
}

/**
 * Tools that take no rating from the model (it would read UNKNOWN): those that never ask, and
 * `fetch`, which asks by its host alone (the held line says why).
 */
const READ_ONLY_TOOLS = new Set(['think', 'finish', 'task_tracker', 'glob', 'grep', 'fetch', 'web_search']);

/** The argument that says what a call of each known tool does. */
const MAIN_ARGUMENT: Record<string, string> = {
  terminal: 'command',
  think: 'thought',
  finish: 'message',
  task_tracker: 'command',
  glob: 'pattern',
  grep: 'pattern',
  fetch: 'url',
  web_search: 'query',
};

/** What an action does, in a few words: the command, the file, or the model's own summary. */
export function actionWhat(e: ActionEvent): string {
  const a = (e.action ?? {}) as Record<string, unknown>;
  const str = (k: string | undefined): string | undefined =>
    k !== undefined && typeof a[k] === 'string' ? (a[k] as string) : undefined;
  let what =
    e.tool_name === 'file_editor'
      ? [str('command'), str('path')].filter(Boolean).join(' ')
      : str(MAIN_ARGUMENT[e.tool_name]);
  // A fetch names the address it was checked at, as its confirmation does.
  if (e.tool_name === 'fetch' && what && str('address')) what = `${what} (at ${str('address')})`;
  what ||= e.summary ?? undefined;
  what ||= e.tool_call.arguments;
  return clip(what);
}

function observationLine(e: ObservationEvent): string {
  const o = e.observation as Record<string, unknown> & typeof e.observation;
  const first = firstLine(textOf(o.content));
  if (e.tool_name === 'terminal' && typeof o.exit_code === 'number') {
    const head = o.exit_code === -1 ? 'still running' : `exit ${o.exit_code}`;
    return `${head}: ${first}`;
  }
  return `${e.tool_name}${o.is_error ? ' error' : ''}: ${first}`;
}

function stateUpdateLine(key: string, value: unknown): string {
  const acp = acpRecordLine(key, value);
  if (acp !== undefined) return acp;
  if (key === EXECUTION_STATUS_KEY) return `[state] status ${String(value)}`;
  if (key === LLM_USAGE_KEY && value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    return `[llm] ${String(v.model)}: ${Number(v.prompt_tokens)} prompt + ${Number(v.completion_tokens)} completion tokens, ${Math.round(Number(v.latency_ms))} ms`;
  }
  if (key === LLM_RETRY_KEY && value && typeof value === 'object') {
    const v = value as Partial<LlmRetryValue>;
    const wait = Math.ceil(Number(v.delay_ms) / 1000);
    return `[llm] ${clip(String(v.error))} Retrying in ${wait} s (${Number(v.attempt)} of ${Number(v.attempts)}).`;
  }
  if (key === HOOK_RUN_KEY && value && typeof value === 'object') return hookRunLine(value as HookRunRecord);
  if (key === RECONFIRM_KEY) {
    const v = ReconfirmValueSchema.safeParse(value);
    if (v.success)
      // In full, not clipped: the path it would now reach is what the user must read.
      return `[policy] action ${v.data.action_id} waits for confirmation again, ${v.data.risk} risk now (approved at ${v.data.approved_risk}): ${v.data.reasons.join('; ').replace(/\s+/g, ' ')}`;
  }
  if (key === UNASKED_KEY) {
    const v = UnaskedSchema.safeParse(value);
    if (v.success) return `[policy] action ${v.data.action_id} runs without asking: ${v.data.reason}`;
  }
  if (key === TOOLS_OFFERED_KEY && value && typeof value === 'object') {
    const names = ((value as Partial<ToolsOfferedValue>).tools ?? []).map((t) => t.function?.name ?? '?');
    return names.length
      ? `[tools] offered from outside from now on: ${names.join(', ')}`
      : '[tools] no tools from outside offered from now on';
  }
  if (key === AGENT_MODE_KEY)
    return value === 'plan'
      ? '[mode] plan: the agent only reads and answers with a plan to approve'
      : `[mode] ${String(value)}`;
  if (key === AGENT_START_KEY) {
    const v = AgentStartValueSchema.safeParse(value);
    // In full: what the agent did not get is what the user must know of its start.
    if (v.success && v.data.narrowed?.length)
      return `[agent] ${v.data.agent_name} (${v.data.branch}) ${v.data.narrowed.join('; ')}`;
  }
  if (key === COST_UNKNOWN_KEY && value && typeof value === 'object') {
    // In full: it says what limits the run now, or that nothing does.
    return `[budget] ${String((value as Partial<CostUnknownValue>).message)}`;
  }
  if (key === CHECKPOINT_KEY && value && typeof value === 'object') {
    const v = value as Partial<CheckpointEventValue>;
    const skipped = v.skipped?.length ? `, ${v.skipped.length} over the size cap skipped` : '';
    const what =
      v.reason === 'restore'
        ? 'before the restore'
        : isStartingState(v)
          ? `the starting state, ${Number(v.files)} file(s)`
          : `${Number(v.files_changed)} file(s) changed`;
    return `[checkpoint] ${String(v.checkpoint).slice(0, 12)}: ${what}${skipped}`;
  }
  if (key === CHECKPOINT_AFTER_KEY && value && typeof value === 'object') {
    const v = value as Partial<CheckpointEventValue>;
    return `[checkpoint] ${String(v.checkpoint).slice(0, 12)}: after the action, ${Number(v.files_changed)} file(s) changed by it`;
  }
  if (key === CHECKPOINT_UNAVAILABLE_KEY && value && typeof value === 'object') {
    return `[checkpoint] ${String((value as { message?: unknown }).message)}`;
  }
  if (key === SANDBOX_KEY) {
    const notice = SandboxNoticeSchema.safeParse(value);
    if (notice.success)
      // In full: the fix is what the user must act on.
      return `[sandbox] ${notice.data.message}${notice.data.fix ? ` Fix: ${notice.data.fix}` : ''}`;
  }
  if (key === TOOL_SOURCE_KEY && value && typeof value === 'object') {
    // In full: which server failed and why is what the user must act on.
    return `[tools] ${String((value as Partial<ToolSourceNotice>).message)}`;
  }
  // In full: which file was taken back, or that the task is gone, is the record's point.
  if (key === TASK_DECISION_KEY && isTaskDecision(value)) return `[task] ${taskDecisionText(value)}`;
  if (key === DEFINITION_ACCEPTED_KEY && value && typeof value === 'object') {
    const v = value as Partial<HeldDefinition> & { accepted_at?: unknown };
    const when = typeof v.accepted_at === 'string' ? ` on ${v.accepted_at}` : '';
    return `[agent] you accepted the definition of ${String(v.name)} (${String(v.origin)}, ${String(v.fingerprint)})${when}`;
  }
  return `[state] ${key}`;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return clip(line.trim());
}

/** One line, at most MAX_CHARS characters (code points, so nothing is cut in half). */
function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= MAX_CHARS ? flat : chars.slice(0, MAX_CHARS - 1).join('') + '…';
}
