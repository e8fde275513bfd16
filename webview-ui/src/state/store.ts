// The view's state: the shown conversation's header, the events received so far (as rows), and what
// the user has expanded. Everything here is derived from what the host sent; nothing the log lacks.
// Rows live in a plain array mutated in place (10k events must not be copied per append); the
// `version` signal tells components it changed, and a row's `rev` tells its memoized view to redraw.
import { signal } from '@preact/signals';
import { pointWords } from '../lib/point-words';
import type { AgentMode, ConversationHeader, EventJson, ViewEvent } from '../../../src/protocol/messages';
import { actionIdOf, source, str, toolCallIdOf } from '../lib/fields';
import { classify, type RowView } from './classify';
import { clearHookRewrites, noteHookRun } from './hook-rewrites';

export interface Row {
  key: string;
  seq: number;
  event: EventJson;
  view: Exclude<RowView, 'hidden'>;
  /** For action rows: the observation, rejection or tool error that answered it. */
  result?: EventJson;
  /**
   * For notice rows: earlier events shown on this same line (consecutive status changes; a fork's
   * title after its "continued from" record). `event` is the newest, so forking here keeps them all.
   */
  folded?: EventJson[];
  rev: number;
}

export const header = signal<ConversationHeader | null>(null);
/** The mode a new conversation starts in (logbook.agent.defaultMode), as the host last said. */
export const defaultMode = signal<AgentMode>('act');
/** The Plan/Act choice made before a conversation exists (null: the default); sent with its first message. */
export const newConversationMode = signal<AgentMode | null>(null);
/** The demo model answers: the tasks it has a script for (empty: a real model is connected). */
export const demoTasks = signal<readonly string[]>(firstDemoTasks());

/** The demo's tasks the document came with, so the first paint is already the demo's empty state. */
function firstDemoTasks(): readonly string[] {
  const page = (globalThis as { document?: { body?: { dataset?: Record<string, string | undefined> } } })
    .document;
  try {
    const v: unknown = JSON.parse(page?.body?.dataset?.['demoTasks'] ?? '[]');
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string').slice(0, 8) : [];
  } catch {
    return [];
  }
}
/** Id of the newest task_tracker plan: only that one can be approved. */
export const latestPlanId = signal<string | null>(null);
/**
 * Id of the newest status change held (shown or not: "running" has no line): only its line says
 * "Status: …", earlier ones are history.
 */
export const latestStatusEvent = signal<string | null>(null);
/** The first bad event of a conversation found broken: the feed scrolls to its row and marks it. */
export const brokenEvent = signal<NonNullable<ConversationHeader['brokenAt']> | null>(null);
export const version = signal(0);
export const rows: Row[] = [];
/** Every event held, in order: what the persisted cache is made of. */
export const held: ViewEvent[] = [];

let conversationId: string | null = null;
/** Seq of the first event held: a long conversation starts with only its newest events. */
let firstSeq = 0;
/** After earlier events were added above: the key of the row that was first, to keep it in view. */
export const keepInView = signal<string | null>(null);
/** llm_response_id of the newest ActionEvent: only that batch can still be running. */
let latestBatch: string | undefined;
let lastSeq = -1;
const actionRows = new Map<string, Row>();
const actionByCall = new Map<string, string>();
/**
 * The action or message each held id names a point with (what a restore went back to, in the user's
 * words). Its words are found when asked for: few points ever are, and 10k arriving events need not
 * each be read for them.
 */
const pointEvents = new Map<string, EventJson>();
/** Ids of the restores held: a restore back to one of them is its undo. */
const restoreIds = new Set<string>();
/** Actions whose change the user rejected in the editor's review (a `review_rejected` record). */
const rejectedInReview = new Set<string>();
/** What the user chose for each toggle they used: open or closed, whatever its default becomes. */
const openChoices = new Map<string, boolean>();
const listeners = new Set<(agentSpoke: boolean) => void>();

export const shownConversation = (): string | null => conversationId;
export const lastSeqHeld = (): number => lastSeq;
export const firstSeqHeld = (): number => firstSeq;

/** Called after each batch of appended events (the stream clears itself, the cache persists). */
export function onAppended(listener: (agentSpoke: boolean) => void): void {
  listeners.add(listener);
}

/** Shows a conversation (or none). A different id than the one held drops every row. */
export function showConversation(next: ConversationHeader | null): void {
  const id = next?.id ?? null;
  if (id !== conversationId) {
    dropRows();
    askedRisks.clear();
    unaskedReasons.clear();
    held.length = 0;
    openChoices.clear();
    firstSeq = 0;
    lastSeq = -1;
    conversationId = id;
    version.value++;
  }
  if (next) rememberAskedRisks(next);
  header.value = next;
  setBroken(next?.brokenAt);
}

function setBroken(next: ConversationHeader['brokenAt']): void {
  const now = brokenEvent.value;
  if (!next) {
    if (now) brokenEvent.value = null;
  } else if (!now || now.seq !== next.seq || now.id !== next.id || now.reason !== next.reason) {
    brokenEvent.value = next;
  }
}

/**
 * The row that shows the broken event: the one it is (or whose result or folded line it is), else
 * the last row before it (the event itself has no row of its own). -1 while it is not held.
 */
export function brokenRow(bad: { seq: number; id: string | null }): { index: number; exact: boolean } {
  if (bad.seq < firstSeq) return { index: -1, exact: false };
  let before = -1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.seq === bad.seq || (bad.id !== null && rowHolds(r, bad.id))) return { index: i, exact: true };
    if (r.seq < bad.seq) before = i;
  }
  return { index: before, exact: false };
}

/** The index of the row that holds event `id` (-1: not held). */
export function rowOfEvent(id: string): number {
  return rows.findIndex((r) => rowHolds(r, id));
}

function rowHolds(r: Row, id: string): boolean {
  return r.event.id === id || r.result?.id === id || (r.folded?.some((e) => e.id === id) ?? false);
}

function dropRows(): void {
  rows.length = 0;
  actionRows.clear();
  actionByCall.clear();
  pointEvents.clear();
  restoreIds.clear();
  rejectedInReview.clear();
  clearHookRewrites();
  latestBatch = undefined;
  latestPlanId.value = null;
  latestStatusEvent.value = null;
}

/** The host will send this conversation's events from `first` on: whatever is held is dropped. */
export function startWindow(forConversation: string, first: number): void {
  if (forConversation !== conversationId) return;
  dropRows();
  held.length = 0;
  firstSeq = first;
  lastSeq = first - 1;
  version.value++;
}

/**
 * Adds the events just before the first one held ("Show earlier events"). Only a contiguous run
 * ending right before it is taken; the rows are rebuilt in order, so results still pair with their
 * actions and status lines still fold. Returns how many were added.
 */
export function prependEvents(forConversation: string, events: readonly ViewEvent[]): number {
  if (forConversation !== conversationId || events.length === 0) return 0;
  const first = events[0]!.seq;
  const contiguous = events.every((e, i) => e.seq === first + i);
  if (!contiguous || first + events.length !== firstSeq) return 0;
  const previousFirst = rows[0]?.key ?? null;
  const all = [...events, ...held];
  dropRows();
  held.length = 0;
  for (const item of all) {
    held.push(item);
    ingest(item);
  }
  firstSeq = first;
  keepInView.value = previousFirst;
  version.value++;
  return events.length;
}

export function updateHeader(next: ConversationHeader): void {
  if (next.id !== conversationId) return;
  rememberAskedRisks(next);
  header.value = next;
  setBroken(next.brokenAt);
}

/** Appends events newer than the last one held; returns how many were new. */
export function appendEvents(forConversation: string, events: readonly ViewEvent[]): number {
  if (forConversation !== conversationId) return 0;
  let added = 0;
  let agentSpoke = false;
  for (const item of events) {
    if (item.seq <= lastSeq) continue;
    lastSeq = item.seq;
    held.push(item);
    ingest(item);
    added++;
    if (source(item.event) === 'agent' || item.event.kind === 'AgentErrorEvent') agentSpoke = true;
  }
  if (added) {
    bumpSoon();
    for (const l of listeners) l(agentSpoke);
  }
  return added;
}

/**
 * One re-render per frame however many messages arrive (a resync comes in 1,000-event chunks):
 * rows are appended at once, only the signal that repaints them waits for the frame.
 */
let bumpScheduled = false;
function bumpSoon(): void {
  if (bumpScheduled) return;
  bumpScheduled = true;
  const run = () => {
    if (!bumpScheduled) return;
    bumpScheduled = false;
    version.value++;
  };
  requestAnimationFrame(run);
  setTimeout(run, 50); // rAF does not run in a hidden page
}

function ingest({ seq, event }: ViewEvent): void {
  noteAskedRisk(event);
  notePoint(event);
  const rewritten = noteHookRun(event);
  if (rewritten) {
    const card = actionRows.get(rewritten);
    if (card) card.rev++; // it shows the call as the hook rewrote it from now on
  }
  if (stateKey(event) === 'execution_status') latestStatusEvent.value = event.id;
  const view = classify(event);
  if (view === 'hidden') return;
  if (view === 'result') {
    const actionId = actionIdOf(event) ?? actionByCall.get(toolCallIdOf(event) ?? '');
    const owner = actionId !== undefined ? actionRows.get(actionId) : undefined;
    if (owner && !owner.result) {
      owner.result = event;
      owner.rev++;
      return;
    }
  }
  if (view === 'notice' && foldIntoPrevious(event)) {
    return;
  }
  // Keys must be unique even if a log repeats an id (e.g. two corrupt records): seq makes them so.
  const row: Row = { key: `${seq}:${event.id}`, seq, event, view, rev: 0 };
  rows.push(row);
  if (view === 'action') {
    latestBatch = str(event.llm_response_id);
    actionRows.set(event.id, row);
    const callId = str(event.tool_call_id);
    if (callId) actionByCall.set(callId, event.id);
    if (isPlanAction(event)) latestPlanId.value = event.id;
  }
}

function notePoint(e: EventJson): void {
  if (e.kind === 'ActionEvent' || e.kind === 'MessageEvent') pointEvents.set(e.id, e);
  // The checkpoint taken before an action is what a restore names (restored_to): it reads as the
  // action it came before, which was recorded just ahead of it.
  const cp =
    stateKey(e) === 'checkpoint' ? (e.value as { reason?: unknown; action_id?: unknown } | null) : null;
  if (cp?.reason === 'action' && typeof cp.action_id === 'string') {
    const before = pointEvents.get(cp.action_id);
    if (before) pointEvents.set(e.id, before);
  }
  if (restoredTo(e) !== undefined) restoreIds.add(e.id);
  if (stateKey(e) === 'review_rejected') {
    const ids = (e.value as { action_ids?: unknown } | null)?.action_ids;
    for (const id of Array.isArray(ids) ? ids : []) {
      if (typeof id !== 'string') continue;
      rejectedInReview.add(id);
      const card = actionRows.get(id);
      if (card) card.rev++; // its card says so from now on
    }
  }
}

/** How many actions' changes the user rejected (in part or whole) in the editor's review. */
export function rejectedInEditorCount(): number {
  return rejectedInReview.size;
}

/** Whether the user rejected (part of) this action's change in the editor's review. */
export function rejectedInEditor(actionId: string): boolean {
  return rejectedInReview.has(actionId);
}

/** The words naming an action or message held (see point-words.ts). */
export function pointName(id: string): string | undefined {
  const e = pointEvents.get(id);
  return e && pointWords(e);
}

/**
 * Summaries (lower-cased) of the actions after `planId` that ran and gave a result that is not an
 * error: a plan step named so was carried out, whatever the plan's own marks say.
 */
export function ranSince(planId: string): Set<string> {
  const ran = new Set<string>();
  let after = false;
  for (const r of rows) {
    if (r.event.id === planId) after = true;
    if (!after || r.view !== 'action' || r.result?.kind !== 'ObservationEvent') continue;
    const observation = r.result.observation as { is_error?: unknown } | undefined;
    const summary = str(r.event.summary)?.trim().toLowerCase();
    if (summary && observation?.is_error !== true) ran.add(summary);
  }
  return ran;
}

/** The event a restore went back to (the restore's own record); undefined for anything else. */
export function restoredTo(e: EventJson): string | undefined {
  if (stateKey(e) !== 'checkpoint') return undefined;
  const value = e.value as { reason?: unknown; restored_to?: unknown } | null;
  return value?.reason === 'restore' && typeof value.restored_to === 'string' ? value.restored_to : undefined;
}

/** What a restore did, in the user's words: undid a restore, went back to before a named point, or neither known. */
export function restoreMeaning(e: EventJson): { undo: true } | { before: string | undefined; undo: false } {
  const target = restoredTo(e);
  if (target !== undefined && restoreIds.has(target)) return { undo: true };
  return { before: target === undefined ? undefined : pointName(target), undo: false };
}

const stateKey = (e: EventJson): string | undefined =>
  e.kind === 'ConversationStateUpdateEvent' ? str(e.key) : undefined;

/**
 * A status change right after another one (Waiting for approval, Idle, Running...) or a fork's
 * title right after its "continued from" record joins the line before it instead of adding one.
 */
function foldIntoPrevious(event: EventJson): boolean {
  const prev = rows.at(-1);
  if (!prev || prev.view !== 'notice') return false;
  const key = stateKey(event);
  const prevKey = stateKey(prev.event);
  const joins =
    (key === 'execution_status' && prevKey === 'execution_status') ||
    (key === 'title' && prevKey === 'forked_from');
  if (!joins) return false;
  (prev.folded ??= []).push(prev.event);
  prev.event = event;
  prev.rev++;
  return true;
}

/** A task_tracker call that sets the plan (command "plan"): shown as a checklist card. */
export function isPlanAction(e: EventJson): boolean {
  const action = e.action as { command?: unknown; task_list?: unknown } | null | undefined;
  return (
    e.kind === 'ActionEvent' &&
    str(e.tool_name) === 'task_tracker' &&
    action?.command === 'plan' &&
    Array.isArray(action.task_list)
  );
}

export function isLatestBatch(e: EventJson): boolean {
  return latestBatch !== undefined && str(e.llm_response_id) === latestBatch;
}

export function actionRow(actionId: string): Row | undefined {
  return actionRows.get(actionId);
}

/** Expanded/collapsed state lives here, not in components: virtualized rows unmount and remount. */
/** Open as the user last set it; until they do, as `fallback` says (which may change with the log). */
export function isOpen(key: string, fallback = false): boolean {
  return openChoices.get(key) ?? fallback;
}

/** Flips what the user sees: `fallback` must be the one `isOpen` was asked with. */
export function toggleOpen(key: string, row: Row | undefined, fallback = false): void {
  openChoices.set(key, !isOpen(key, fallback));
  if (row) row.rev++;
  version.value++;
}

/**
 * The rating an action was asked about (Logbook's own, from its rules), when it differs from the
 * model's the card says whose each is. From the header while it waits (with the reason), and from
 * the log's approval and re-confirmation records, so the card keeps it after the action ran.
 */
export interface AskedRisk {
  risk: string;
  reason?: string;
}

const askedRisks = new Map<string, AskedRisk>();

export function askedRisk(actionId: string): AskedRisk | undefined {
  return askedRisks.get(actionId);
}

function setAskedRisk(actionId: string, risk: string, reason: string | undefined): void {
  const known = askedRisks.get(actionId);
  // A record without a reason keeps the one the header gave for the same rating.
  const kept = reason ?? (known?.risk === risk ? known.reason : undefined);
  askedRisks.set(actionId, kept ? { risk, reason: kept } : { risk });
}

/** Why an action ran without a question (contained in the sandbox, undoable), from the log. */
const unaskedReasons = new Map<string, string>();

export function unaskedReason(actionId: string): string | undefined {
  return unaskedReasons.get(actionId);
}

function rememberAskedRisks(h: ConversationHeader): void {
  for (const r of h.pendingRisks ?? []) setAskedRisk(r.actionId, r.risk, r.reason || undefined);
}

function noteAskedRisk(e: EventJson): void {
  const key = stateKey(e);
  const value = e.value as Record<string, unknown> | null | undefined;
  if (!value || typeof value !== 'object') return;
  if (key === 'approved_actions' && value.risks && typeof value.risks === 'object') {
    for (const [id, risk] of Object.entries(value.risks as Record<string, unknown>))
      if (typeof risk === 'string') setAskedRisk(id, risk, undefined);
  } else if (key === 'unasked' && typeof value.action_id === 'string' && typeof value.reason === 'string') {
    unaskedReasons.set(value.action_id, value.reason);
  } else if (key === 'reconfirm' && typeof value.action_id === 'string' && typeof value.risk === 'string') {
    const reasons = Array.isArray(value.reasons) ? value.reasons.filter((r) => typeof r === 'string') : [];
    setAskedRisk(value.action_id, value.risk, reasons.length ? reasons.join('; ') : undefined);
  }
}
