/**
 * The pure reducer: `reduce(state, event)` returns the next state. No I/O, no clock, no
 * randomness; the input state is never mutated (untouched parts are shared with the result), so
 * the same events always give deep-equal states.
 *
 * `reduce` is linear: it ignores `parent_id`. Which events form the current branch of a forked log
 * is decided by branch.ts; `deriveState` and the holders there feed it that branch.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import {
  type ActionEvent,
  type AgentErrorEvent,
  type Event,
  FINISH_TOOL_NAME,
  isOpaque,
  type MessageEvent,
  SecurityRiskSchema,
  type ObservationEvent,
  textOf,
  type UserRejectObservation,
} from '../events';
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY, CHECKPOINT_UNAVAILABLE_KEY } from '../checkpoints/types';
import {
  type ConversationState,
  type JsonValue,
  MAX_WARNINGS,
  type PendingAction,
  RECENT_RESPONSE_IDS,
  type Task,
} from './conversation-state';
import { applyLlmUsage, applyStats, LLM_USAGE_KEY, STATS_KEY } from './metrics';
import { SANDBOX_KEY, SandboxNoticeSchema } from './sandbox-notice';
import { SHELL_KEY, ShellNoticeSchema } from './shell-notice';
import {
  type ImplicitTrigger,
  implicitTransition,
  isValidTransition,
  parseExecutionStatus,
} from './transitions';

/** The tool a delegated agent ends its run with early (see src/core/agents/escalate-tool.ts). */
export const ESCALATE_TOOL_NAME = 'escalate';

export const EXECUTION_STATUS_KEY = 'execution_status';
export const CONFIRMATION_POLICY_KEY = 'confirmation_policy';
export const ACTION_STARTED_KEY = 'action_started';
export const RECOVERY_KEY = 'recovery';
/** OpenHands sends the whole state under this key; its status, stats and policy are applied. */
export const FULL_STATE_KEY = 'full_state';
/** The user approved these pending actions (`{action_ids: [...]}`); the runtime may run them. */
export const APPROVED_ACTIONS_KEY = 'approved_actions';
/**
 * An approved or auto-approved action was rated again right before it ran, and now needs
 * confirmation at a higher risk than it was approved at (an earlier action of its batch made a
 * symlink, say): its approval is withdrawn and it waits for the user again. Value:
 * `{action_id, risk, approved_risk, reasons}` (see ReconfirmValueSchema).
 */
export const RECONFIRM_KEY = 'reconfirm';
/** A cost cap could not price the model's replies (value: `{ model, ... }`, see agent/cost-cap.ts). */
export const COST_UNKNOWN_KEY = 'cost_unknown';
/**
 * The agent's mode from here on (value `"plan"` or `"act"`): in plan mode it may only read and
 * answers with a plan (agent/plan-mode.ts). OpenHands keeps unknown keys as they are.
 */
export const AGENT_MODE_KEY = 'agent_mode';
/** A title the user gave the conversation (it replaces the one taken from the first message). */
export const TITLE_KEY = 'title';
/**
 * A change of the agent's the user rejected in the editor's review (a hunk, or the whole file):
 * `{ path, action_ids, whole_file }`. Nothing in the state depends on it; the chat marks the
 * actions' cards and says so in the feed.
 */
export const REVIEW_REJECTED_KEY = 'review_rejected';
/**
 * The tools from outside (MCP servers, the editor's) offered to the model from then on, recorded
 * when the set changes (agent/offered-tools.ts): `{tools: [definitions], sha256}`.
 */
export const TOOLS_OFFERED_KEY = 'tools_offered';
export const ToolRatingsSchema = lazySchema(() =>
  z.record(
    z.string(),
    z.object({ risk: SecurityRiskSchema, reasons: z.array(z.string()), read_only: z.boolean() }),
  ),
);

export const TASK_TRACKER_TOOL_NAME = 'task_tracker';
const TITLE_MAX = 80;

/**
 * Value of the `action_started` update the runtime appends (and fsyncs) right before a tool runs:
 * an action started but never answered may have had its side effect before a crash.
 */
export const ActionStartedValueSchema = lazySchema(() =>
  z.looseObject({
    action_id: z.string().min(1),
    tool_call_id: z.string().optional(),
  }),
);
export type ActionStartedValue = z.output<typeof ActionStartedValueSchema>;

const TaskSchema = lazySchema(() =>
  z.looseObject({
    title: z.string(),
    notes: z.string().nullish(),
    status: z.string().nullish(),
  }),
);
const TaskTrackerPlanSchema = lazySchema(() =>
  z.looseObject({
    command: z.literal('plan'),
    task_list: z.array(TaskSchema),
  }),
);

export function reduce(state: ConversationState, event: Event): ConversationState {
  const next = byKind(countAgentEvent(state, event), event);
  // Copying the state is most of a small event's cost: the bookkeeping goes on the copy the
  // handlers just made (never seen by anyone yet), and only an event they left alone copies it.
  return touch(next === state ? { ...state } : next, event);
}

function byKind(s: ConversationState, event: Event): ConversationState {
  if (isOpaque(event)) return s;
  switch (event.kind) {
    case 'MessageEvent':
      return onMessage(s, event);
    case 'ActionEvent':
      return onAction(s, event);
    case 'ObservationEvent':
      return onAnswer(withShellCwd(s, event.observation), event);
    case 'UserRejectObservation':
    case 'AgentErrorEvent':
      return onAnswer(s, event);
    case 'ConversationStateUpdateEvent':
      return onUpdate(s, event.key, event.value, event.id);
    case 'PauseEvent':
      return implicit(s, 'pause');
    case 'ConversationErrorEvent':
      return {
        ...implicit(s, 'conversation_error'),
        lastError: { eventId: event.id, kind: event.kind, message: `${event.code}: ${event.detail}` },
      };
    case 'Condensation':
      return { ...s, condensations: s.condensations + 1 };
    default:
      return s;
  }
}

/** The names core/agents gives a delegation and an agent's start and end (kept equal by a test). */
export const AGENT_EVENT_NAMES = {
  delegateTool: 'delegate',
  start: 'agent_start',
  end: 'agent_end',
} as const;

function countAgentEvent(s: ConversationState, e: Event): ConversationState {
  const about =
    (e.kind === 'ActionEvent' && e.tool_name === AGENT_EVENT_NAMES.delegateTool) ||
    (e.kind === 'ConversationStateUpdateEvent' &&
      (e.key === AGENT_EVENT_NAMES.start || e.key === AGENT_EVENT_NAMES.end));
  return about && s.agentEvents !== null ? { ...s, agentEvents: s.agentEvents + 1 } : s;
}

/**
 * Bookkeeping every event gets, whatever its kind (opaque and corrupt slots included), written
 * into `fresh`, a state object made for this event alone.
 */
function touch(fresh: ConversationState, e: Event): ConversationState {
  const ts = typeof e.timestamp === 'string' ? e.timestamp : null;
  fresh.eventCount += 1;
  fresh.head = e.id;
  fresh.createdAt ??= ts;
  if (ts !== null) fresh.updatedAt = ts;
  return fresh;
}

function onMessage(state: ConversationState, e: MessageEvent): ConversationState {
  let s = addSkills(state, e.activated_skills ?? []);
  if (e.source === 'user') {
    s = {
      ...implicit(s, 'user_message'),
      lastUserMessageId: e.id,
      iterationsThisRun: 0,
      // The first text part is what the user typed; later ones are attachments (file text...).
      title:
        s.title ?? shortTitle(textOf(e.llm_message.content.filter((c) => c.type === 'text').slice(0, 1))),
    };
  } else if (e.source === 'agent') {
    if (e.llm_response_id) s = countResponse(s, e.llm_response_id);
    if ((e.llm_message.tool_calls ?? []).length === 0) s = implicit(s, 'agent_final_message');
  }
  return s;
}

function onAction(state: ConversationState, e: ActionEvent): ConversationState {
  let s = countResponse(state, e.llm_response_id);
  // A call with no action (refused or invalid) never runs: its error follows, nothing waits for it.
  if (!e.action) return s;
  if (s.pendingActions.some((p) => p.actionId === e.id)) return warn(s, `action ${e.id} appears twice`);
  let plannedTasks: Task[] | null = null;
  if (e.tool_name === TASK_TRACKER_TOOL_NAME && e.action) {
    const plan = TaskTrackerPlanSchema.safeParse(e.action);
    if (plan.success) {
      plannedTasks = plan.data.task_list.map((t) => ({
        title: t.title,
        notes: t.notes ?? '',
        status: t.status ?? 'todo',
      }));
    } else if ((e.action as { command?: unknown }).command === 'plan') {
      s = warn(s, `task_tracker plan ${e.id} has an invalid task_list`);
    }
  }
  const pending: PendingAction = {
    actionId: e.id,
    toolCallId: e.tool_call_id,
    toolName: e.tool_name,
    llmResponseId: e.llm_response_id,
    plannedTasks,
  };
  const pendingActions = [...s.pendingActions, pending];
  return { ...s, pendingActions, pendingBatchIds: batchIds(pendingActions) };
}

type Answer = ObservationEvent | UserRejectObservation | AgentErrorEvent;

/** A terminal command's observation says where the shell ended up. */
function withShellCwd(s: ConversationState, observation: unknown): ConversationState {
  const o = observation as { kind?: unknown; metadata?: { working_dir?: unknown } } | null;
  const dir = o?.kind === 'TerminalObservation' ? o.metadata?.working_dir : undefined;
  return typeof dir === 'string' && dir !== '' && dir !== s.shellCwd ? { ...s, shellCwd: dir } : s;
}

function onAnswer(state: ConversationState, e: Answer): ConversationState {
  let s = state;
  if (e.kind === 'AgentErrorEvent') {
    // A call that failed validation has no ActionEvent, but its response is still an agent step.
    if (e.llm_response_id) s = countResponse(s, e.llm_response_id);
    s = { ...s, lastError: { eventId: e.id, kind: e.kind, message: e.error } };
  }
  const at = findAnswered(s.pendingActions, e);
  if (at < 0) {
    // Only an AgentErrorEvent may answer nothing (a failed call); other orphans are anomalies.
    return e.kind === 'AgentErrorEvent' ? s : warn(s, `${e.kind} ${e.id} answers no pending action`);
  }
  const answered = s.pendingActions[at]!;
  const pendingActions = s.pendingActions.filter((_, i) => i !== at);
  s = {
    ...s,
    pendingActions,
    pendingBatchIds: batchIds(pendingActions),
    inDoubt: without(s.inDoubt, answered.actionId),
    approved: without(s.approved, answered.actionId),
    approvedRisks: withoutKey(s.approvedRisks, answered.actionId),
  };
  if (e.kind === 'ObservationEvent' && e.observation.is_error !== true) {
    if (answered.plannedTasks) s = { ...s, tasks: answered.plannedTasks };
    // `escalate` ends a delegated agent's run as `finish` does, handing its result to the parent.
    if (e.tool_name === FINISH_TOOL_NAME || e.tool_name === ESCALATE_TOOL_NAME)
      s = implicit(s, 'finish_observation');
  }
  return s;
}

/** By `action_id` first; else the latest pending call with the same `tool_call_id` (ids may repeat). */
function findAnswered(pending: readonly PendingAction[], e: Answer): number {
  if (e.kind !== 'AgentErrorEvent') {
    const byId = pending.findIndex((p) => p.actionId === e.action_id);
    if (byId >= 0) return byId;
  }
  return pending.findLastIndex((p) => p.toolCallId === e.tool_call_id);
}

function onUpdate(s: ConversationState, key: string, value: unknown, eventId: string): ConversationState {
  switch (key) {
    case EXECUTION_STATUS_KEY: {
      const to = parseExecutionStatus(value);
      if (!to) return warn(s, `update ${eventId}: unknown execution_status ${JSON.stringify(value)}`);
      const next = { ...s, status: to };
      return isValidTransition(s.status, to)
        ? next
        : warn(next, `update ${eventId}: transition ${s.status} -> ${to} is not allowed (applied)`);
    }
    case LLM_USAGE_KEY: {
      const metrics = applyLlmUsage(s.metrics, value);
      return metrics ? { ...s, metrics } : warn(s, `update ${eventId}: invalid llm_usage value`);
    }
    case STATS_KEY: {
      const metrics = applyStats(s.metrics, value);
      return metrics ? { ...s, metrics } : warn(s, `update ${eventId}: invalid stats value`);
    }
    case CONFIRMATION_POLICY_KEY:
      return { ...s, confirmationPolicy: jsonClone(value) };
    case ACTION_STARTED_KEY:
      return onActionStarted(s, value, eventId);
    case APPROVED_ACTIONS_KEY:
      return onApproved(s, value, eventId);
    case RECONFIRM_KEY:
      return onReconfirm(s, value, eventId);
    case COST_UNKNOWN_KEY: {
      const model = (value as { model?: unknown } | null)?.model;
      if (typeof model !== 'string')
        return warn(s, `update ${eventId}: a cost_unknown update names no model`);
      return s.costUnknownModels.includes(model)
        ? s
        : { ...s, costUnknownModels: [...s.costUnknownModels, model] };
    }
    case CHECKPOINT_UNAVAILABLE_KEY:
      return s.checkpointsUnavailable ? s : { ...s, checkpointsUnavailable: true };
    case CHECKPOINT_KEY:
    case CHECKPOINT_AFTER_KEY:
      // A checkpoint recorded after the notice: the workspace can be checkpointed again.
      return s.checkpointsUnavailable ? { ...s, checkpointsUnavailable: false } : s;
    case TOOLS_OFFERED_KEY: {
      const v = value as { sha256?: unknown; ratings?: unknown } | null;
      const sha = v?.sha256;
      if (sha !== null && typeof sha !== 'string')
        return warn(s, `update ${eventId}: a tools_offered update without its sha256`);
      const ratings = ToolRatingsSchema.safeParse(v?.ratings ?? {});
      return {
        ...s,
        toolsOfferedSha: sha,
        toolRatings: ratings.success ? ratings.data : {},
      };
    }
    case SANDBOX_KEY: {
      const notice = SandboxNoticeSchema.safeParse(value);
      return notice.success
        ? { ...s, sandbox: notice.data }
        : warn(s, `update ${eventId}: a sandbox update needs a state and a message`);
    }
    case SHELL_KEY: {
      const notice = ShellNoticeSchema.safeParse(value);
      return notice.success
        ? { ...s, shell: notice.data }
        : warn(s, `update ${eventId}: a shell update needs its startup ("user" or "none")`);
    }
    case AGENT_MODE_KEY:
      return value === 'plan' || value === 'act'
        ? { ...s, mode: value }
        : warn(s, `update ${eventId}: agent_mode must be "plan" or "act"`);
    case TITLE_KEY: {
      const title = typeof value === 'string' ? shortTitle(value) : null;
      return title ? { ...s, title } : warn(s, `update ${eventId}: a title must be non-empty text`);
    }
    case FULL_STATE_KEY: {
      if (value === null || typeof value !== 'object') return s;
      const full = value as Record<string, unknown>;
      let out = s;
      for (const k of [EXECUTION_STATUS_KEY, STATS_KEY, CONFIRMATION_POLICY_KEY]) {
        if (Object.hasOwn(full, k)) out = onUpdate(out, k, full[k], eventId);
      }
      return out;
    }
    default:
      return s; // `recovery` and unknown keys are informational
  }
}

function onActionStarted(s: ConversationState, value: unknown, eventId: string): ConversationState {
  const parsed = ActionStartedValueSchema.safeParse(value);
  if (!parsed.success) return warn(s, `update ${eventId}: invalid action_started value`);
  const id = parsed.data.action_id;
  if (!s.pendingActions.some((p) => p.actionId === id)) {
    return warn(s, `update ${eventId}: action ${id} started but is not pending`);
  }
  return s.inDoubt.includes(id) ? s : { ...s, inDoubt: [...s.inDoubt, id] };
}

const ApprovedValueSchema = lazySchema(() =>
  z.looseObject({
    action_ids: z.array(z.string()),
    /** The risk each action had when approved; an approval recorded without one counts as LOW. */
    risks: z.record(z.string(), SecurityRiskSchema).optional(),
  }),
);

/** Approvals count for pending actions only; an answered action cannot be approved again. */
function onApproved(s: ConversationState, value: unknown, eventId: string): ConversationState {
  const parsed = ApprovedValueSchema.safeParse(value);
  if (!parsed.success) return warn(s, `update ${eventId}: invalid approved_actions value`);
  const fresh = parsed.data.action_ids.filter(
    (id, i, ids) =>
      ids.indexOf(id) === i && !s.approved.includes(id) && s.pendingActions.some((p) => p.actionId === id),
  );
  if (!fresh.length) return s;
  const risks = parsed.data.risks ?? {};
  const approvedRisks = Object.fromEntries([
    ...Object.entries(s.approvedRisks),
    ...fresh.map((id) => [id, Object.hasOwn(risks, id) ? risks[id]! : 'LOW'] as const),
  ]);
  return { ...s, approved: [...s.approved, ...fresh], approvedRisks };
}

export const ReconfirmValueSchema = lazySchema(() =>
  z.looseObject({
    action_id: z.string().min(1),
    /** The rating right before it was to run. */
    risk: SecurityRiskSchema,
    /** The rating it was approved at (LOW when it was approved without asking). */
    approved_risk: SecurityRiskSchema,
    reasons: z.array(z.string()),
  }),
);
export type ReconfirmValue = z.output<typeof ReconfirmValueSchema>;

/** The action's approval no longer stands: it waits for the user's decision again. */
function onReconfirm(s: ConversationState, value: unknown, eventId: string): ConversationState {
  const parsed = ReconfirmValueSchema.safeParse(value);
  if (!parsed.success) return warn(s, `update ${eventId}: invalid reconfirm value`);
  const id = parsed.data.action_id;
  if (!s.pendingActions.some((p) => p.actionId === id)) {
    return warn(s, `update ${eventId}: action ${id} asks again but is not pending`);
  }
  return { ...s, approved: without(s.approved, id), approvedRisks: withoutKey(s.approvedRisks, id) };
}

function without(ids: string[], id: string): string[] {
  return ids.includes(id) ? ids.filter((x) => x !== id) : ids;
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!Object.hasOwn(record, key)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}

function implicit(s: ConversationState, trigger: ImplicitTrigger): ConversationState {
  const status = implicitTransition(s.status, trigger);
  return status === s.status ? s : { ...s, status };
}

/** Counts an LLM response once, however many events (parallel calls) carry its id. */
function countResponse(s: ConversationState, responseId: string): ConversationState {
  if (s.recentResponseIds.includes(responseId)) return s;
  const recent = [...s.recentResponseIds, responseId];
  return {
    ...s,
    iteration: s.iteration + 1,
    iterationsThisRun: s.iterationsThisRun + 1,
    recentResponseIds: recent.length > RECENT_RESPONSE_IDS ? recent.slice(1) : recent,
  };
}

function addSkills(s: ConversationState, skills: readonly string[]): ConversationState {
  const fresh = skills.filter((k, i) => !s.activatedSkills.includes(k) && skills.indexOf(k) === i);
  return fresh.length === 0 ? s : { ...s, activatedSkills: [...s.activatedSkills, ...fresh] };
}

function batchIds(pending: readonly PendingAction[]): string[] {
  const ids: string[] = [];
  for (const p of pending) if (!ids.includes(p.llmResponseId)) ids.push(p.llmResponseId);
  return ids;
}

function warn(s: ConversationState, message: string): ConversationState {
  const warnings = [...s.warnings, message];
  return { ...s, warnings: warnings.length > MAX_WARNINGS ? warnings.slice(1) : warnings };
}

/** First line-ish of the text, whitespace collapsed, cut at a word near TITLE_MAX code points. */
export function shortTitle(text: string): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  const chars = Array.from(flat); // code points, so an emoji is never cut in half
  if (chars.length <= TITLE_MAX) return flat;
  const cut = chars.slice(0, TITLE_MAX - 1).join('');
  const space = cut.lastIndexOf(' ');
  return (space > TITLE_MAX / 2 ? cut.slice(0, space) : cut) + '…';
}

/** Detached JSON copy: no shared references into events, no undefined, -0 becomes 0. */
function jsonClone(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
