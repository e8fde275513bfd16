// A conversation: the event log plus the loop that drives the agent. Every change is an appended
// event; status, pending actions and metrics are read from the state derived from those events.
// This file composes the loop's parts: the journal that records (conversation-journal.ts), the
// agent's step (agent-step.ts, reply-actions.ts), the dispatcher of pending actions
// (action-dispatcher.ts), recovery (conversation-recovery.ts), the policies the step consults
// (policies/), the run itself (run-loop.ts), the hooks at its own moments (conversation-hooks.ts)
// and the user's message as recorded (user-message.ts).
import type { ActionEvent, CreateFields, Event } from '../events';
import type { EventStore } from '../log/event-store';
import { isCorruptRecord } from '../log/event-store';
import type { LlmDelta } from '../llm/types';
import {
  AGENT_MODE_KEY,
  APPROVED_ACTIONS_KEY,
  TITLE_KEY,
  REVIEW_REJECTED_KEY,
  shortTitle,
  type AgentMode,
  type ConversationState,
  type ExecutionStatus,
  type Task,
} from '../state';
import { payloadSchemasOf, toolDefinition } from '../tools';
import type { StoredConversationEvent } from './event-codec';
import type { ConfirmationDecision } from './ports';
import { buildSystemPrompt } from './system-prompt';
import { DEFAULT_AGENT_SETTINGS, type AgentSettings } from './settings';
import { triggeredSkills } from '../skills/skills';
import { type UserMessageParts, userMessageFields } from './user-message';
import { ConversationMemory, type MemoryLoad, SNAPSHOT_EVERY } from './conversation-memory';
import { forkStore } from './fork';
import { type HostCommand, type HostCommandResult, runHostCommand } from './host-command';
import { SecretGuard } from '../secrets';
import { ACT_AFTER_PLAN_NOTE, approvedPlanMessage } from './plan-mode';
import { CHECKPOINT_KEY } from '../checkpoints/record';
import type { CheckpointEventValue } from '../checkpoints/types';
import type { ConversationDeps } from './conversation-deps';
import { ConversationJournal, type EventListener } from './conversation-journal';
import { AgentStep, type StepOutcome } from './agent-step';
import { ActionDispatcher, type DispatchOutcome } from './action-dispatcher';
import { ActionCheckpoints } from './action-checkpoints';
import {
  answerWithError,
  inDoubtOf,
  recoverOnOpen,
  skipInDoubt,
  STOPPED_BEFORE_RUN,
} from './conversation-recovery';
import { ConversationPolicies, type PolicyContext } from './policies/policy';
import { ToolSet } from './policies/tool-set';
import { defaultPolicies } from './policies/default-policies';
import { AGENT_START_KEY } from '../agents/agent-events';
import { WordedError } from '../text/l10n';
import { ToolHooks } from '../hooks/tool-hooks';
import { withinAgentLimits } from '../agents/conversation-agent';
import { ConversationHooks, hooksPolicy } from './conversation-hooks';
import { RunLoop } from './run-loop';
import type { ConfirmationGate } from './ports';

export { SNAPSHOT_EVERY };
export type { ConversationDeps };
export type { EventListener };

export type DeltaListener = (delta: LlmDelta | { type: 'end' }) => void;

export class Conversation {
  readonly id: string;
  private readonly store: EventStore<StoredConversationEvent>;
  /** Everything derived from the log that the loop reads: state, prompt view, pending actions. */
  private readonly memory: ConversationMemory;
  /** How `open` got here: the snapshot it started from (null: a full replay) and the events read after it. */
  readonly opened: { fromSnapshot: number | null; replayed: number };
  private readonly snapshotEvery: number;
  private settings: AgentSettings;
  private readonly deltaListeners = new Set<DeltaListener>();
  /** The run in flight, with what pause and interrupt share with it. */
  private readonly runLoop: RunLoop;
  private readonly secretGuard: SecretGuard;
  private readonly journal: ConversationJournal;
  private readonly toolSet: ToolSet;
  private readonly policies: ConversationPolicies;
  private readonly agentStep: AgentStep;
  private readonly dispatcher: ActionDispatcher;
  /** The hooks around each action (none: no hook is configured). */
  private readonly toolHooks: ToolHooks | undefined;
  /** The gate with the hooks' verdicts on top. */
  private readonly gate: ConfirmationGate;
  /** The hooks at the conversation's own moments (prompt, stop, wait, session start and end). */
  private readonly hooks: ConversationHooks;

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
    this.journal = new ConversationJournal(
      this.store,
      this.memory,
      this.secretGuard,
      this.snapshotEvery,
      () => payloadSchemasOf(this.toolSet.active()),
      deps.agent?.stamp,
    );
    const log = this.journal;
    this.hooks = new ConversationHooks(
      deps.hooks,
      this.journal,
      () => this.store.readOnly,
      deps.agent?.start !== undefined,
    );
    const tools = () => this.toolSet.active();
    this.toolHooks = deps.hooks ? new ToolHooks(deps.hooks, tools, () => this.state.mode) : undefined;
    this.gate = this.toolHooks ? this.toolHooks.gate(deps.gate) : deps.gate;
    if (this.toolHooks) {
      const hooks = this.toolHooks;
      for (const e of load.memory.recent) hooks.absorb(e);
      this.journal.onEvent((e) => hooks.absorb(e));
    }
    const memory = this.memory;
    const settings = () => this.bound();
    const offers = deps.agent?.offers?.bind(deps.agent);
    this.toolSet = new ToolSet(deps.tools, deps.toolSource, settings, offers);
    const ctx: PolicyContext = {
      log,
      get settings() {
        return settings();
      },
      get recent() {
        return memory.recent;
      },
    };
    const boundary = deps.boundary;
    this.policies = new ConversationPolicies(
      [
        ...(boundary ? [{ name: 'host-boundary', refuseAction: (a: ActionEvent) => boundary(a) }] : []),
        ...(this.toolHooks ? [hooksPolicy(this.hooks, this.toolHooks)] : []),
        ...defaultPolicies({
          toolSet: this.toolSet,
          planMode: { cwd: deps.cwd, shellCwd: () => deps.gate.shellCwdNow?.(), tools },
          model: () => deps.llm.model,
          ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
          ...(deps.shell ? { shell: deps.shell } : {}),
          gate: deps.gate,
        }),
      ],
      ctx,
    );
    const abortable = () => this.runLoop.abortable();
    this.agentStep = new AgentStep({
      id: deps.id,
      llm: deps.llm,
      ...(deps.condenser ? { condenser: deps.condenser } : {}),
      ...(deps.condenserLlm ? { condenserLlm: deps.condenserLlm } : {}),
      ...(deps.images ? { images: deps.images } : {}),
      log,
      prompt: () => memory.prompt(),
      policies: this.policies,
      tools: () => this.toolSet.offered(),
      abortable,
      emitDelta: (d) => this.emitDelta(d),
      beforeCompact: async (trigger) => void (await this.hooks.notify('PreCompact', { trigger })),
    });
    this.dispatcher = new ActionDispatcher({
      log,
      pending: () => this.pendingActionEvents(),
      gate: this.gate,
      policies: this.policies,
      checkpoints: new ActionCheckpoints(deps.id, log, deps.checkpoints, tools),
      tools,
      ports: () => this.secretGuard.ports(deps.ports),
      cwd: deps.cwd,
      abortable,
      pauseSignal: () => this.runLoop.pauseSignal,
      ...(deps.userEditNotes ? { userEditNotes: deps.userEditNotes } : {}),
      ...(this.toolHooks ? { afterRun: (a, o) => this.toolHooks!.afterTool(log, a, o) } : {}),
    });
    this.runLoop = new RunLoop({
      journal: log,
      policies: this.policies,
      hooks: this.hooks,
      readOnly: () => this.store.readOnly,
      status: () => this.status,
      awaitingConfirmation: () => this.awaitingConfirmation(),
      pending: () => this.pendingActionEvents(),
      settleRecent: async () => void (await memory.settleRecent()),
      firstRun: () => !this.state.pendingActions.length && memory.recent.every((e) => e.source !== 'agent'),
      step: () => this.step(),
      maxIterations: () => ({ bound: this.bound().maxIterations, own: this.settings.maxIterations }),
      agentName: () => deps.agent?.stamp().agent_name,
    });
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
      if (load.fromSnapshot === null && load.replayed >= c.snapshotEvery) await c.journal.snapshotHead();
      // A delegated agent's log starts by naming the parent's conversation and action.
      if (deps.store.length === 0 && deps.agent?.start)
        await c.journal.append(
          'ConversationStateUpdateEvent',
          { key: AGENT_START_KEY, value: deps.agent.start },
          true,
        );
      // A new log gets its system prompt; so does one whose record of it is unreadable or gone
      // (re-derived from the current settings, as a new conversation makes it): no request goes
      // without one.
      if (deps.store.length === 0 || !(await c.memory.hasSystemPrompt())) await c.appendSystemPrompt();
      await recoverOnOpen(c.journal, deps.store);
    }
    return c;
  }

  private async appendSystemPrompt(): Promise<void> {
    const prompt = buildSystemPrompt({
      cwd: this.deps.cwd,
      platform: this.deps.platform ?? process.platform,
      skills: this.deps.skills ?? [],
      toolsEnabled: this.settings.toolsEnabled,
    });
    await this.journal.append('SystemPromptEvent', {
      system_prompt: {
        type: 'text',
        text: [prompt, ...(this.deps.agent?.promptSections ?? [])].join('\n\n'),
      },
      tools: this.toolSet.active().map((t) => toolDefinition(t) as unknown as Record<string, unknown>),
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
    return this.runLoop.running;
  }

  /** The settings with the running agent's limits (a handoff's smaller budget) applied. */
  private bound(): AgentSettings {
    return withinAgentLimits(this.settings, this.deps.agent?.limits?.());
  }

  updateSettings(patch: Partial<AgentSettings>): void {
    this.settings = { ...this.settings, ...patch };
  }

  onEvent(listener: EventListener): () => void {
    return this.journal.onEvent(listener);
  }

  onDelta(listener: DeltaListener): () => void {
    this.deltaListeners.add(listener);
    return () => this.deltaListeners.delete(listener);
  }

  /** Pending actions the user must still confirm (empty when nothing waits). */
  awaitingConfirmation(): ActionEvent[] {
    return this.dispatcher.awaiting();
  }

  /** How the gate rates the actions that wait for the user now: their risk and why. */
  heldRisks(): ConfirmationDecision[] {
    return this.gate.decide(this.awaitingConfirmation());
  }

  /** Pending actions that started before a crash and have no recorded result. */
  inDoubtActions(): ActionEvent[] {
    return inDoubtOf(this.state, this.pendingActionEvents());
  }

  /**
   * Records the user's message. `attachments` are the texts of what the user attached (each with its
   * own header), kept in the message's content after the text, so the log holds what the model saw;
   * `images` are image URLs (stored-image URLs, data or web URLs).
   */
  async sendMessage(text: string, opts: UserMessageParts = {}): Promise<void> {
    const told = await this.hooks.prompt(text);
    if (told.length) opts = { ...opts, context: [...(opts.context ?? []), ...told] };
    const skills = triggeredSkills(this.deps.skills ?? [], text, this.state.activatedSkills);
    await this.journal.append('MessageEvent', userMessageFields(text, opts, skills), true);
  }

  /** The SessionEnd hooks, when this process ran the conversation (the host calls it as it closes). */
  endSession(reason: string): Promise<void> {
    return this.hooks.endSession(reason);
  }

  /** Runs the agent until it finishes, waits for confirmation, is paused, gets stuck, fails or hits the limit. */
  run(): Promise<ExecutionStatus> {
    return this.runLoop.run();
  }

  /**
   * Asks the loop to stop between steps; the current step finishes first. Delegated agents running
   * now pause at their next step too, and the delegation waits, unanswered, to resume with the run.
   */
  async pause(): Promise<void> {
    if (await this.runLoop.pause()) return;
    if (this.status !== 'paused' && this.status !== 'finished') await this.journal.pause();
  }

  /** Cancels the LLM call or tool in flight; every action left unanswered gets an error observation. */
  async interrupt(): Promise<void> {
    await this.runLoop.interrupt();
    const pending = this.pendingActionEvents();
    // A delegation suspended by a pause ends its paused agents first: none is left paused for good.
    // One that cannot be ended stays as it was; the stop goes on.
    for (const a of pending) {
      const tool = this.toolSet.active().find((t) => t.name === a.tool_name);
      await tool?.abandon?.(a.id).catch(() => undefined);
    }
    await answerWithError(this.journal, pending, STOPPED_BEFORE_RUN);
    if (this.status !== 'paused') await this.journal.pause();
  }

  /**
   * Approves pending actions (all of the batch by default); call `run` to execute them. Each is
   * approved at the risk it is rated now: should its rating rise before it runs, it asks again.
   */
  async approve(actionIds?: string[]): Promise<void> {
    // Tools from outside rate their own calls: they must be there before a risk is recorded.
    await this.policies.prepare();
    const pending = this.pendingActionEvents();
    const ids = (actionIds ?? pending.map((a) => a.id)).filter((id) => pending.some((a) => a.id === id));
    if (!ids.length) return;
    const approving = pending.filter((a) => ids.includes(a.id));
    const risks = Object.fromEntries(this.gate.decide(approving).map((d) => [d.actionId, d.risk]));
    await this.journal.append(
      'ConversationStateUpdateEvent',
      { key: APPROVED_ACTIONS_KEY, value: { action_ids: ids, risks } },
      true,
    );
  }

  /** Records an agent's start, end or usage (a child's, mirrored here), or the user's task decision. */
  async recordAgentUpdate(key: string, value: unknown, source?: 'user'): Promise<Event> {
    return this.journal.append(
      'ConversationStateUpdateEvent',
      { key, value, ...(source && { source }) } as CreateFields<'ConversationStateUpdateEvent'>,
      true,
    );
  }

  /** The user rejected a change of the agent's in the editor (see REVIEW_REJECTED_KEY). */
  async recordReviewRejected(value: {
    path: string;
    action_ids: string[];
    whole_file: boolean;
  }): Promise<Event> {
    return this.journal.append(
      'ConversationStateUpdateEvent',
      { key: REVIEW_REJECTED_KEY, value } as CreateFields<'ConversationStateUpdateEvent'>,
      true,
    );
  }

  /** Gives the conversation a title of the user's choosing (recorded as an event, like every change). */
  async rename(title: string): Promise<void> {
    if (!shortTitle(title)) throw new WordedError((l10n) => l10n.t('A conversation title cannot be empty.'));
    await this.journal.append('ConversationStateUpdateEvent', { key: TITLE_KEY, value: title.trim() }, true);
  }

  /** Switches between plan mode (read only, answer with a plan) and act mode; recorded as an event. */
  async setMode(mode: AgentMode): Promise<void> {
    if (this.state.mode === mode) return;
    await this.journal.append('ConversationStateUpdateEvent', { key: AGENT_MODE_KEY, value: mode }, true);
  }

  /**
   * Approves the plan: the switch to act mode (an `agent_mode` update), then the user's go-ahead
   * with the plan (as the user may have edited it; default: the current task list), the note on
   * act mode riding along as context for the model. Call `run` next.
   */
  async approvePlan(tasks?: readonly Task[]): Promise<void> {
    const plan = tasks ?? this.state.tasks;
    if (plan.length === 0)
      throw new WordedError((l10n) => l10n.t('There is no plan to approve: the task list is empty.'));
    await this.setMode('act');
    await this.sendMessage(approvedPlanMessage(plan), { context: [ACT_AFTER_PLAN_NOTE] });
  }

  /** Rejects pending actions with a reason the agent will read; call `run` to let it adapt. */
  async reject(reason: string, actionIds?: string[]): Promise<void> {
    const pending = this.pendingActionEvents();
    const targets = actionIds ? pending.filter((a) => actionIds.includes(a.id)) : pending;
    for (const a of targets) {
      await this.journal.append('UserRejectObservation', {
        rejection_reason: reason || 'The user rejected this action.',
        action_id: a.id,
        tool_name: a.tool_name,
        tool_call_id: a.tool_call_id,
      } as CreateFields<'UserRejectObservation'>);
    }
    if (this.status === 'waiting_for_confirmation' && this.awaitingConfirmation().length === 0) {
      await this.journal.setStatus('idle');
    }
  }

  /**
   * Carries out the user's choice for the actions in doubt after a crash (started, no recorded
   * result): 'rerun' approves them, so the next run executes them again; 'skip' answers each as
   * skipped, so the model learns it did not run again. Call `run` to continue.
   */
  async resolveInDoubt(choice: 'rerun' | 'skip', actionIds?: readonly string[]): Promise<void> {
    const targets = this.inDoubtActions().filter((a) => !actionIds || actionIds.includes(a.id));
    if (choice === 'rerun') await this.approve(targets.map((a) => a.id));
    else await skipInDoubt(this.journal, targets);
  }

  /** Records a restore of the workspace's files: the checkpoint of the files before it, so it can be undone. */
  async recordRestore(value: CheckpointEventValue): Promise<Event> {
    return this.journal.append('ConversationStateUpdateEvent', { key: CHECKPOINT_KEY, value }, true);
  }

  /** Asks for a condensation of the history before the next LLM call. */
  requestCondensation(): void {
    this.agentStep.requestCondensation();
  }

  condenseNow(): Promise<boolean> {
    return this.agentStep.condenseNow();
  }

  /**
   * Writes a fork of this conversation into an empty store: its branch up to `fromEventId`, ready
   * to continue from there. Open the fork with `Conversation.open` on that store.
   */
  async fork(fromEventId: string, target: EventStore<StoredConversationEvent>): Promise<void> {
    await forkStore(this.store, this.id, fromEventId, target);
  }

  /** Runs a command of the host's before the agent (a worktree's setup), recorded as an action: host-command.ts. */
  runHostCommand(cmd: HostCommand, run: () => Promise<HostCommandResult>): Promise<HostCommandResult> {
    return runHostCommand(this.journal, cmd, run);
  }

  /** Events from the log, in order, skipping unreadable records. */
  async events(): Promise<Event[]> {
    const out: Event[] = [];
    for await (const slot of this.store.iterate(0)) if (!isCorruptRecord(slot)) out.push(slot as Event);
    return out;
  }

  /** One unit of progress: the pending actions dispatched, or the agent's step (condense or ask the LLM). */
  private async step(): Promise<StepOutcome | DispatchOutcome> {
    let pending = this.pendingActionEvents();
    if (!pending.length) return this.agentStep.take();
    // The hooks decide first, so the gate and the user see their verdicts and rewrites.
    if (this.toolHooks) {
      await this.toolHooks.beforeTools(this.journal, pending);
      pending = this.pendingActionEvents();
    }
    return this.dispatcher.dispatch(pending);
  }

  /** The pending actions as they will run (a hook's accepted rewrite applied). */
  private pendingActionEvents(): ActionEvent[] {
    const hooks = this.toolHooks;
    return this.state.pendingActions
      .map((p) => this.memory.pendingAction(p.actionId))
      .filter((a): a is ActionEvent => a !== undefined)
      .map((a) => (hooks ? hooks.effective(a) : a));
  }

  private emitDelta(d: LlmDelta | { type: 'end' }): void {
    for (const shown of this.secretGuard.delta(d)) for (const l of this.deltaListeners) l(shown);
  }
}
