// Owns the workspace's conversations: which exist (the index), which are open, which one the chat
// panel shows. Implements the ChatBackend the panel talks to, and is what the commands, the tree
// and the status bar read. Conversations live in the workspace's own storage folder, whichever one
// VS Code hands this window (storage/workspace-home.ts); a conversation another live window writes
// opens read-only here and turns writable once that window is gone.
import type { AgentMode } from '../../core/state';
import type { WorkspaceCheckpointStore } from '../node/checkpoints/workspace-store';
import { checkpointStoreFor } from './checkpoints';
import { checkpointAt, checkpointEntries, lastAfterState } from '../../core/checkpoints/timeline';
import { restoreFilesTo, type RestoreOutcome, type RestoreUi } from './restore-files';
import { randomUUID } from 'node:crypto';
import { readdir, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NamedSecret } from '../../core/secrets';
import { joinSecrets } from '../node/mcp';
import {
  entryFromState,
  removeEntry,
  statusForReader,
  upsertEntry,
  stateFromStore,
  ConversationIndexFile,
  type ConversationIndex,
  type IndexEntry,
} from '../../core/state';
import { loadSkills, type Skill } from '../../core/skills/skills';
import { EventStoreError, hasLiveWriter, liveWriter, openEventStore } from '../../core/log';
import {
  adoptSiblings,
  CONVERSATIONS_DIR,
  listConversationFolders,
  workspaceHome,
} from './storage/workspace-home';
import { describeHolder, windowLockHolder } from './lock-holder';
import { conversationEventCodec, type StoredConversationEvent } from '../../core/agent/event-codec';
import { NodeFilePort } from '../node/ports';
import type { ChatBackend, ConversationHeader, PlanStep, SequencedEvent, StreamDelta } from './chat-backend';
import type { LlmSettingId } from '../../protocol/messages';
import { addAllowRule, readDefaultMode, readEditorSettings, readLlmProvider } from './config';
import { llmSettingsFrom } from '../../core/settings';
import { DEMO_TASKS } from '../node/demo-model/demo-model';
import { isDemoEndpoint } from '../node/demo-model/demo-server';
import { ConfiguredLlm } from './configured-llm';
import { ConversationSession, type SessionDeps } from './conversation-session';
import type { Attachment, MentionItem } from '../../protocol/messages';
import { MentionSource } from './mentions/mention-source';
import { type ResolvedAttachments, resolveAttachments } from './mentions/resolve-attachments';
import { TerminalHistory } from './mentions/terminal-history';
import { forkConversation } from './fork';
import { importOpenHands } from '../../core/agent/import-openhands';
import { verifyConversationInSteps } from '../../core/signing';
import { type SignatureCheck, editorSignerTrust, signatureCheck } from './verify';
import { exportedChainId } from '../../core/agent/import-openhands';
import { SecretSigningKey } from './signing-key';
import { EditorMcpServers } from './mcp/editor-mcp-servers';
import { createEditorSandbox } from './sandbox/editor-sandbox';
import { SandboxWarning } from './sandbox/sandbox-status';

const ACTIVE_KEY = 'logbook.activeConversation';

/** A conversation as the list shows it. */
export type ListedConversation = IndexEntry & {
  /** Why it shows as paused although its log says running (the process that ran it is gone). */
  interrupted?: string;
  /** What verifying its signatures last found in this window (on open, or the command). */
  verified?: SignatureCheck;
};

/** How often a conversation held by another window is checked for that window being gone. */
const HELD_POLL_MS = 1_500;

/** How long after opening a conversation its signatures are checked: its first paint goes first. */
const VERIFY_AFTER_OPEN_MS = 1_500;

export class ConversationService implements ChatBackend, vscode.Disposable {
  private readonly sessions = new Map<string, ConversationSession>();
  private readonly opening = new Map<string, Promise<ConversationSession>>();
  private index: ConversationIndex = { entries: [] };
  private activeConversationId: string | undefined;
  private readonly llm: ConfiguredLlm;
  private skills: Skill[] | undefined;
  private readonly indexFile: ConversationIndexFile;
  private readonly signingKey: SecretSigningKey;
  /** The last verification of each conversation in this window. */
  private readonly checks = new Map<string, SignatureCheck>();
  /** The window's MCP servers; they stop with the window. */
  readonly mcp: EditorMcpServers;
  private readonly sandboxWarning = new SandboxWarning();

  private readonly activeEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly appendEmitter = new vscode.EventEmitter<{
    conversationId: string;
    events: SequencedEvent[];
  }>();
  private readonly headerEmitter = new vscode.EventEmitter<ConversationHeader>();
  private readonly streamEmitter = new vscode.EventEmitter<{ conversationId: string; delta: StreamDelta }>();
  private readonly listEmitter = new vscode.EventEmitter<void>();
  private readonly deleteEmitter = new vscode.EventEmitter<string>();
  /** conversations deleted in this window: late updates from their closing sessions are ignored */
  private readonly deleted = new Set<string>();
  readonly onDidDelete = this.deleteEmitter.event;
  private checkpoints: { key: string; store: WorkspaceCheckpointStore } | undefined;
  readonly onDidChangeActive = this.activeEmitter.event;
  readonly onDidAppend = this.appendEmitter.event;
  readonly onDidChangeHeader = this.headerEmitter.event;
  readonly onDidStream = this.streamEmitter.event;
  readonly onDidChangeList = this.listEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly hooks: {
      openInEditor(): Promise<void>;
      openDiff(conversationId: string, actionId: string): Promise<void>;
      userEditNotes(conversationId: string): string[];
    },
  ) {
    this.llm = new ConfiguredLlm(context.secrets);
    this.signingKey = new SecretSigningKey(context.secrets, log);
    context.subscriptions.push(this.signingKey);
    this.mcp = new EditorMcpServers(
      context.secrets,
      log,
      () => this.llm.knownSecrets.current.map((s) => s.value),
      // One sandbox for the window's servers, from the settings as the window opens.
      createEditorSandbox(context).sandbox,
    );
    // The workspace's own storage folder, not the one this window got (another window may hold it).
    this.home = context.storageUri ? workspaceHome(context.storageUri.fsPath) : undefined;
    this.root = join(this.home?.home ?? context.globalStorageUri.fsPath, CONVERSATIONS_DIR);
    this.indexFile = new ConversationIndexFile(join(this.root, 'index.json'));
    this.activeConversationId = context.workspaceState.get<string>(ACTIVE_KEY);
    this.terminals = new TerminalHistory();
    this.mentions = new MentionSource(this.terminals, this.mcp);
  }

  readonly root: string;
  private readonly home: ReturnType<typeof workspaceHome> | undefined;
  /** Read-only sessions waiting for the window that writes them to go (see watchHeld). */
  private readonly heldWatch = new Map<string, ReturnType<typeof setInterval>>();
  /** Terminal commands and workspace files, for mentions in the composer. */
  private readonly terminals: TerminalHistory;
  private readonly mentions: MentionSource;

  /** Loads the conversation list (rebuilding the index from the folders if it is missing or damaged). */
  async initialize(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    this.adoptStrays();
    const load = await this.indexFile.load(() => this.scanFolders());
    if (load.source === 'rebuilt' && load.reason === 'corrupt') {
      this.log.warn(
        `The conversation index was damaged (${load.detail}); rebuilt it from the conversation folders.`,
      );
    }
    this.index = await this.reconcile(load.index);
    this.listEmitter.fire();
    if (this.activeConversationId && !this.index.entries.some((e) => e.id === this.activeConversationId)) {
      this.activeConversationId = undefined;
    }
    if (this.activeConversationId) {
      await this.session(this.activeConversationId).catch((err: unknown) =>
        this.log.error(`Could not reopen the conversation: ${String(err)}`),
      );
      this.activeEmitter.fire(this.activeConversationId);
    }
  }

  /**
   * Conversations an earlier version kept in the storage folder VS Code handed a window besides the
   * workspace's own (`…-1`) come home, so every window lists them; one still written stays.
   */
  private adoptStrays(): void {
    if (!this.home?.siblings.length) return;
    try {
      const r = adoptSiblings(this.home);
      if (r.moved.length) this.log.info(`Moved ${r.moved.length} conversation(s) into ${this.root}.`);
      for (const l of r.left) this.log.info(`Left conversation ${l.id} in ${l.from}: ${l.why}.`);
    } catch (err) {
      this.log.warn(
        `Could not gather the workspace's conversations from its other storage folders: ${String(err)}`,
      );
    }
  }

  /**
   * The index as the folders are: several windows of a workspace share it, and each saves its own
   * view, so a conversation another window created may be missing, and one it deleted still listed.
   */
  private async reconcile(index: ConversationIndex): Promise<ConversationIndex> {
    const folders = new Set(listConversationFolders(this.root));
    const listed = new Set(index.entries.map((e) => e.id));
    const missing = [...folders].filter((id) => !listed.has(id));
    const gone = index.entries.filter((e) => !folders.has(e.id));
    if (!missing.length && !gone.length) return index;
    let next = index;
    for (const e of gone) next = removeEntry(next, e.id);
    for (const e of await this.scanFolders(missing)) next = upsertEntry(next, e);
    await this.indexFile
      .save(next)
      .catch((err: unknown) => this.log.warn(`Could not save the conversation index: ${String(err)}`));
    return next;
  }

  /**
   * The secrets this window knows, the MCP servers' entries included (redacted from events and from
   * the Output channel).
   */
  get knownSecrets(): readonly NamedSecret[] {
    return this.allSecrets();
  }

  /** One list while neither part changes: the Output channel's redactor is cached by identity. */
  private readonly allSecrets = joinSecrets(
    () => this.llm.knownSecrets.current,
    () => this.mcp.knownSecrets(),
  );

  get activeId(): string | undefined {
    return this.activeConversationId;
  }

  get activeSession(): ConversationSession | undefined {
    return this.activeConversationId ? this.sessions.get(this.activeConversationId) : undefined;
  }

  list(): ListedConversation[] {
    return this.index.entries.map((e) => {
      const seen = this.asSeen(e);
      const verified = this.checks.get(e.id);
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
    return this.sessions.get(conversationId)?.header();
  }

  async eventsAfter(conversationId: string, afterSeq: number): Promise<SequencedEvent[]> {
    const s = await this.session(conversationId);
    return s.eventsAfter(afterSeq);
  }

  async eventsBefore(conversationId: string, beforeSeq: number, max: number): Promise<SequencedEvent[]> {
    const s = await this.session(conversationId);
    return s.eventsBefore(beforeSeq, max);
  }

  async eventCount(conversationId: string): Promise<number> {
    return (await this.session(conversationId)).eventCount;
  }

  async setActive(id: string | undefined): Promise<void> {
    if (id) await this.session(id);
    this.activeConversationId = id;
    await this.context.workspaceState.update(ACTIVE_KEY, id);
    this.activeEmitter.fire(id);
    this.listEmitter.fire();
  }

  /** Creates a conversation, makes it active and starts the agent on the task (and its editor context). */
  async startTaskWith(task: string, context = ''): Promise<string> {
    const s = await this.create();
    await this.setActive(s.id);
    await this.sendTask(s, task, context);
    await this.refreshEntry(s);
    return s.id;
  }

  /**
   * Sends the task with the context attached to it; a conversation's first task becomes its title
   * (and its terminal's name) without that context.
   */
  private async sendTask(
    s: ConversationSession,
    task: string,
    context: string,
    attached?: ResolvedAttachments,
  ): Promise<void> {
    const untitled = s.conversation.state.title === null;
    await s.send(task + context, attached);
    if (context && untitled) await s.rename(task);
  }

  async create(): Promise<ConversationSession> {
    const id = randomUUID();
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
    await this.sendTask(s, text, attachmentText(attachments), mentioned);
    await this.refreshEntry(s);
  }

  defaultMode(): AgentMode {
    return readDefaultMode();
  }

  /** The demo's tasks while the configured endpoint is the local demo model. */
  demoTasks(): readonly string[] | undefined {
    if (readLlmProvider() !== 'openai') return undefined;
    const llm = llmSettingsFrom(readEditorSettings());
    return isDemoEndpoint(llm.baseUrl, llm.model) ? DEMO_TASKS : undefined;
  }

  async setMode(conversationId: string, mode: AgentMode): Promise<void> {
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
    await (await this.session(conversationId)).approve(actionIds);
  }

  async reject(conversationId: string, actionIds: string[], reason: string): Promise<void> {
    await (await this.session(conversationId)).reject(actionIds, reason);
  }

  async alwaysAllow(conversationId: string, actionId: string, commandPrefix: string): Promise<void> {
    await addAllowRule(commandPrefix);
    this.log.info(`Added the allow rule "${commandPrefix}"`);
    await this.approve(conversationId, [actionId]);
  }

  async pause(conversationId: string): Promise<void> {
    await (await this.session(conversationId)).pause();
  }

  async resume(conversationId: string): Promise<void> {
    (await this.session(conversationId)).startRun();
  }

  async stop(conversationId: string): Promise<void> {
    await (await this.session(conversationId)).stop();
  }

  /**
   * "Continue from here": forks at the event. When the files have changed since that point the user
   * is offered to restore them too ("and restore files"), without being stopped to answer.
   * `ui`: the offer and the restore's questions (tests script them); the editor's by default.
   */
  async forkFrom(
    conversationId: string,
    eventId: string,
    ui: { offerRestore?: (paths: string[]) => Promise<boolean>; restore?: RestoreUi } = {},
  ): Promise<{ forkId: string; offer?: Promise<RestoreOutcome | undefined> }> {
    const source = await this.session(conversationId);
    const fork = await this.fork(conversationId, eventId);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    // The checkpoint of "here" is in the source: an action's is recorded just after it.
    const entry = folder ? checkpointAt(await source.conversation.events(), eventId) : undefined;
    if (!folder || !entry) return { forkId: fork.id };
    const store = this.checkpointStore();
    const plan = await store.plan(entry.value.checkpoint).catch(() => undefined);
    if (!plan?.changes.length) return { forkId: fork.id };
    const offerRestore = ui.offerRestore ?? offerRestoreAfterFork;
    const offer = offerRestore(plan.changes.map((c) => c.path)).then((yes) =>
      yes
        ? restoreFilesTo(
            { session: source, store, fork: () => Promise.resolve(fork), recordIn: fork },
            eventId,
            ui.restore,
          )
        : undefined,
    );
    offer.catch((err: unknown) => {
      this.log.error(`Restoring files after continuing from here failed: ${String(err)}`);
      void vscode.window.showErrorMessage(`Logbook: ${(err as Error).message}`);
    });
    return { forkId: fork.id, offer };
  }

  /** Forks and opens the fork; resolves to its session. */
  private async fork(conversationId: string, eventId: string): Promise<ConversationSession> {
    const source = await this.session(conversationId);
    const id = randomUUID();
    await forkConversation(source, eventId, join(this.root, id), await this.signingKey.identity(), {
      conversationId: id,
      headFile: this.headFile(id),
    });
    const s = await this.session(id);
    await this.adoptCheckpoints(s);
    await this.refreshEntry(s);
    await this.setActive(id);
    return s;
  }

  /** The fork's copied checkpoint events stay restorable when the conversation it came from is deleted. */
  private async adoptCheckpoints(fork: ConversationSession): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const events = await fork.conversation.events();
    const last = checkpointEntries(events).pop();
    if (!folder || !last) return;
    // And the newest after-state it copied: the restore preview compares them to name user edits.
    const after = lastAfterState(events);
    await this.checkpointStore()
      .adopt(fork.id, last.value.checkpoint, after)
      .catch((err: unknown) =>
        this.log.warn(`Keeping the checkpoints of fork ${fork.id} failed: ${String(err)}`),
      );
  }

  /**
   * "Restore files to here": previews what a restore to the event changes, asks, restores (or forks
   * and restores), recorded in the conversation so it can be undone. `ui`: the questions (tests
   * script them); the editor's dialogs by default.
   */
  async restoreFiles(conversationId: string, eventId: string, ui?: RestoreUi): Promise<RestoreOutcome> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error('Restoring files needs a workspace folder.');
    const session = await this.session(conversationId);
    if (session.conversation.isRunning) {
      throw new Error('The agent is running in this conversation: pause or stop it before restoring files.');
    }
    return restoreFilesTo(
      { session, store: this.checkpointStore(), fork: (id) => this.fork(conversationId, id) },
      eventId,
      ui,
    );
  }

  /**
   * Imports an OpenHands SDK conversation folder or V0 trajectory file as a new conversation of this
   * workspace and shows it in the chat; resolves to its id.
   */
  async importConversation(from: string): Promise<string> {
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
  /**
   * Where a conversation's signed head is kept outside its folder: one small file per conversation
   * in the extension's global storage (conversations may live in a workspace's storage).
   */
  headFile(conversationId: string): string {
    return join(this.context.globalStorageUri.fsPath, 'heads', `${conversationId}.json`);
  }

  /** Verifies against the head kept outside, and judges the signers by this window's key and the trust list. */
  private async check(id: string, dir: string): Promise<SignatureCheck> {
    const result = await verifyConversationInSteps(dir, { expectedId: id, headFile: this.headFile(id) });
    const me = await this.signingKey.identity();
    return signatureCheck(
      result,
      editorSignerTrust(me.did, (m) => this.log.warn(m)),
    );
  }

  async verify(conversationId: string): Promise<SignatureCheck> {
    if (!this.index.entries.some((e) => e.id === conversationId) && !this.sessions.has(conversationId)) {
      throw new Error(`There is no conversation ${conversationId}.`);
    }
    const session = this.sessions.get(conversationId);
    await session?.flush();
    const result = await this.check(conversationId, join(this.root, conversationId));
    this.recordCheck(conversationId, result);
    return result;
  }

  private recordCheck(id: string, result: SignatureCheck): void {
    this.checks.set(id, result);
    this.sessions.get(id)?.setSignature(result);
    this.listEmitter.fire();
  }

  /**
   * Verifies a conversation just opened, in slices that leave the window responsive (opening does
   * not wait for it). Events appended meanwhile are not in the chain it read: then it checks again.
   */
  private verifyAfterOpen(s: ConversationSession): void {
    const run = async (): Promise<void> => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (this.sessions.get(s.id) !== s) return;
        await s.flush();
        const before = s.length;
        const result = await this.check(s.id, s.dir);
        if (this.sessions.get(s.id) !== s) return; // closed or deleted meanwhile
        if (s.length !== before && result.status !== 'broken') continue;
        this.recordCheck(s.id, result);
        return;
      }
    };
    setTimeout(() => {
      run().catch((err: unknown) => this.log.warn(`Could not verify conversation ${s.id}: ${String(err)}`));
    }, VERIFY_AFTER_OPEN_MS);
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
    if (!this.sessions.has(conversationId) && !this.index.entries.some((e) => e.id === conversationId)) {
      throw new Error(`There is no conversation ${conversationId}.`);
    }
    const s = await this.session(conversationId);
    if (s.readOnly) {
      throw new Error('This conversation is open in another window; close it there before deleting it.');
    }
    this.deleted.add(conversationId);
    await s.dispose();
    this.sessions.delete(conversationId);
    this.checks.delete(conversationId);
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
    await this.updateIndex((index) => removeEntry(index, conversationId));
    this.deleteEmitter.fire(conversationId);
  }

  async openDiff(conversationId: string, actionId: string): Promise<void> {
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

  /** The header names the model: a change of the model settings shows at once. */
  private readonly configListener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('logbook.llm')) return;
    for (const s of this.sessions.values()) this.headerEmitter.fire(s.header());
  });

  /** The workspace's checkpoint store (beside the conversations in the workspace storage). */
  /** The checkpoints of the window's folders (every folder of a multi-root window). */
  checkpointStore(): WorkspaceCheckpointStore {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      name: f.name,
      path: f.uri.fsPath,
    }));
    const key = folders.map((f) => f.path).join('\n');
    if (this.checkpoints?.key !== key)
      this.checkpoints = { key, store: checkpointStoreFor(this.root, folders) };
    return this.checkpoints.store;
  }

  // --- sessions ---------------------------------------------------------------------------

  /** Opens (once) the session of a conversation. */
  session(id: string): Promise<ConversationSession> {
    if (this.deleted.has(id)) return Promise.reject(new Error('This conversation was deleted.'));
    const open = this.sessions.get(id);
    if (open) return Promise.resolve(open);
    let pending = this.opening.get(id);
    if (!pending) {
      pending = this.openSession(id).finally(() => this.opening.delete(id));
      this.opening.set(id, pending);
    }
    return pending;
  }

  private async openSession(id: string): Promise<ConversationSession> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const cwd = folder ?? this.root;
    this.skills ??= await loadSkills(new NodeFilePort([cwd]), cwd).catch(() => []);
    const signing = await this.signingKey.identity();
    const sandbox = createEditorSandbox(this.context);
    // Where tools run at all: an untrusted window runs no command, so there is nothing to warn of.
    if (vscode.workspace.isTrusted) this.sandboxWarning.maybeWarn(sandbox.sandbox.state);
    const deps: SessionDeps = {
      signing,
      headFile: this.headFile(id),
      lockHolder: windowLockHolder(),
      id,
      dir: join(this.root, id),
      cwd,
      llm: this.llm,
      skills: this.skills,
      log: this.log,
      onAppend: (events) => this.appendEmitter.fire({ conversationId: id, events }),
      onHeader: () => {
        const s = this.sessions.get(id);
        if (!s) return;
        this.headerEmitter.fire(s.header());
        void this.refreshEntry(s);
      },
      onStream: (delta) => this.streamEmitter.fire({ conversationId: id, delta }),
      userEditNotes: () => this.hooks.userEditNotes(id),
      ...(folder ? { checkpoints: this.checkpointStore() } : {}),
      mcp: this.mcp,
      sandbox,
    };
    const session = await ConversationSession.open(deps).catch(async (err: unknown) => {
      if (!(err instanceof EventStoreError) || err.code !== 'LOST_DATA') throw err;
      // Lost events are never written over unasked: the user restores the files or goes on without.
      const goOn = 'Continue Without Them';
      const choice = await vscode.window.showErrorMessage(
        `Logbook: ${err.message}`,
        {
          modal: true,
          detail:
            'Restore the missing files from a backup to keep those events. Continuing records the loss in the conversation and goes on after the events that are left.',
        },
        goOn,
      );
      if (choice !== goOn) throw err;
      return ConversationSession.open({ ...deps, acceptLostEvents: true });
    });
    this.sessions.set(id, session);
    if (session.readOnly) {
      const writer = liveWriter(session.dir);
      void vscode.window.showWarningMessage(
        writer
          ? `Logbook: this conversation is open in ${describeHolder(writer)}, so it is read-only here. It becomes writable here once that window is gone (a closed browser tab's window can live on for a while on the server).`
          : 'Logbook: this conversation is open in another window, so it is read-only here.',
      );
      this.watchHeld(session);
    }
    // Opening may have recorded a recovery (it was left running): the list shows the new status.
    void this.refreshEntry(session);
    this.verifyAfterOpen(session);
    return session;
  }

  /**
   * Watches a conversation another window writes: once no live process holds its lock (the window
   * closed, or its process ended and left the lock behind), it is opened again, writable, in place.
   */
  private watchHeld(s: ConversationSession): void {
    if (this.heldWatch.has(s.id)) return;
    const timer = setInterval(() => {
      if (this.sessions.get(s.id) !== s) return this.stopWatching(s.id);
      if (liveWriter(s.dir)) return;
      this.stopWatching(s.id);
      this.reopenWritable(s).catch((err: unknown) =>
        this.log.error(`Could not reopen conversation ${s.id} for writing: ${String(err)}`),
      );
    }, HELD_POLL_MS);
    this.heldWatch.set(s.id, timer);
  }

  private stopWatching(id: string): void {
    clearInterval(this.heldWatch.get(id));
    this.heldWatch.delete(id);
  }

  /** Replaces a read-only session by a writable one; the views get what the other window added. */
  private async reopenWritable(old: ConversationSession): Promise<void> {
    if (this.sessions.get(old.id) !== old) return; // deleted or replaced meanwhile
    const shown = old.length;
    this.sessions.delete(old.id);
    await old.dispose();
    const s = await this.session(old.id);
    this.headerEmitter.fire(s.header());
    const added = await s.eventsAfter(shown - 1);
    if (added.length) this.appendEmitter.fire({ conversationId: s.id, events: added });
    await this.refreshEntry(s);
    this.listEmitter.fire();
    if (!s.readOnly) {
      this.log.info(`Conversation ${s.id}: the window that wrote it is gone; it is writable here now.`);
      const title = s.conversation.state.title ?? 'New conversation';
      void vscode.window.showInformationMessage(
        `Logbook: “${title}” is writable here now: the window that held it is gone.`,
      );
    }
  }

  private indexing = Promise.resolve();

  /** Updates the index entry of a session from its state. */
  private refreshEntry(s: ConversationSession): Promise<void> {
    const entry = entryFromState(s.id, s.conversation.state);
    return this.updateIndex((index) => {
      if (this.deleted.has(s.id)) return undefined;
      const before = index.entries.find((e) => e.id === s.id);
      return before && JSON.stringify(before) === JSON.stringify(entry)
        ? undefined
        : upsertEntry(index, entry);
    });
  }

  /**
   * Applies a change to the index (undefined: nothing changed), tells the tree and saves it.
   * Serialized, so the file is written once at a time and in order.
   */
  private updateIndex(change: (index: ConversationIndex) => ConversationIndex | undefined): Promise<void> {
    this.indexing = this.indexing
      .then(async () => {
        const next = change(this.index);
        if (!next) return;
        this.index = next;
        this.listEmitter.fire();
        await this.indexFile.save(this.index);
      })
      .catch((err: unknown) => this.log.error(`Could not save the conversation index: ${String(err)}`));
    return this.indexing;
  }

  /** One index entry per conversation folder (or those `names`), read-only (never takes a writer lock). */
  private async scanFolders(names?: string[]): Promise<IndexEntry[]> {
    const entries: IndexEntry[] = [];
    for (const name of names ?? (await readdir(this.root).catch(() => [] as string[]))) {
      if (name === 'index.json' || name.endsWith('.tmp')) continue;
      try {
        const store = await openEventStore<StoredConversationEvent>(join(this.root, name), {
          codec: conversationEventCodec,
          readOnly: true,
        });
        // From the newest snapshot plus the events after it: rebuilding never reads whole logs.
        const { state } = await stateFromStore(store, { id: name }).finally(() => store.close());
        entries.push(entryFromState(name, state));
      } catch (err) {
        this.log.warn(`Skipped ${name} while rebuilding the index: ${String(err)}`);
      }
    }
    return entries;
  }

  async dispose(): Promise<void> {
    for (const id of [...this.heldWatch.keys()]) this.stopWatching(id);
    this.mentions.dispose();
    this.terminals.dispose();
    for (const s of this.sessions.values()) await s.dispose().catch(() => {});
    await this.mcp.dispose().catch(() => {});
    this.llm.knownSecrets.dispose();
    this.configListener.dispose();
    this.activeEmitter.dispose();
    this.appendEmitter.dispose();
    this.headerEmitter.dispose();
    this.streamEmitter.dispose();
    this.listEmitter.dispose();
    this.deleteEmitter.dispose();
  }
}

/** The active file or selection, attached to a message as context the agent can read. */
function attachmentText(attachments?: { activeFile?: boolean; selection?: boolean }): string {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !attachments) return '';
  const path = vscode.workspace.asRelativePath(editor.document.uri);
  if (attachments.selection && !editor.selection.isEmpty) {
    const text = editor.document.getText(editor.selection);
    const from = editor.selection.start.line + 1;
    return `\n\nSelected in ${path} (from line ${from}):\n\`\`\`\n${text}\n\`\`\``;
  }
  if (attachments.activeFile) return `\n\nThe file I am looking at: ${path}`;
  return '';
}

/** The editor's offer after "Continue from here": a notification, answered whenever the user likes. */
async function offerRestoreAfterFork(paths: string[]): Promise<boolean> {
  const files = paths.length;
  const restore = 'Restore Files…';
  const choice = await vscode.window.showInformationMessage(
    `Logbook: continued from here. ${files} file${files === 1 ? ' has' : 's have'} changed since this point.`,
    restore,
  );
  return choice === restore;
}
