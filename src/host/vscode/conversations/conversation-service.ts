// Owns the workspace's conversations: which exist (the index), which one the chat panel shows, and
// what the user asks of them (messages, approvals, forks, restores, imports, verification, deletion);
// the open sessions themselves are kept by ConversationSessions. Implements the ChatBackend the
// panel talks to, and is what the commands, the tree and the status bar read. Conversations live in
// the workspace's own storage folder, whichever one VS Code hands this window
// (storage/workspace-home.ts); one another live window writes opens read-only until it is gone.
import { ChildReveals, type DelegatedAgentTarget } from '../agents/reveal-delegated-agent';
import type { AgentMode } from '../../../core/state';
import type { RestoreOutcome, RestoreUi } from '../checkpoints/restore-files';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { removeEntry, statusForReader, type IndexEntry } from '../../../core/state';
import { hasLiveWriter } from '../../../core/log';
import type { ChatBackend, ConversationHeader, PlanStep, SequencedEvent } from '../chat/chat-backend';
import type { LlmSettingId, ReplayReport, TimelinePoint } from '../../../protocol/messages';
import { TimelineHost } from '../timeline/timeline-host';
import { addAllowRule, readDefaultMode, readEditorSettings, readLlmProvider } from '../settings/config';
import { llmSettingsFrom } from '../../../core/settings';
import { isDemoEndpoint } from '../../node/demo-model/demo-endpoint';
import { DEMO_TASKS } from '../../node/demo-model/demo-tasks';
import { activeDemo } from '../lm/demo-model';
import type { ConversationSession } from './conversation-session';
import { ConversationSessions, type ServiceHooks } from './conversation-sessions';
import { closeTaskSessions, refuseTaskDelete, type TaskConversationPlace } from './task-conversation-place';
import { heldTaskSession } from './task-conversation-place';
import { readLastShown, writeLastShown } from './last-shown';
import { bindAgent } from '../acp/editor-agent';
import { type ForkContext, forkFrom, restoreFilesAt } from '../checkpoints/fork-and-restore';
import { editorContextParts } from '../mentions/attachment-text';
import type { Attachment, MentionItem } from '../../../protocol/messages';
import { MentionSource } from '../mentions/mention-source';
import { type ResolvedAttachments, resolveAttachments } from '../mentions/resolve-attachments';
import { TerminalHistory } from '../mentions/terminal-history';
import type { SignatureCheck } from '../signing/verify';
import { errorText } from '../../../core/text/l10n';
import type { RemoteSession } from '../remote/remote-session';

const ACTIVE_KEY = 'logbook.activeConversation';

/** A conversation as the list shows it. */
export type ListedConversation = IndexEntry & {
  /** Why it shows as paused although its log says running (the process that ran it is gone). */
  interrupted?: string;
  /** What verifying its signatures last found in this window (on open, or the command). */
  verified?: SignatureCheck;
};

export class ConversationService extends ConversationSessions implements ChatBackend {
  private activeConversationId: string | undefined;
  private readonly activeEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly deleteEmitter = new vscode.EventEmitter<string>();
  readonly onDidDelete = this.deleteEmitter.event;
  readonly onDidChangeActive = this.activeEmitter.event;
  private readonly replayEmitter = new vscode.EventEmitter<{
    conversationId: string;
    report?: ReplayReport;
  }>();
  readonly onDidReplay = this.replayEmitter.event;
  /** A delegated agent's card to show in the chat (Conversations view). */
  private readonly childReveals = new ChildReveals();
  readonly onDidRevealChild = this.childReveals.onDidRevealChild;
  /** The chat's timeline: each conversation as it was at any event. */
  readonly timeline = new TimelineHost(
    (id) => this.session(id),
    (id) => this.checkpointStoreOf(id),
  );

  constructor(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, hooks: ServiceHooks) {
    super(context, log, hooks);
    this.activeConversationId = context.workspaceState.get<string>(ACTIVE_KEY);
    this.terminals = new TerminalHistory();
    this.mentions = new MentionSource(this.terminals, this.mcp);
  }

  /** Terminal commands and workspace files, for mentions in the composer. */
  private readonly terminals: TerminalHistory;
  private readonly mentions: MentionSource;

  /** Loads the conversation list (rebuilding the index from the folders if it is missing or damaged). */
  async initialize(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    this.adoptStrays();
    await this.index.load();
    this.listEmitter.fire();
    const last = readLastShown(this.root);
    this.activeConversationId = last?.id ?? this.activeConversationId;
    // A task's conversation shown last comes back after a reload, found again by its task's name.
    if (last?.task) await this.places.find(last.id, last.task, this.log);
    const id = this.activeConversationId;
    if (id && !this.index.has(id) && !this.places.has(id)) {
      this.activeConversationId = undefined;
    }
    if (this.activeConversationId) {
      await this.opened(this.activeConversationId).catch((err: unknown) =>
        this.log.error(`Could not reopen the conversation: ${String(err)}`),
      );
      this.activeEmitter.fire(this.activeConversationId);
    }
  }

  get activeId(): string | undefined {
    return this.activeConversationId;
  }

  get activeSession(): ConversationSession | undefined {
    return this.activeConversationId ? this.sessions.get(this.activeConversationId) : undefined;
  }

  list(): ListedConversation[] {
    return this.index.entries.map((e) => {
      const seen = this.asSeen(e);
      const verified = this.signatures.get(e.id);
      return verified ? { ...seen, verified } : seen;
    });
  }

  /**
   * An entry as this window shows it: one whose log says running while no live process holds it
   * (the window or CLI that ran it was killed) is paused, interrupted. Opening it records the
   * recovery, and its in-doubt actions wait for the user's choice.
   */
  private asSeen(e: IndexEntry): ListedConversation {
    if (e.status !== 'running' || this.sessions.get(e.id)?.readOnly === false) return e;
    const seen = statusForReader(e.status, hasLiveWriter(join(this.root, e.id)));
    return seen.interrupted ? { ...e, status: seen.status, interrupted: seen.interrupted } : e;
  }

  header(conversationId: string): ConversationHeader | undefined {
    return (this.remote.opened(conversationId) ?? this.sessions.get(conversationId))?.header();
  }

  /** The open session of a conversation, local or remote (remote/remote-session.ts). */
  private async opened(id: string): Promise<ConversationSession | RemoteSession> {
    return (await this.remote.of(id)) ?? (await this.session(id));
  }

  async eventsAfter(conversationId: string, afterSeq: number): Promise<SequencedEvent[]> {
    return (await this.opened(conversationId)).eventsAfter(afterSeq);
  }

  async eventsBefore(conversationId: string, beforeSeq: number, max: number): Promise<SequencedEvent[]> {
    return (await this.opened(conversationId)).eventsBefore(beforeSeq, max);
  }

  async eventCount(conversationId: string): Promise<number> {
    return (await this.opened(conversationId)).eventCount;
  }

  async setActive(id: string | undefined): Promise<void> {
    if (id) await this.opened(id);
    this.activeConversationId = id;
    writeLastShown(this.root, id ? { id, task: this.places.get(id)?.name } : undefined, this.log);
    await this.context.workspaceState.update(ACTIVE_KEY, id);
    this.activeEmitter.fire(id);
    this.listEmitter.fire();
  }

  /** Creates a conversation, makes it active and starts the agent on the task (and its editor context). */
  async startTaskWith(task: string, context: readonly string[] = [], agent?: string): Promise<string> {
    const s = await this.create(agent);
    await this.setActive(s.id);
    await this.sendTask(s, task, context);
    await this.refreshEntry(s);
    return s.id;
  }

  /**
   * Sends the task with the editor's context as attachment parts before any mentioned ones (the
   * chat shows them as attachments; the task alone is the message's text and so its title).
   */
  private async sendTask(
    s: ConversationSession,
    task: string,
    context: readonly string[],
    attached?: ResolvedAttachments,
  ): Promise<void> {
    if (!context.length) return s.send(task, attached);
    await s.send(task, { texts: [...context, ...(attached?.texts ?? [])], images: attached?.images ?? [] });
  }

  /** A worktree task's conversation, on the task's log with its worktree as workspace, shown in the chat. */
  async showTask(id: string, place: TaskConversationPlace): Promise<ConversationSession> {
    this.places.know(id, place);
    await this.setActive(id);
    return this.session(id);
  }

  /** The Tasks view saw a task change (its record, its log): its conversation's row may too. */
  tasksChanged(): void {
    this.listEmitter.fire();
  }

  /** Closes a task's conversation held here (its writer lock goes), unless a step of it runs. */
  letGoOfTask(dir: string): Promise<boolean> {
    return closeTaskSessions(this.sessions, dir);
  }

  /** A task's session this window writes (the Tasks view's Pause and Stop act on it). */
  heldTask(dir: string): { id: string; running: boolean } | undefined {
    return heldTaskSession(this.sessions, dir);
  }

  /** A new conversation; with `agent`, one the external agent of that name runs. */
  async create(agent?: string): Promise<ConversationSession> {
    const id = randomUUID();
    if (agent) bindAgent(join(this.root, id), agent);
    const s = await this.session(id);
    await this.refreshEntry(s);
    return s;
  }

  // --- ChatBackend intents ------------------------------------------------------------------

  async sendMessage(
    text: string,
    attachments?: { activeFile?: boolean; selection?: boolean; mentions?: Attachment[] },
    mode?: AgentMode,
  ): Promise<void> {
    const remote = this.activeConversationId ? await this.remote.of(this.activeConversationId) : undefined;
    if (remote) return remote.sendMessage(text, mode);
    const existing = this.activeSession;
    const s = existing ?? (await this.create());
    if (!this.activeConversationId) await this.setActive(s.id);
    // The composer's choice; a new conversation without one starts in logbook.agent.defaultMode.
    const wanted = mode ?? (existing ? undefined : readDefaultMode());
    if (wanted) await s.setMode(wanted);
    // Mentions are read now, as the message is recorded: the log keeps what the model will see.
    const mentioned = attachments?.mentions?.length
      ? await resolveAttachments(attachments.mentions, {
          images: s.images,
          terminals: this.terminals,
          confirm: async (message, action) =>
            (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
          readResource: (server, uri) => this.mcp.readResource(server, uri),
          getPrompt: (server, name) => this.mcp.getPrompt(server, name),
        })
      : undefined;
    await this.sendTask(s, text, editorContextParts(attachments), mentioned);
    await this.refreshEntry(s);
  }

  defaultMode(): AgentMode {
    return readDefaultMode();
  }

  /** The demo's tasks while the configured endpoint is the local demo model. */
  demoTasks(): readonly string[] | undefined {
    if (activeDemo()) return DEMO_TASKS;
    if (readLlmProvider() !== 'openai') return undefined;
    const llm = llmSettingsFrom(readEditorSettings());
    return isDemoEndpoint(llm.baseUrl, llm.model) ? DEMO_TASKS : undefined;
  }

  async setMode(conversationId: string, mode: AgentMode): Promise<void> {
    // A remote conversation's plan mode: Logbook's answers to what its server holds.
    if (this.remote.isRemote(conversationId)) return (await this.remote.of(conversationId))?.setMode(mode);
    await (await this.session(conversationId)).setMode(mode);
  }

  async approvePlan(conversationId: string, tasks: PlanStep[]): Promise<void> {
    await (await this.session(conversationId)).approvePlan(tasks);
  }

  async mentionCandidates(query: string, prompts = false): Promise<MentionItem[]> {
    return prompts ? this.mentions.prompts(query) : this.mentions.candidates(query);
  }

  async imageDataUrl(conversationId: string, url: string): Promise<string | undefined> {
    return (await this.session(conversationId)).images.dataUrl(url);
  }

  async startTask(): Promise<void> {
    await vscode.commands.executeCommand('logbook.startTask');
  }

  async approve(conversationId: string, actionIds: string[]): Promise<void> {
    await (await this.opened(conversationId)).approve(actionIds);
  }

  async reject(conversationId: string, actionIds: string[], reason: string): Promise<void> {
    await (await this.opened(conversationId)).reject(actionIds, reason);
  }

  async alwaysAllow(conversationId: string, actionId: string, commandPrefix: string): Promise<void> {
    await addAllowRule(commandPrefix);
    this.log.info(`Added the allow rule "${commandPrefix}"`);
    await this.approve(conversationId, [actionId]);
  }

  async pause(conversationId: string): Promise<void> {
    await (await this.opened(conversationId)).pause();
  }

  async resume(conversationId: string): Promise<void> {
    const remote = await this.remote.of(conversationId);
    if (remote) return remote.resume();
    (await this.session(conversationId)).startRun();
  }

  /** On an agent-server, Stop is its /interrupt: the model call in flight is cancelled, then paused. */
  async stop(conversationId: string): Promise<void> {
    const remote = await this.remote.of(conversationId);
    await (remote ? remote.stop() : (await this.session(conversationId)).stop());
  }

  /** "Continue from here" (a remote conversation forks on its server); `ui`: the offer to restore files. */
  forkFrom(
    conversationId: string,
    eventId: string,
    ui: { offerRestore?: (paths: string[]) => Promise<boolean>; restore?: RestoreUi } = {},
  ): Promise<{ forkId: string; offer?: Promise<RestoreOutcome | undefined> }> {
    return this.remote.isRemote(conversationId)
      ? this.remote.fork(conversationId, eventId, (id) => this.setActive(id))
      : forkFrom(this.forks, conversationId, eventId, ui);
  }

  /**
   * "Restore files to here": previews what a restore to the event changes, asks, restores (or forks
   * and restores), recorded in the conversation so it can be undone. `ui`: the questions (tests
   * script them); the editor's dialogs by default.
   */
  restoreFiles(conversationId: string, eventId: string, ui?: RestoreUi): Promise<RestoreOutcome> {
    return restoreFilesAt(this.forks, conversationId, eventId, ui);
  }

  /** What forking and restoring files need of the service. */
  private readonly forks: ForkContext = {
    root: () => this.root,
    log: () => this.log,
    session: (id) => this.session(id),
    checkpointStore: (id) => this.checkpointStoreOf(id),
    workspace: (id) => this.workspaceOf(id),
    isTask: (id) => this.places.has(id),
    signing: () => this.signingKey.identity(),
    headFile: (id) => this.headFile(id),
    opened: async (s) => {
      await this.refreshEntry(s);
      await this.setActive(s.id);
    },
  };

  /**
   * Imports an OpenHands SDK conversation folder or V0 trajectory file as a new conversation of this
   * workspace and shows it in the chat; resolves to its id.
   */
  async importConversation(from: string): Promise<string> {
    const { exportedChainId, importOpenHands } = await import('../../../core/agent/openhands-files');
    // A Logbook export keeps its signatures when imported under the id they are bound to.
    const bound = exportedChainId(from);
    const id = bound && /^[\w.-]+$/.test(bound) && !existsSync(join(this.root, bound)) ? bound : randomUUID();
    await importOpenHands(from, join(this.root, id), {
      id,
      identity: await this.signingKey.identity(),
      headFile: this.headFile(id),
    });
    const s = await this.session(id);
    await this.refreshEntry(s);
    await this.setActive(id);
    return id;
  }

  /**
   * Checks a conversation's events against its signed hash chain, as `logbook verify` does. An open
   * conversation is flushed first, so the signature over its newest events is on disk.
   */
  async verify(conversationId: string): Promise<SignatureCheck> {
    if (
      !this.index.has(conversationId) &&
      !this.sessions.has(conversationId) &&
      !this.places.has(conversationId)
    ) {
      throw new Error(vscode.l10n.t('There is no conversation {0}.', conversationId));
    }
    const session = this.sessions.get(conversationId);
    await session?.flush();
    const dir = this.places.get(conversationId)?.dir ?? join(this.root, conversationId);
    const result = await this.signatures.check(conversationId, dir);
    this.signatures.record(conversationId, result);
    return result;
  }

  async rename(conversationId: string, title: string): Promise<void> {
    const s = await this.session(conversationId);
    await s.rename(title);
    await this.refreshEntry(s);
  }

  /**
   * Deletes a conversation: stops its run, closes its terminal and log, removes its folder and its
   * index entry. Refused while another window has it open. Files the agent changed stay as they are.
   */
  async delete(conversationId: string): Promise<void> {
    refuseTaskDelete(this.places.get(conversationId));
    if (!this.sessions.has(conversationId) && !this.index.entries.some((e) => e.id === conversationId)) {
      throw new Error(vscode.l10n.t('There is no conversation {0}.', conversationId));
    }
    const s = await this.session(conversationId);
    if (s.readOnly) {
      throw new Error(
        vscode.l10n.t('This conversation is open in another window; close it there before deleting it.'),
      );
    }
    this.deleted.add(conversationId);
    await s.dispose();
    this.sessions.delete(conversationId);
    // Its delegated agents go with it: their sessions closed, its entry in the window's map removed.
    await this.forgetChildren(conversationId);
    this.signatures.forget(conversationId);
    this.timeline.forget(conversationId);
    await rm(join(this.root, conversationId), { recursive: true, force: true });
    // Its checkpoints go; what other conversations' checkpoints share stays.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (folder) {
      await this.checkpointStore()
        .release(conversationId)
        .catch((err: unknown) =>
          this.log.warn(`Releasing the checkpoints of ${conversationId} failed: ${String(err)}`),
        );
    }
    if (this.activeConversationId === conversationId) await this.setActive(undefined);
    await this.index.update((index) => removeEntry(index, conversationId));
    this.deleteEmitter.fire(conversationId);
  }

  /** A remote edit's diff is the server's whole change (remote-review.ts). */
  async openDiff(conversationId: string, actionId: string): Promise<void> {
    if (this.remote.isRemote(conversationId))
      return void (await (await this.remote.of(conversationId))?.review());
    await this.hooks.openDiff(conversationId, actionId);
  }

  async openInEditor(): Promise<void> {
    await this.hooks.openInEditor();
  }

  async openSettings(setting: LlmSettingId): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.openSettings', setting);
  }

  async setApiKey(): Promise<void> {
    await vscode.commands.executeCommand('logbook.setApiKey');
  }

  async selectModel(): Promise<void> {
    await vscode.commands.executeCommand('logbook.selectModel');
  }

  async showSandboxStatus(): Promise<void> {
    await vscode.commands.executeCommand('logbook.showSandboxStatus');
  }

  timelinePoint(conversationId: string, seq: number): Promise<TimelinePoint> {
    return this.timeline.pointAt(conversationId, seq);
  }

  async timelineDiff(
    conversationId: string,
    seq: number,
    path: string,
    against: 'start' | 'now',
  ): Promise<void> {
    await this.timeline.openDiff(conversationId, seq, path, against).catch(shownError);
  }

  async timelineOpenFiles(conversationId: string, seq: number): Promise<void> {
    await this.timeline.openFiles(conversationId, seq).catch(shownError);
  }

  /** Tells the chat that a replay of the conversation started (no report) or what it found. */
  showReplay(conversationId: string, report?: ReplayReport): void {
    this.replayEmitter.fire({ conversationId, ...(report ? { report } : {}) });
  }

  /** Shows the conversation in the chat, with the card of the delegated agent at the end of `childIds` revealed. */
  async revealChild(target: DelegatedAgentTarget): Promise<void> {
    if (!this.list().some((e) => e.id === target.conversationId))
      throw new Error(`There is no conversation ${target.conversationId}.`);
    await this.setActive(target.conversationId);
    this.childReveals.request(target);
  }

  override async dispose(): Promise<void> {
    this.childReveals.dispose();
    this.mentions.dispose();
    this.terminals.dispose();
    await super.dispose();
    this.activeEmitter.dispose();
    this.deleteEmitter.dispose();
    this.replayEmitter.dispose();
  }
}

/** A timeline action that failed: said to the user, then rethrown for the log. */
function shownError(err: unknown): never {
  void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
  throw err;
}
