// One open conversation in the editor: the core Conversation on a segment log under the
// workspace storage, with the VS Code ports (workspace edits, an integrated terminal). Runs are
// started here and never awaited by UI code; their failures become events or log lines.
import type { SignatureCheck } from '../signing/verify';
import type { AgentMode } from '../../../core/state';
import * as vscode from 'vscode';
import type { Conversation } from '../../../core/agent/conversation';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { PolicyGate } from '../../../core/agent/policy-gate';
import type { Event } from '../../../core/events';
import { isCorruptRecord, type EventStore, type Slot } from '../../../core/log/event-store';
import { hasLiveWriter, liveWriter } from '../../../core/log/lock';
import { describeHolder } from '../handoff/lock-holder';
import { type ExecutionStatus, statusForReader } from '../../../core/state';
import type { ToolSpec } from '../../../core/tools';
import type { NamedSecret } from '../../../core/secrets';
import type { ConversationHeader, PlanStep, SequencedEvent } from '../chat/chat-backend';
import type { ImageStore } from '../../../core/attachments/image-store';
import { readAgentSettings } from '../settings/config';
import type { IntegratedTerminalPort, TerminalMode } from '../ports/terminal-port';
import { openEditorAgentSession } from './editor-agent-session';
import type { EditorHooks } from '../hooks/editor-hooks';
import { HookRefusal } from '../../../core/agent/conversation-hooks';
import { errorText } from '../../../core/text/l10n';
import { openWritable } from '../handoff/writable-log';
import { configuredModel, heldBy, readOnlyBecause, signatureFields } from './session-header';
import type { SessionDeps } from './session-deps';
import type { TaskStepGuard } from '../../node/worktrees/task-steps';
import { planAwaitsApproval } from '../../../core/state/plan-approval';
import { existsSync } from 'node:fs';
import { TASK_DECISION_KEY, withSummary } from '../../../core/worktrees/task-decision';
import { TaskDecisionInbox } from '../../node/worktrees/task-decision-inbox';

export type { ChildDecisions, SessionDeps } from './session-deps';

/** Statuses after which no command of this run will come: its terminal tab is closed. */
const RUN_ENDED = new Set<ExecutionStatus>(['finished', 'error', 'stuck']);

export class ConversationSession {
  readonly id: string;
  readonly dir: string;
  private terminalRef: { port?: IntegratedTerminalPort } = {};
  private running: Promise<ExecutionStatus> | undefined;
  /** Decisions the CLI left for this window to record, while it holds a task's log. */
  private inbox: TaskDecisionInbox | undefined;
  /** A run was asked for while one was ending (an approval as it stopped to wait): run again after. */
  private runAgain = false;
  /** The last verification's verdict, shown as a badge in the chat header. */
  private signature: SignatureCheck | undefined;
  /** Why the last run asked for did not start (the repository's hooks declined, a hook refused the message). */
  hooksRefusal: string | undefined;

  private constructor(
    private readonly deps: SessionDeps,
    readonly conversation: Conversation,
    private readonly store: EventStore<StoredConversationEvent>,
    private readonly tools: ToolSpec[],
    /** The gate the conversation asks; the header reads its decisions for the pending risks. */
    private readonly gate: PolicyGate,
    private readonly imageStore: ImageStore,
    /** The repository's hooks must be accepted before a run (editor-hooks.ts). */
    private readonly hooks: EditorHooks,
  ) {
    this.id = deps.id;
    this.dir = deps.dir;
  }

  static async open(deps: SessionDeps): Promise<ConversationSession> {
    const chain = { conversationId: deps.id, headFile: deps.headFile };
    const store = await openWritable(deps, chain, (why) => {
      deps.log.warn(`Conversation ${deps.id}: not signed from here on: ${why}`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Logbook: this conversation has a damaged record written before signing ({0}), so its new events are not signed. Logbook: Verify Conversation names the record.',
          why,
        ),
      );
    });
    if (store.openReport.quarantined.length || store.openReport.truncatedBytes) {
      deps.log.warn(
        `Conversation ${deps.id}: recovered its log on open (${JSON.stringify(store.openReport)})`,
      );
    }
    const { conversation, gate, tools, toolSource, images, terminal, hooks } = await openEditorAgentSession(
      deps,
      store,
    );
    const { fromSnapshot, replayed } = conversation.opened;
    deps.log.info(
      fromSnapshot === null
        ? `Conversation ${deps.id}: opened by replaying its ${replayed} events`
        : `Conversation ${deps.id}: opened from its snapshot at event ${fromSnapshot} and ${replayed} events after it`,
    );
    const session = new ConversationSession(deps, conversation, store, tools, gate, images, hooks);
    if (!store.readOnly) session.holdTask();
    // Reopened while an action waits: its server must run for its tool to be rated and shown.
    if (conversation.status === 'waiting_for_confirmation' && toolSource)
      void toolSource.prepare().then(
        () => deps.onHeader(),
        () => undefined,
      );
    terminal.title = () => conversation.state.title ?? 'Agent';
    // What an external agent did besides its replies goes into the log as it happens.
    if (deps.external) deps.external.recorder = (r) => conversation.recordAgentUpdate(r.key, r.value);
    session.terminalRef = terminal;
    conversation.onEvent((event, seq) => {
      deps.onAppend([{ seq, event: toViewJson(event) }]);
      deps.onHeader();
    });
    conversation.onDelta((d) =>
      deps.onStream(
        d.type === 'tool_call'
          ? {
              type: 'tool_call',
              index: d.index,
              ...(d.name ? { name: d.name } : {}),
              argumentsDelta: d.argumentsDelta,
            }
          : d,
      ),
    );
    return session;
  }

  get readOnly(): boolean {
    return this.store.readOnly;
  }

  /** The task's step guard, for the task's own log only (a sub-agent runs inside its parent's step). */
  private get stepGuard(): TaskStepGuard | undefined {
    return this.deps.stepGuard?.dir === this.dir ? this.deps.stepGuard : undefined;
  }

  /**
   * Holds the task's log for the CLI (HELD), and appends the decisions `logbook review`, `apply`
   * and `discard` leave for this window while it holds it.
   */
  private holdTask(): void {
    const guard = this.stepGuard;
    if (!guard) return;
    guard.hold();
    this.inbox = new TaskDecisionInbox(
      this.dir,
      (d) => this.conversation.recordAgentUpdate(TASK_DECISION_KEY, withSummary(d), 'user'),
      (err) =>
        this.deps.log.warn(`Conversation ${this.id}: a task decision was not recorded: ${String(err)}`),
    );
  }

  /** The task's worktree is gone (discarded): its conversation is kept to read, nothing more is sent. */
  private get taskGone(): boolean {
    const worktree = this.deps.task ? this.deps.roots?.[0] : undefined;
    return worktree !== undefined && !existsSync(worktree);
  }

  /** A step is running in this window. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** How the agent's terminal runs commands (shell integration or the fallback); undefined before its first. */
  get terminalMode(): TerminalMode | undefined {
    return this.terminalRef.port?.mode;
  }

  /** Writes what is pending, the signature over the chain head included (a no-op when read-only). */
  async flush(): Promise<void> {
    if (!this.store.readOnly) await this.store.flush();
  }

  /** Records what verifying the log found, for the header's badge and the first bad event. */
  setSignature(result: SignatureCheck): void {
    this.signature = result;
    this.deps.onHeader();
  }

  get verified(): SignatureCheck | undefined {
    return this.signature;
  }

  /** Events in the log (the signed store's length), to tell whether any were added while verifying. */
  get length(): number {
    return this.store.length;
  }

  /** The secrets this window knows, to redact from anything shown or written outside the log. */
  get secrets(): readonly NamedSecret[] {
    const own = this.deps.llm.knownSecrets.current;
    const more = [...(this.deps.mcp?.knownSecrets() ?? []), ...(this.deps.external?.secrets() ?? [])];
    return more.length ? [...own, ...more] : own;
  }

  header(): ConversationHeader {
    const s = this.conversation.state;
    const t = s.metrics.total;
    const pending = this.conversation.awaitingConfirmation();
    return {
      id: this.id,
      title: s.title ?? 'New conversation',
      // Read-only here: another process writes it, or wrote it and died (then it is interrupted).
      status: this.readOnly ? statusForReader(s.status, hasLiveWriter(this.dir)).status : s.status,
      promptTokens: t.promptTokens,
      completionTokens: t.completionTokens,
      cachedTokens: t.cachedTokens,
      reasoningTokens: t.reasoningTokens,
      cost: t.cost,
      pendingActionIds: pending.map((a) => a.id),
      pendingRisks: this.gate.decide(pending).map((d) => ({
        actionId: d.actionId,
        risk: d.risk,
        reason: [
          ...(d.ruleReasons ?? d.riskReasons ?? d.reasons),
          ...(d.notUndoable ? [d.notUndoable] : []),
        ].join('; '),
        ...(d.ruleReasons ? { byRules: true } : {}),
      })),
      // A discarded task's conversation is kept to read: no message, no resume.
      readOnly: this.readOnly || this.taskGone,
      ...readOnlyBecause(this.taskGone, this.readOnly),
      ...(this.readOnly ? heldBy(this.dir) : {}),
      ...(this.deps.task ? { task: this.deps.task } : {}),
      mode: s.mode,
      ...(!this.readOnly && planAwaitsApproval(s) ? { planAwaitsApproval: true } : {}),
      ...(this.signature ? signatureFields(this.signature) : {}),
      model: this.deps.external ? { name: this.deps.external.name, provider: 'acp' } : configuredModel(),
      ...(this.deps.children?.views().length ? { children: this.deps.children.views() } : {}),
    };
  }

  async eventsAfter(afterSeq: number): Promise<SequencedEvent[]> {
    const out: SequencedEvent[] = [];
    let seq = afterSeq + 1;
    for await (const slot of this.store.iterate(seq)) {
      out.push({ seq, event: viewJsonOf(slot) });
      seq++;
    }
    return out;
  }

  /** The last `max` events before `beforeSeq`, in order. */
  async eventsBefore(beforeSeq: number, max: number): Promise<SequencedEvent[]> {
    const to = Math.min(Math.max(0, beforeSeq), this.store.length);
    const from = Math.max(0, to - Math.max(0, max));
    const slots = await this.store.slice(from, to);
    return slots.map((slot, i) => ({ seq: from + i, event: viewJsonOf(slot) }));
  }

  get eventCount(): number {
    return this.store.length;
  }

  /** The log, for the chat's timeline to read a long conversation from its snapshots. */
  get timelineStore(): EventStore<StoredConversationEvent> {
    return this.store;
  }

  /** The readable events from `fromSeq` on, each with its seq (unreadable records left out). */
  async readableEvents(fromSeq: number): Promise<{ seq: number; event: Event }[]> {
    const out: { seq: number; event: Event }[] = [];
    let seq = Math.max(0, fromSeq);
    for await (const slot of this.store.iterate(seq)) {
      if (!isCorruptRecord(slot)) out.push({ seq, event: slot as Event });
      seq++;
    }
    return out;
  }

  /** The tools the model is offered besides the MCP servers' and the editor's (the session factory's set). */
  get toolNames(): string[] {
    return this.tools.map((t) => t.name);
  }

  /** Where this conversation's images are stored (its folder's `attachments/`). */
  get images(): ImageStore {
    return this.imageStore;
  }

  /** Records the user's message and runs; `beforeRun` (a worktree task's setup) may hold the run back. */
  async send(
    text: string,
    attached?: { texts: readonly string[]; images: readonly string[] },
    beforeRun?: () => Promise<boolean>,
  ): Promise<void> {
    this.ensureWritable();
    // Declined hooks refuse the run before the message is recorded, as the CLI refuses it.
    if (await this.refusedByHooks()) return;
    // An attached file may hold the key just set: the redactor must know it before this is recorded.
    await this.deps.llm.knownSecrets.refresh();
    try {
      await this.conversation.sendMessage(
        text,
        attached ? { attachments: attached.texts, images: attached.images } : {},
      );
    } catch (err) {
      // A UserPromptSubmit hook's refusal is the user's to read, not a failure of the chat.
      if (!(err instanceof HookRefusal)) throw err;
      this.refuse(errorText(err, vscode.l10n));
      return;
    }
    if (beforeRun && !(await beforeRun())) return;
    this.startRun();
  }

  /** Starts (or joins) a run in the background with the current settings. */
  startRun(): void {
    if (this.readOnly || this.taskGone) return;
    if (this.running) {
      // The run may already be past the point where it would see what was just recorded (an
      // approval recorded while it ends to wait for one): run again once it ended, if so.
      this.runAgain = true;
      return;
    }
    const step = this.stepGuard?.step();
    if (this.stepGuard && !step) {
      const why = vscode.l10n.t(
        'Logbook: the task is being applied or discarded; its agent does not run now.',
      );
      this.deps.log.warn(`Conversation ${this.id}: ${why}`);
      void vscode.window.showErrorMessage(why);
      return;
    }
    this.running = this.runUntilSettled().finally(() => {
      step?.release();
      this.running = undefined;
      // The task is over: its terminal tab goes (the next command opens one where it left off).
      if (RUN_ENDED.has(this.conversation.status)) this.terminalRef.port?.closeTab();
      this.deps.onHeader();
    });
  }

  private async runUntilSettled(): Promise<ExecutionStatus> {
    let status: ExecutionStatus;
    if (await this.refusedByHooks()) return this.conversation.status;
    do {
      this.runAgain = false;
      this.conversation.updateSettings({ ...readAgentSettings(), ...this.deps.settings });
      status = await this.conversation.run().catch((err: unknown) => {
        this.deps.log.error(
          `Conversation ${this.id}: the run failed: ${(err as Error).stack ?? String(err)}`,
        );
        return this.conversation.status;
      });
    } while (this.runAgain && this.approvedWhileEnding());
    return status;
  }

  /** It stopped to wait for the user, who has answered everything since: nothing is left to ask. */
  private approvedWhileEnding(): boolean {
    const c = this.conversation;
    return c.status === 'waiting_for_confirmation' && c.awaitingConfirmation().length === 0;
  }

  /** Resolves when the current run (if any) ends. */
  async settled(): Promise<ExecutionStatus> {
    return (await this.running) ?? this.conversation.status;
  }

  async approve(ids: string[]): Promise<void> {
    this.ensureWritable();
    if (!(await this.deps.children?.approve(ids))) await this.conversation.approve(ids);
    this.startRun();
  }

  async setMode(mode: AgentMode): Promise<void> {
    this.ensureWritable();
    await this.conversation.setMode(mode);
    this.deps.onHeader();
  }

  /** Act mode, the plan (as the user approved it) as the next message, and a run to carry it out. */
  async approvePlan(tasks: readonly PlanStep[]): Promise<void> {
    this.ensureWritable();
    await this.conversation.approvePlan(
      tasks.map((t) => ({ title: t.title, notes: t.notes, status: t.status ?? 'todo' })),
    );
    this.startRun();
  }

  async reject(ids: string[], reason: string): Promise<void> {
    this.ensureWritable();
    if (!(await this.deps.children?.reject(ids, reason))) await this.conversation.reject(reason, ids);
    this.startRun();
  }

  async rename(title: string): Promise<void> {
    this.ensureWritable();
    await this.conversation.rename(title);
  }

  async pause(): Promise<void> {
    await this.conversation.pause();
  }

  async stop(): Promise<void> {
    await this.conversation.interrupt();
    await this.terminalRef.port?.interrupt().catch(() => {});
  }

  /**
   * Window closing: a run in flight is interrupted (recorded as a pause); a conversation that waits
   * for confirmation keeps waiting, so a reload shows the same Confirm / Reject.
   */
  async dispose(): Promise<void> {
    if (this.running) {
      const stopped = this.conversation.interrupt().catch(() => {});
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 2_000))]);
    }
    // Before the log closes, so the SessionEnd hooks' runs are recorded; a slow hook does not hold the window.
    if (!this.readOnly)
      await Promise.race([
        this.conversation.endSession('close').catch(() => undefined),
        new Promise((r) => setTimeout(r, 2_000)),
      ]);
    await this.deps.children?.dispose();
    await this.deps.external?.close();
    this.terminalRef.port?.dispose();
    if (!this.deps.sharedSandbox) await this.deps.sandbox?.sandbox.dispose().catch(() => undefined);
    this.inbox?.dispose();
    this.stepGuard?.dispose();
    await this.store.close();
  }

  /** Asks about the repository's hooks not accepted yet; declined, says why and refuses the run. */
  private async refusedByHooks(): Promise<boolean> {
    const why = await this.hooks.beforeRun();
    this.hooksRefusal = undefined;
    if (!why) return false;
    this.refuse(why);
    return true;
  }

  private refuse(why: string): void {
    this.hooksRefusal = why;
    this.deps.log.warn(`Conversation ${this.id}: ${why}`);
    void vscode.window.showErrorMessage(why);
  }

  private ensureWritable(): void {
    if (this.taskGone)
      throw new Error(
        vscode.l10n.t(
          'Task {0} was discarded; its conversation is kept to read.',
          this.deps.task?.name ?? '',
        ),
      );
    if (this.readOnly) {
      const writer = liveWriter(this.dir);
      const who = writer ? describeHolder(writer) : (this.store.lockHeldBy ?? 'unknown');
      throw new Error(`This conversation is open in another window (${who}); it is read-only here.`);
    }
  }
}

/** Events cross to the webview as plain JSON (opaque events keep their original record). */
function toViewJson(event: Event): SequencedEvent['event'] {
  return JSON.parse(JSON.stringify(event)) as SequencedEvent['event'];
}

function viewJsonOf(slot: Slot<StoredConversationEvent>): SequencedEvent['event'] {
  return isCorruptRecord(slot) ? { ...slot } : toViewJson(slot as Event);
}
