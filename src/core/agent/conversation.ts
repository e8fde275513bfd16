// A conversation: the event log plus the loop that drives the agent. Every change is an appended
// event; status, pending actions and metrics are read from the state derived from those events.
import {
  createEvent,
  type ActionEvent,
  type Event,
  type EventKind,
  type CreateFields,
  type EventOfKind,
  type SecurityRisk,
} from '../events';
import type { EventStore } from '../log/event-store';
import { EventStoreError, isCorruptRecord } from '../log/event-store';
import { LlmError, type LlmClient, type LlmDelta, type LlmResponse } from '../llm/types';
import { LLM_RETRY_KEY, llmRetryValue } from './llm-retry';
import { COST_UNKNOWN_KEY, costUnknownNotice } from './cost-cap';
import {
  APPROVED_ACTIONS_KEY,
  LLM_USAGE_KEY,
  llmUsageValue,
  type ConversationState,
  type ExecutionStatus,
} from '../state';
import { EXECUTION_STATUS_KEY, ACTION_STARTED_KEY, RECONFIRM_KEY, TITLE_KEY, shortTitle } from '../state';
import { encodeSnapshot, recoveryEventsOnOpen, SKIPPED_AFTER_CRASH } from '../state';
import { toolDefinition, validateToolCall, type ToolPorts, type ToolSpec } from '../tools';
import type { StoredConversationEvent } from './event-codec';
import {
  type ConfirmationDecision,
  type ConfirmationGate,
  type HistoryCondenser,
  TOOL_SOURCE_KEY,
  type ToolSource,
} from './ports';
import { buildSystemPrompt } from './system-prompt';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from './settings';
import { detectStuck } from './stuck-detector';
import { triggeredSkills, renderSkill, type Skill } from '../skills/skills';
import { executeAction, interruptedObservation, refusedObservation } from './execute-action';
import { recheckBeforeRun } from './recheck';
import { effectiveCap, overCapError } from './tool-call-cap';
import { ConversationMemory, type MemoryLoad, SNAPSHOT_EVERY } from './conversation-memory';
import { forkInto } from './fork';
import { lostEventsNotice } from '../state/lost-events-notice';
import { type NamedSecret, SecretGuard } from '../secrets';
import {
  AGENT_MODE_KEY,
  type AgentMode,
  SANDBOX_KEY,
  type SandboxNotice,
  sandboxNoticeChanged,
  type Task,
} from '../state';
import { approvedPlanMessage, planModeRefusal, withPlanModePrompt } from './plan-mode';
import { toolsOfferedUpdate } from './offered-tools';
import { projectImages } from '../attachments/project-images';
import {
  CHECKPOINT_KEY,
  checkpointAfter,
  checkpointBefore,
  type CheckpointOutcome,
  type CheckpointPort,
} from '../checkpoints/record';
import type { CheckpointEventValue } from '../checkpoints/types';
import { formatCost } from '../format/counts';

export interface ConversationDeps {
  id: string;
  store: EventStore<StoredConversationEvent>;
  llm: LlmClient;
  tools: ToolSpec[];
  ports: ToolPorts;
  cwd: string;
  settings?: Partial<AgentSettings>;
  gate: ConfirmationGate;
  condenser?: HistoryCondenser;
  /** Model used for summaries (OpenHands' separate condenser LLM); default: the agent's. */
  condenserLlm?: LlmClient;
  skills?: Skill[];
  platform?: string;
  /** Descriptions of edits the user made to the agent's changes since the last call (from the review). */
  userEditNotes?: () => string[];
  /** Events between two persisted snapshots; default SNAPSHOT_EVERY. */
  snapshotEvery?: number;
  /**
   * Secrets the host knows (the API key the client uses...): replaced by a marker in every event
   * before it is appended and in the streamed deltas. Read at each use; return the same array while
   * the list does not change.
   */
  secrets?: () => readonly NamedSecret[];
  /**
   * Whether the model takes images (read at each call) and where stored images are loaded from.
   * Absent: images are sent, and a stored image no one can load is replaced by a note.
   */
  images?: { supportsImages(): boolean; load(url: string): Promise<string | undefined> };
  /** Records the workspace's files before each action that can change them; none: no checkpoints. */
  checkpoints?: CheckpointPort;
  /** Tools from outside (MCP servers), started when a run starts; their problems are recorded. */
  toolSource?: ToolSource;
  /**
   * The boundary the agent's commands run in now (the host's sandbox): recorded in the log before
   * a request whenever it differs from what was recorded, so the user is told once, and the log says it.
   */
  sandbox?: () => SandboxNotice;
}

export { SNAPSHOT_EVERY };

export type EventListener = (event: Event, index: number) => void;
export type DeltaListener = (delta: LlmDelta | { type: 'end' }) => void;

export class Conversation {
  readonly id: string;
  private readonly store: EventStore<StoredConversationEvent>;
  /** Everything derived from the log that the loop reads: state, prompt view, pending actions. */
  private readonly memory: ConversationMemory;
  /** How `open` got here: the snapshot it started from (null: a full replay) and the events read after it. */
  readonly opened: { fromSnapshot: number | null; replayed: number };
  private readonly snapshotEvery: number;
  private appendQueue: Promise<unknown> = Promise.resolve();
  private settings: AgentSettings;
  private readonly eventListeners = new Set<EventListener>();
  private readonly deltaListeners = new Set<DeltaListener>();
  private runPromise: Promise<ExecutionStatus> | undefined;
  private abort: AbortController | undefined;
  private pauseRequested = false;
  private condenseRequested = false;
  private readonly secretGuard: SecretGuard;
  /**
   * Recording the workspace failed while this object was open: it does not try again before every
   * action (a workspace over the limits would be scanned each time). Whether the user was told is
   * the state's (`checkpointsUnavailable`, from the logged notice), so a reopened conversation tries
   * once more (the cause may be gone) but never repeats the notice.
   */
  private checkpointsFailed = false;
  /** Models whose unknown cost this conversation object already said a cost cap cannot count. */

  private constructor(
    private readonly deps: ConversationDeps,
    load: MemoryLoad,
  ) {
    this.id = deps.id;
    this.store = deps.store;
    this.settings = { ...DEFAULT_AGENT_SETTINGS, ...deps.settings };
    this.memory = load.memory;
    this.opened = { fromSnapshot: load.fromSnapshot, replayed: load.replayed };
    this.snapshotEvery = Math.max(1, Math.floor(deps.snapshotEvery ?? SNAPSHOT_EVERY));
    this.secretGuard = new SecretGuard(deps.secrets);
  }

  /**
   * Opens a conversation from its log (from the newest snapshot plus the events after it, so a
   * long log opens as fast as a short one), recovers from a crash, writes the system prompt if new.
   */
  static async open(deps: ConversationDeps): Promise<Conversation> {
    const load = await ConversationMemory.load(deps.store, deps.id);
    const c = new Conversation(deps, load);
    if (!deps.store.readOnly) {
      // A long log opened without a usable snapshot (written by an older version): snapshot it now.
      if (load.fromSnapshot === null && load.replayed >= c.snapshotEvery) await c.snapshotHead();
      // A new log gets its system prompt; so does one whose record of it is unreadable or gone
      // (re-derived from the current settings, as a new conversation makes it): no request goes
      // without one.
      if (deps.store.length === 0 || !c.memory.prompt.hasSystemPrompt()) await c.appendSystemPrompt();
      const ctx = () => ({
        newId: () => crypto.randomUUID(),
        timestamp: new Date().toISOString(),
        ...(c.state.head ? { parentId: c.state.head } : {}),
      });
      // The store only opens a log with lost events for writing once the user accepted the loss.
      const lost = deps.store.lostOnOpen;
      for (const e of lost ? lostEventsNotice(lost, ctx()) : []) await c.appendEvent(e as Event, true);
      for (const e of recoveryEventsOnOpen(c.state, ctx(), {
        truncatedBytes: deps.store.truncatedOnOpen ?? 0,
      })) {
        await c.appendEvent(e as Event, true);
      }
    }
    return c;
  }

  private async appendSystemPrompt(): Promise<void> {
    await this.append('SystemPromptEvent', {
      system_prompt: {
        type: 'text',
        text: buildSystemPrompt({
          cwd: this.deps.cwd,
          platform: this.deps.platform ?? process.platform,
          skills: this.deps.skills ?? [],
          toolsEnabled: this.settings.toolsEnabled,
        }),
      },
      tools: this.activeTools().map((t) => toolDefinition(t) as unknown as Record<string, unknown>),
    });
  }

  get state(): ConversationState {
    return this.memory.state;
  }

  get status(): ExecutionStatus {
    return this.state.status;
  }

  get readOnly(): boolean {
    return this.store.readOnly;
  }

  get isRunning(): boolean {
    return this.runPromise !== undefined;
  }

  updateSettings(patch: Partial<AgentSettings>): void {
    this.settings = { ...this.settings, ...patch };
  }

  onEvent(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onDelta(listener: DeltaListener): () => void {
    this.deltaListeners.add(listener);
    return () => this.deltaListeners.delete(listener);
  }

  /** Pending actions the user must still confirm (empty when nothing waits). */
  awaitingConfirmation(): ActionEvent[] {
    const approved = new Set(this.state.approved);
    const pending = this.pendingActionEvents().filter((a) => !approved.has(a.id));
    const decisions = this.deps.gate.decide(pending);
    // An action that started before a crash may have had its effect: only the user may re-run
    // (approve) or skip (reject) it, whatever the confirmation policy says.
    const inDoubt = new Set(this.state.inDoubt);
    return pending.filter((a) => inDoubt.has(a.id) || decisions.find((d) => d.actionId === a.id)?.confirm);
  }

  /** How the gate rates the actions that wait for the user now: their risk and why. */
  heldRisks(): ConfirmationDecision[] {
    return this.deps.gate.decide(this.awaitingConfirmation());
  }

  /** Pending actions that started before a crash and have no recorded result. */
  inDoubtActions(): ActionEvent[] {
    const ids = new Set(this.state.inDoubt);
    return this.pendingActionEvents().filter((a) => ids.has(a.id));
  }

  /**
   * Records the user's message. `attachments` are the texts of what the user attached (each with its
   * own header), kept in the message's content after the text, so the log holds what the model saw;
   * `images` are image URLs (stored-image URLs, data or web URLs).
   */
  async sendMessage(
    text: string,
    opts: { images?: readonly string[]; attachments?: readonly string[] } = {},
  ): Promise<void> {
    const skills = triggeredSkills(this.deps.skills ?? [], text, this.state.activatedSkills);
    const content: { type: 'text'; text: string }[] = [{ type: 'text', text }];
    for (const a of opts.attachments ?? []) content.push({ type: 'text', text: a });
    const llm_message = opts.images?.length
      ? {
          role: 'user' as const,
          content: [...content, { type: 'image' as const, image_urls: [...opts.images] }],
        }
      : { role: 'user' as const, content };
    await this.append(
      'MessageEvent',
      {
        source: 'user',
        llm_message,
        activated_skills: skills.map((s) => s.name),
        extended_content: skills.map((s) => ({ type: 'text' as const, text: renderSkill(s) })),
      } as CreateFields<'MessageEvent'>,
      true,
    );
  }

  /** Runs the agent until it finishes, waits for confirmation, is paused, gets stuck, fails or hits the limit. */
  run(): Promise<ExecutionStatus> {
    if (!this.runPromise) {
      this.runPromise = this.loop()
        .catch((err: unknown) => this.stopOnLogFailure(err))
        .finally(() => {
          this.runPromise = undefined;
          this.abort = undefined;
        });
    }
    return this.runPromise;
  }

  /**
   * An append failed (a full disk...), so the loop cannot go on. The failure is recorded if the log
   * takes it now (after ENOSPC the segment store frees a reserve for this), so no reader finds the
   * conversation still `running`; if it does not, the error goes to the caller as it was.
   */
  private async stopOnLogFailure(err: unknown): Promise<ExecutionStatus> {
    if (!(err instanceof EventStoreError) || err.code !== 'IO_FAILED') throw err;
    await this.fail(
      'log_write_failed',
      `The conversation's log could not be written, so the agent stopped (${err.message}). ` +
        'Free disk space, then resume the conversation.',
    ).catch(() => undefined);
    if (this.status !== 'error') throw err;
    return this.status;
  }

  /** Asks the loop to stop between steps; the current step finishes first. */
  async pause(): Promise<void> {
    if (this.runPromise) {
      this.pauseRequested = true;
      await this.runPromise;
      return;
    }
    if (this.status !== 'paused' && this.status !== 'finished') await this.recordPause();
  }

  /** Cancels the LLM call or tool in flight; every action left unanswered gets an error observation. */
  async interrupt(): Promise<void> {
    this.pauseRequested = true;
    this.abort?.abort(new Error('interrupted by the user'));
    await this.runPromise;
    await this.answerDangling('The user stopped the agent before this action ran.');
    if (this.status !== 'paused') await this.recordPause();
  }

  /** Answers every pending action with an error, so no call the model made stays open. */
  private async answerDangling(reason: string): Promise<void> {
    for (const a of this.pendingActionEvents()) {
      await this.append('AgentErrorEvent', {
        error: reason,
        tool_name: a.tool_name,
        tool_call_id: a.tool_call_id,
      } as CreateFields<'AgentErrorEvent'>);
    }
  }

  /**
   * Approves pending actions (all of the batch by default); call `run` to execute them. Each is
   * approved at the risk it is rated now: should its rating rise before it runs, it asks again.
   */
  async approve(actionIds?: string[]): Promise<void> {
    // Tools from outside rate their own calls: they must be there before a risk is recorded.
    await this.prepareToolSource();
    const pending = this.pendingActionEvents();
    const ids = (actionIds ?? pending.map((a) => a.id)).filter((id) => pending.some((a) => a.id === id));
    if (!ids.length) return;
    const approving = pending.filter((a) => ids.includes(a.id));
    const risks = Object.fromEntries(this.deps.gate.decide(approving).map((d) => [d.actionId, d.risk]));
    await this.append(
      'ConversationStateUpdateEvent',
      { key: APPROVED_ACTIONS_KEY, value: { action_ids: ids, risks } },
      true,
    );
  }

  /** Gives the conversation a title of the user's choosing (recorded as an event, like every change). */
  async rename(title: string): Promise<void> {
    if (!shortTitle(title)) throw new Error('A conversation title cannot be empty.');
    await this.append('ConversationStateUpdateEvent', { key: TITLE_KEY, value: title.trim() }, true);
  }

  /** Switches between plan mode (read only, answer with a plan) and act mode; recorded as an event. */
  async setMode(mode: AgentMode): Promise<void> {
    if (this.state.mode === mode) return;
    await this.append('ConversationStateUpdateEvent', { key: AGENT_MODE_KEY, value: mode }, true);
  }

  /**
   * Approves the plan: act mode from now on, and a user message with the plan (as the user may
   * have edited it; default: the current task list) so the agent carries it out. Call `run` next.
   */
  async approvePlan(tasks?: readonly Task[]): Promise<void> {
    const plan = tasks ?? this.state.tasks;
    if (plan.length === 0) throw new Error('There is no plan to approve: the task list is empty.');
    await this.setMode('act');
    await this.sendMessage(approvedPlanMessage(plan));
  }

  /** Rejects pending actions with a reason the agent will read; call `run` to let it adapt. */
  async reject(reason: string, actionIds?: string[]): Promise<void> {
    const pending = this.pendingActionEvents();
    const targets = actionIds ? pending.filter((a) => actionIds.includes(a.id)) : pending;
    for (const a of targets) {
      await this.append('UserRejectObservation', {
        rejection_reason: reason || 'The user rejected this action.',
        action_id: a.id,
        tool_name: a.tool_name,
        tool_call_id: a.tool_call_id,
      } as CreateFields<'UserRejectObservation'>);
    }
    if (this.status === 'waiting_for_confirmation' && this.awaitingConfirmation().length === 0) {
      await this.setStatus('idle');
    }
  }

  /**
   * Carries out the user's choice for the actions in doubt after a crash (started, no recorded
   * result): 'rerun' approves them, so the next run executes them again; 'skip' answers each as
   * skipped, so the model learns it did not run again. Call `run` to continue.
   */
  async resolveInDoubt(choice: 'rerun' | 'skip', actionIds?: readonly string[]): Promise<void> {
    const targets = this.inDoubtActions().filter((a) => !actionIds || actionIds.includes(a.id));
    if (choice === 'rerun') {
      await this.approve(targets.map((a) => a.id));
      return;
    }
    for (const a of targets) {
      await this.append('AgentErrorEvent', {
        error: SKIPPED_AFTER_CRASH,
        tool_name: a.tool_name,
        tool_call_id: a.tool_call_id,
      } as CreateFields<'AgentErrorEvent'>);
    }
  }

  /** Records a restore of the workspace's files: the checkpoint of the files before it, so it can be undone. */
  async recordRestore(value: CheckpointEventValue): Promise<Event> {
    return this.append('ConversationStateUpdateEvent', { key: CHECKPOINT_KEY, value }, true);
  }

  /** Asks for a condensation of the history before the next LLM call. */
  requestCondensation(): void {
    this.condenseRequested = true;
  }

  async condenseNow(): Promise<boolean> {
    if (!this.deps.condenser) return false;
    const fields = await this.deps.condenser.condense(
      this.memory.prompt.view,
      this.deps.condenserLlm ?? this.deps.llm,
      { force: true },
    );
    if (!fields) return false;
    await this.append('Condensation', fields as CreateFields<'Condensation'>);
    return true;
  }

  /**
   * Writes a fork of this conversation into an empty store: its branch up to `fromEventId`, ready
   * to continue from there. Open the fork with `Conversation.open` on that store.
   */
  async fork(fromEventId: string, target: EventStore<StoredConversationEvent>): Promise<void> {
    // Signed first, so the fork can carry this log's signatures over everything it copies.
    if (!this.store.readOnly) await this.store.flush();
    const events: Event[] = [];
    const indices: number[] = [];
    let index = 0;
    for await (const slot of this.store.iterate(0)) {
      if (!isCorruptRecord(slot)) {
        events.push(slot as Event);
        indices.push(index);
      }
      index++;
    }
    const dir = (this.store as { dir?: unknown }).dir;
    await forkInto(
      { id: this.id, events, indices, ...(typeof dir === 'string' ? { dir } : {}) },
      fromEventId,
      target,
    );
  }

  /** Events from the log, in order, skipping unreadable records. */
  async events(): Promise<Event[]> {
    const out: Event[] = [];
    for await (const slot of this.store.iterate(0)) if (!isCorruptRecord(slot)) out.push(slot as Event);
    return out;
  }

  // --- the loop ---------------------------------------------------------------------------

  private async loop(): Promise<ExecutionStatus> {
    this.pauseRequested = false;
    if (this.store.readOnly) return this.status;
    if (this.status === 'waiting_for_confirmation' && this.awaitingConfirmation().length > 0)
      return this.status;
    await this.setStatus('running');
    await this.prepareToolSource();
    let steps = 0;
    for (;;) {
      if (this.pauseRequested) {
        await this.recordPause();
        break;
      }
      if (steps >= this.settings.maxIterations) {
        await this.fail(
          'iteration_limit',
          `The agent took ${steps} steps in this run, the limit (logbook.maxIterations). Resume to let it continue.`,
        );
        break;
      }
      const outcome = await this.step();
      await this.recordToolSourceNotices();
      if (outcome === 'stopped') {
        await this.answerDangling('The user stopped the agent before this action ran.');
        await this.recordPause();
        break;
      }
      if (outcome === 'llm') steps++;
      if (outcome === 'finished' || outcome === 'waiting' || outcome === 'error') break;
      if (await this.overBudget()) break;
      const verdict = detectStuck(this.memory.recent, this.settings.stuck);
      if (verdict.kind === 'nudge') {
        await this.append('MessageEvent', {
          source: 'environment',
          llm_message: { role: 'user', content: [{ type: 'text', text: verdict.message }] },
        } as CreateFields<'MessageEvent'>);
      } else if (verdict.kind === 'stuck') {
        await this.append('ConversationStateUpdateEvent', {
          key: 'stuck',
          value: { pattern: verdict.pattern, explanation: verdict.explanation },
        });
        await this.setStatus('stuck');
        break;
      }
    }
    return this.status;
  }

  /** One unit of progress: run approved pending actions, or condense, or ask the LLM. */
  private async step(): Promise<
    'llm' | 'executed' | 'condensed' | 'finished' | 'waiting' | 'stopped' | 'error'
  > {
    const pending = this.pendingActionEvents();
    if (pending.length) {
      if (this.awaitingConfirmation().length) {
        await this.setStatus('waiting_for_confirmation');
        return 'waiting';
      }
      return this.executeBatch(pending);
    }
    if (
      this.deps.condenser &&
      (this.condenseRequested || this.deps.condenser.shouldCondense(this.memory.prompt.view))
    ) {
      const force = this.condenseRequested;
      this.condenseRequested = false;
      const fields = await this.deps.condenser.condense(
        this.memory.prompt.view,
        this.deps.condenserLlm ?? this.deps.llm,
        { force },
      );
      if (fields) {
        await this.append('Condensation', fields as CreateFields<'Condensation'>);
        return 'condensed';
      }
      if (force) {
        // Retrying the same prompt would hit the same limit: stop with a clear reason instead.
        await this.fail(
          'llm_context_window_exceeded',
          "The conversation no longer fits the model's context window and there is nothing left to condense.",
        );
        return 'error';
      }
    }
    // A conversation over its budget makes no further LLM call, also when resumed or given a new message.
    if (await this.overBudget()) return 'error';
    return this.askLlm();
  }

  private async askLlm(): Promise<
    'llm' | 'finished' | 'waiting' | 'stopped' | 'error' | 'executed' | 'condensed'
  > {
    await this.recordSandbox();
    await this.recordToolsOffered();
    this.abort = new AbortController();
    let response: LlmResponse;
    try {
      const messages = await projectImages(this.promptMessages(), {
        supportsImages: this.deps.images?.supportsImages() ?? true,
        load: (url) => this.deps.images?.load(url) ?? Promise.resolve(undefined),
      });
      response = await this.deps.llm.complete(
        {
          messages,
          tools: this.activeTools().map((t) => toolDefinition(t)),
          cacheKey: this.id,
        },
        {
          signal: this.abort.signal,
          onDelta: (d) => this.emitDelta(d),
          // Recorded before the wait, so the chat says what is happening instead of just "Running".
          onRetry: async (notice) => {
            await this.append('ConversationStateUpdateEvent', {
              key: LLM_RETRY_KEY,
              value: llmRetryValue(notice),
            });
          },
        },
      );
    } catch (err) {
      this.emitDelta({ type: 'end' });
      return this.llmFailed(err);
    }
    this.emitDelta({ type: 'end' });
    await this.append('ConversationStateUpdateEvent', {
      key: LLM_USAGE_KEY,
      value: llmUsageValue('agent', response),
    });
    await this.sayIfCostUnknown(response);

    if (!response.toolCalls.length) {
      await this.append('MessageEvent', {
        source: 'agent',
        llm_message: {
          role: 'assistant',
          content: [{ type: 'text', text: response.content }],
          ...(response.reasoning ? { reasoning_content: response.reasoning } : {}),
        },
        llm_response_id: response.id,
      } as CreateFields<'MessageEvent'>);
      await this.setStatus('finished');
      return 'finished';
    }

    const batch: ActionEvent[] = [];
    const cap = effectiveCap(this.settings.maxToolCallsPerReply);
    const total = response.toolCalls.length;
    for (const [i, call] of response.toolCalls.entries()) {
      const toolCall = { id: call.id, name: call.name, arguments: call.arguments, origin: 'completion' };
      const checked =
        i >= cap
          ? ({ ok: false, error: overCapError(total, cap) } as const)
          : this.settings.toolsEnabled
            ? validateToolCall(this.activeTools(), call.name, call.arguments)
            : ({ ok: false, error: 'Tools are disabled because this workspace is not trusted.' } as const);
      // Plan mode refuses a write before it is recorded as an action, so it is never run or asked about.
      const refusal =
        checked.ok && this.state.mode === 'plan' ? this.planRefusal(checked.spec, checked.args) : null;
      const v = refusal ? ({ ok: false, error: refusal } as const) : checked;
      // The first call of a response carries its text, whether it runs or not.
      const first = i === 0;
      const recorded = await this.append('ActionEvent', {
        thought: first && response.content ? [{ type: 'text', text: response.content }] : [],
        reasoning_content: first ? response.reasoning : null,
        // A refused or invalid call is recorded as OpenHands records it: an action that is null
        // (never pending, never run), answered at once by its error.
        action: v.ok ? v.action : null,
        tool_name: call.name,
        tool_call_id: call.id,
        tool_call: toolCall,
        llm_response_id: response.id,
        security_risk: v.ok ? v.security_risk : 'UNKNOWN',
        summary: v.ok ? v.summary : null,
      } as CreateFields<'ActionEvent'>);
      if (!v.ok) {
        await this.append('AgentErrorEvent', {
          error: v.error,
          tool_name: call.name,
          tool_call_id: call.id,
        } as CreateFields<'AgentErrorEvent'>);
        continue;
      }
      batch.push(recorded);
    }
    return 'llm';
  }

  private async executeBatch(
    actions: ActionEvent[],
  ): Promise<'executed' | 'finished' | 'stopped' | 'waiting'> {
    this.abort = new AbortController();
    for (const action of actions) {
      if (this.abort.signal.aborted) {
        await this.append(
          'ObservationEvent',
          interruptedObservation(action) as CreateFields<'ObservationEvent'>,
        );
        continue;
      }
      // Recorded in act mode, approved after a switch to plan mode: plan mode still only reads.
      const refusal = this.state.mode === 'plan' ? this.planRefusalOf(action) : null;
      if (refusal) {
        await this.append(
          'ObservationEvent',
          refusedObservation(action, refusal) as CreateFields<'ObservationEvent'>,
        );
        continue;
      }
      // What ran before it in this batch may have changed where its paths lead: rated again, an
      // action whose risk rose past its approval waits for the user, and so does the rest.
      const again = recheckBeforeRun(this.deps.gate, action, this.approvedRisk(action.id));
      if (again) {
        await this.append('ConversationStateUpdateEvent', { key: RECONFIRM_KEY, value: again }, true);
        await this.setStatus('waiting_for_confirmation');
        return 'waiting';
      }
      const checkpointed = await this.checkpointBefore(action);
      await this.append(
        'ConversationStateUpdateEvent',
        { key: ACTION_STARTED_KEY, value: { action_id: action.id } },
        true,
      );
      const observation = await executeAction(action, this.activeTools(), {
        ports: this.secretGuard.ports(this.deps.ports),
        cwd: this.deps.cwd,
        signal: this.abort.signal,
      });
      // Also when it failed or was interrupted: whatever it left is the agent's, not the user's.
      if (checkpointed) await this.checkpointAfter(action);
      const notes = this.deps.userEditNotes?.() ?? [];
      if (notes.length) {
        // The user changed files while reviewing: the agent must know before it edits them again.
        const note = `Note: since your last change the user edited these files themselves:\n${notes.join('\n')}`;
        observation.observation = {
          ...observation.observation,
          content: [...observation.observation.content, { type: 'text', text: note }],
        };
      }
      await this.append('ObservationEvent', observation as CreateFields<'ObservationEvent'>);
    }
    if (this.abort.signal.aborted) return 'stopped';
    if (this.status === 'finished') return 'finished';
    return 'executed';
  }

  /** The files as they are before an action that can change them, recorded and bound to it. */
  private async checkpointBefore(action: ActionEvent): Promise<boolean> {
    const port = this.deps.checkpoints;
    if (!port || this.checkpointsFailed) return false;
    const noticeGiven = this.state.checkpointsUnavailable;
    return this.appendCheckpoint(
      await checkpointBefore(port, this.id, action, this.activeTools(), noticeGiven),
    );
  }

  /** The files as the action left them: what changes after this is not the agent's doing. */
  private async checkpointAfter(action: ActionEvent): Promise<void> {
    const port = this.deps.checkpoints;
    if (!port || this.checkpointsFailed) return;
    await this.appendCheckpoint(
      await checkpointAfter(port, this.id, action, this.state.checkpointsUnavailable),
    );
  }

  private async appendCheckpoint(outcome: CheckpointOutcome): Promise<boolean> {
    if (outcome.failed) this.checkpointsFailed = true;
    if (outcome.update) await this.append('ConversationStateUpdateEvent', outcome.update);
    return outcome.recorded;
  }

  private async llmFailed(err: unknown): Promise<'stopped' | 'error' | 'condensed'> {
    const e =
      err instanceof LlmError
        ? err
        : new LlmError('connection', err instanceof Error ? err.message : String(err));
    if (e.kind === 'aborted') return 'stopped';
    if (e.kind === 'context_window_exceeded' && this.deps.condenser) {
      await this.append('CondensationRequest', {} as CreateFields<'CondensationRequest'>);
      this.condenseRequested = true;
      return 'condensed';
    }
    await this.fail(`llm_${e.kind}`, e.message);
    return 'error';
  }

  private async overBudget(): Promise<boolean> {
    const t = this.state.metrics.total;
    const { maxTokens, maxCost } = this.settings;
    if (maxTokens !== null && t.promptTokens + t.completionTokens > maxTokens) {
      await this.fail(
        'token_budget',
        `The conversation used ${t.promptTokens + t.completionTokens} tokens, over its budget of ${maxTokens}.`,
      );
      return true;
    }
    if (maxCost !== null && t.cost > maxCost) {
      await this.fail(
        'cost_budget',
        `The conversation cost ${formatCost(t.cost)}, over its budget of ${formatCost(maxCost)}.`,
      );
      return true;
    }
    return false;
  }

  /** A cost cap cannot count a reply of unknown cost: said once per model and conversation (the log knows). */
  private async sayIfCostUnknown(response: LlmResponse): Promise<void> {
    const model = this.deps.llm.model;
    if (this.state.costUnknownModels.includes(model)) return;
    const notice = costUnknownNotice(response, model, this.settings);
    if (!notice) return;
    await this.append('ConversationStateUpdateEvent', { key: COST_UNKNOWN_KEY, value: notice });
  }

  private async fail(code: string, detail: string): Promise<void> {
    await this.append('ConversationErrorEvent', { code, detail } as CreateFields<'ConversationErrorEvent'>);
    await this.setStatus('error');
  }

  private async recordPause(): Promise<void> {
    await this.append('PauseEvent', {} as CreateFields<'PauseEvent'>);
    await this.setStatus('paused');
  }

  private async setStatus(status: ExecutionStatus): Promise<void> {
    if (this.status === status) return;
    await this.append('ConversationStateUpdateEvent', { key: EXECUTION_STATUS_KEY, value: status });
  }

  // --- events ---------------------------------------------------------------------------

  private promptMessages() {
    const messages = this.memory.prompt.messages();
    return this.state.mode === 'plan' ? withPlanModePrompt(messages) : messages;
  }

  private planRefusal(spec: ToolSpec, args: Record<string, unknown>): string | null {
    return planModeRefusal(spec, args, [this.deps.cwd], this.deps.gate.shellCwdNow?.());
  }

  /** The refusal for a recorded action (re-validated, as it is when it runs). */
  private planRefusalOf(action: ActionEvent): string | null {
    const v = validateToolCall(this.activeTools(), action.tool_name, action.tool_call.arguments);
    return v.ok ? this.planRefusal(v.spec, v.args) : null;
  }

  private activeTools(): ToolSpec[] {
    if (!this.settings.toolsEnabled) return [];
    const outside = this.deps.toolSource?.tools() ?? [];
    return outside.length ? [...this.deps.tools, ...outside] : this.deps.tools;
  }

  /** Starts the tools from outside (only with tools enabled: an untrusted workspace starts nothing). */
  private async prepareToolSource(): Promise<void> {
    if (!this.deps.toolSource || !this.settings.toolsEnabled) return;
    await this.deps.toolSource.prepare();
    await this.recordToolSourceNotices();
  }

  /** Records the sandbox's state when it is not what the log says (only where tools run at all). */
  private async recordSandbox(): Promise<void> {
    if (!this.settings.toolsEnabled || !this.deps.sandbox) return;
    const now = this.deps.sandbox();
    if (sandboxNoticeChanged(this.state.sandbox, now))
      await this.append('ConversationStateUpdateEvent', { key: SANDBOX_KEY, value: now });
  }

  /** Records the tools from outside the next request offers, when they changed (offered-tools.ts). */
  private async recordToolsOffered(): Promise<void> {
    const outside = this.settings.toolsEnabled ? (this.deps.toolSource?.tools() ?? []) : [];
    const update = toolsOfferedUpdate(outside, this.state.toolsOfferedSha);
    if (update) await this.append('ConversationStateUpdateEvent', update);
  }

  private async recordToolSourceNotices(): Promise<void> {
    for (const n of this.deps.toolSource?.takeNotices() ?? [])
      await this.append('ConversationStateUpdateEvent', { key: TOOL_SOURCE_KEY, value: n });
  }

  /** The risk a pending action was approved at: the user's approval, else LOW (let through unasked). */
  private approvedRisk(actionId: string): SecurityRisk {
    const { approved, approvedRisks } = this.state;
    if (!approved.includes(actionId) || !Object.hasOwn(approvedRisks, actionId)) return 'LOW';
    return approvedRisks[actionId]!;
  }

  private pendingActionEvents(): ActionEvent[] {
    return this.state.pendingActions
      .map((p) => this.memory.pendingAction(p.actionId))
      .filter((a): a is ActionEvent => a !== undefined);
  }

  /**
   * Appends one event after the current HEAD. Appends are queued: an event's parent is read only
   * once the append before it is in the state, so a user action during a run (a rename while the
   * agent's durable append waits for its fsync) never gives two events the same parent.
   */
  private append<K extends EventKind>(
    kind: K,
    fields: CreateFields<K>,
    durable = false,
  ): Promise<EventOfKind<K>> {
    const write = async (): Promise<EventOfKind<K>> => {
      const event = createEvent(kind, {
        ...(fields as object),
        parent_id: this.state.head,
      } as unknown as CreateFields<K>);
      return (await this.appendEvent(event as Event, durable)) as EventOfKind<K>;
    };
    const appended = this.appendQueue.then(write);
    this.appendQueue = appended.catch(() => undefined);
    return appended;
  }

  /** The one place events are appended; returns the event as stored (secrets redacted). */
  private async appendEvent(given: Event, durable: boolean): Promise<Event> {
    const event = this.secretGuard.event(given);
    const index = await this.store.append(event as StoredConversationEvent, { durable });
    this.memory.absorb(event, index);
    // Periodic snapshots let a long log be opened from the newest one plus its tail.
    if ((index + 1) % this.snapshotEvery === 0) await this.snapshotAt(index);
    for (const l of this.eventListeners) l(event, index);
    return event;
  }

  /** A snapshot at the last event, when that event is the head (not an unreadable record). */
  private async snapshotHead(): Promise<void> {
    const last = this.store.length - 1;
    const slot = last >= 0 ? await this.store.get(last) : undefined;
    if (slot && !isCorruptRecord(slot) && slot.id === this.state.head) await this.snapshotAt(last);
  }

  /** Best effort: a snapshot that cannot be written only makes the next open slower. */
  private async snapshotAt(index: number): Promise<void> {
    const json = encodeSnapshot(this.state, this.memory.resumeData());
    await this.store.writeSnapshot(index, json).catch(() => undefined);
  }

  private emitDelta(d: LlmDelta | { type: 'end' }): void {
    for (const shown of this.secretGuard.delta(d)) for (const l of this.deltaListeners) l(shown);
  }
}
