// The open conversations of this window and what they tell the views: opening a conversation's
// session once (asking before going on without lost events), the events, headers and deltas it
// sends, reopening one another window held once that window is gone, and the index entry kept up to
// date with its state. ConversationService adds what the user asks of them.
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import { checkpointStoreFor } from '../checkpoints/checkpoints';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { NamedSecret } from '../../../core/secrets';
import { joinSecrets } from '../../node/mcp';
import { entryFromState, upsertEntry } from '../../../core/state';
import { loadSkills, type Skill } from '../../../core/skills/skills';
import { EventStoreError, liveWriter } from '../../../core/log';
import { adoptSiblings, CONVERSATIONS_DIR, workspaceHome } from '../storage/workspace-home';
import { describeHolder, windowLockHolder } from '../handoff/lock-holder';
import { NodeFilePort } from '../../node/ports';
import type { ChildAgentView, ConversationHeader, SequencedEvent, StreamDelta } from '../chat/chat-backend';
import { ConfiguredLlm } from '../lm/configured-llm';
import { ConversationSession, type SessionDeps } from './conversation-session';
import { SharedConversationIndex } from './shared-index';
import { HeldWatch } from '../handoff/held-watch';
import { clearHandoff, HandoffWatch, type HandoffRequest, requestHandoff } from '../handoff/handoff';
import { SignatureChecks } from '../signing/signature-checks';
import { SecretSigningKey } from '../signing/signing-key';
import { EditorMcpServers } from '../mcp/editor-mcp-servers';
import { createEditorSandbox, ownFolders } from '../sandbox/editor-sandbox';
import { boundAgent, editorAgent } from '../acp/editor-agent';
import { SandboxWarning } from '../sandbox/sandbox-status';
import { closedLogEventsAfter } from '../agents/closed-agent-logs';
import { editorAgentDefinitions, type EditorMainAgent, editorMainAgent } from '../agents/editor-agents';
import { holdNewAgentDefinitions } from '../agents/held-agents';
import { recordAcceptance, recordAcceptancesSince } from '../../node/agents/accepted-definitions';
import type { AcceptedDefinition } from '../../node/agents/held-definitions';
import { RemoteConversations } from '../remote/remote-conversations';
import { taskCheckpoints, taskSessionParts } from './task-conversation-place';
import { TaskPlaces } from './task-places';

export interface ServiceHooks {
  openInEditor(): Promise<void>;
  openDiff(conversationId: string, actionId: string): Promise<void>;
  userEditNotes(conversationId: string): string[];
}

/** How long a window that let a conversation go waits for the asking window to take it. */
const HANDOVER_WAIT_MS = 10_000;

export class ConversationSessions implements vscode.Disposable {
  protected readonly sessions = new Map<string, ConversationSession>();
  private readonly opening = new Map<string, Promise<ConversationSession>>();
  protected readonly index: SharedConversationIndex;
  protected readonly llm: ConfiguredLlm;
  private skills: Skill[] | undefined;
  readonly signingKey: SecretSigningKey;
  /** The last verification of each conversation in this window. */
  protected readonly signatures = new SignatureChecks<ConversationSession>({
    headFile: (id) => this.headFile(id),
    signerDid: async () => (await this.signingKey.identity()).did,
    isCurrent: (s) => this.sessions.get(s.id) === s,
    recorded: (id, result) => {
      this.sessions.get(id)?.setSignature(result);
      this.listEmitter.fire();
    },
    log: { warn: (m) => this.log.warn(m) },
  });
  /** The window's MCP servers; they stop with the window. */
  readonly mcp: EditorMcpServers;
  private readonly sandboxWarning = new SandboxWarning();

  protected readonly appendEmitter = new vscode.EventEmitter<{
    conversationId: string;
    events: SequencedEvent[];
  }>();
  protected readonly headerEmitter = new vscode.EventEmitter<ConversationHeader>();
  protected readonly streamEmitter = new vscode.EventEmitter<{
    conversationId: string;
    delta: StreamDelta;
  }>();
  protected readonly listEmitter = new vscode.EventEmitter<void>();
  /** Events a delegated agent appended, under its parent's id. */
  protected readonly childEmitter = new vscode.EventEmitter<{
    conversationId: string;
    childId: string;
    events: SequencedEvent[];
  }>();
  readonly onDidAppendChild = this.childEmitter.event;
  /** Each open conversation's delegated agents. */
  protected readonly children = new Map<string, EditorMainAgent['children']>();
  /** Each open conversation's main agent: a definition the user accepts joins its list. */
  private readonly mainAgents = new Map<string, EditorMainAgent>();
  /** conversations deleted in this window: late updates from their closing sessions are ignored */
  protected readonly deleted = new Set<string>();
  private checkpoints: { key: string; store: WorkspaceCheckpointStore } | undefined;
  /** Conversations of worktree tasks: their log where the task keeps it, their worktree as workspace. */
  readonly places = new TaskPlaces();
  readonly onDidAppend = this.appendEmitter.event;
  readonly onDidChangeHeader = this.headerEmitter.event;
  readonly onDidStream = this.streamEmitter.event;
  readonly onDidChangeList = this.listEmitter.event;

  constructor(
    protected readonly context: vscode.ExtensionContext,
    protected readonly log: vscode.LogOutputChannel,
    protected readonly hooks: ServiceHooks,
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
    this.index = new SharedConversationIndex(this.root, log, () => this.listEmitter.fire());
    this.remote = new RemoteConversations({
      root: this.root,
      secrets: context.secrets,
      signing: () => this.signingKey.identity(),
      headFile: (id) => this.headFile(id),
      log,
      onAppend: (conversationId, events) => this.appendEmitter.fire({ conversationId, events }),
      onStream: (conversationId, delta) => this.streamEmitter.fire({ conversationId, delta }),
      onHeader: (id) => {
        const h = this.remote.opened(id)?.header();
        if (h) this.headerEmitter.fire(h);
      },
      onEntry: (entry) =>
        this.index.update((index) => (this.deleted.has(entry.id) ? undefined : upsertEntry(index, entry))),
      ownFolders: ownFolders(context),
    });
  }

  /** Conversations whose agent runs on an agent-server (remote/). */
  readonly remote: RemoteConversations;

  readonly root: string;
  private readonly home: ReturnType<typeof workspaceHome> | undefined;
  /** Read-only sessions waiting for the window that writes them to go. */
  private readonly heldWatch = new HeldWatch<ConversationSession>({
    isCurrent: (s) => this.sessions.get(s.id) === s,
    reopenWritable: (s) => this.reopenWritable(s),
    log: { error: (m) => this.log.error(m) },
  });
  /** Conversations written here, watched for another window's request to take one over. */
  private readonly handoffWatch = new HandoffWatch<ConversationSession>({
    isCurrent: (s) => this.sessions.get(s.id) === s,
    handOver: (s, request) => this.handOver(s, request),
    log: { error: (m) => this.log.error(m) },
  });
  /** Conversations being let go to another window: not opened here until that window has them. */
  private readonly handingOver = new Map<string, Promise<void>>();
  /**
   * Conversations an earlier version kept in the storage folder VS Code handed a window besides the
   * workspace's own (`…-1`) come home, so every window lists them; one still written stays.
   */
  protected adoptStrays(): void {
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

  /**
   * Where a conversation's signed head is kept outside its folder: one small file per conversation
   * in the extension's global storage (conversations may live in a workspace's storage).
   */
  headFile(conversationId: string): string {
    return join(this.context.globalStorageUri.fsPath, 'heads', `${conversationId}.json`);
  }

  /** The header names the model: a change of the model settings shows at once. */
  private readonly configListener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('logbook.model')) return;
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

  /** The folder a conversation works in: a worktree task's worktree, else the window's first folder. */
  workspaceOf(id: string): string | undefined {
    return this.places.get(id)?.worktree ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  /** The checkpoints of a conversation's workspace: a worktree task's own, else the window's. */
  checkpointStoreOf(id: string | undefined): WorkspaceCheckpointStore {
    const place = id === undefined ? undefined : this.places.get(id);
    return place ? taskCheckpoints(place, this.root) : this.checkpointStore();
  }

  // --- sessions ---------------------------------------------------------------------------

  /** Opens (once) the session of a conversation. */
  session(id: string): Promise<ConversationSession> {
    if (this.deleted.has(id)) return Promise.reject(new Error('This conversation was deleted.'));
    // Its agent runs on the server: the local agent must never write into its log.
    if (this.remote.isRemote(id))
      return Promise.reject(new Error(vscode.l10n.t('This conversation runs on an agent-server.')));
    const letGo = this.handingOver.get(id);
    if (letGo) return letGo.then(() => this.session(id));
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
    const place = this.places.get(id);
    const folder = place?.worktree ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const cwd = folder ?? this.root;
    this.skills ??= await loadSkills(new NodeFilePort([cwd]), cwd).catch(() => []);
    const signing = await this.signingKey.identity();
    const sandbox = createEditorSandbox(this.context);
    // Where tools run at all: an untrusted window runs no command, so there is nothing to warn of.
    if (vscode.workspace.isTrusted) this.sandboxWarning.maybeWarn(sandbox.sandbox.state);
    // Definitions written from now on are held until the user accepts them (agents/held-agents.ts).
    const hold = holdNewAgentDefinitions(cwd, this.log);
    const dir = place?.dir ?? join(this.root, id);
    // A conversation started with an external agent runs it (started at its first turn).
    const agentName = boundAgent(dir);
    const external = agentName ? await editorAgent(agentName, cwd, sandbox.sandbox, this.log) : undefined;
    const deps: SessionDeps = {
      signing,
      headFile: this.headFile(id),
      lockHolder: windowLockHolder(),
      id,
      dir,
      cwd,
      llm: this.llm,
      skills: this.skills,
      log: this.log,
      onAppend: (events) => {
        this.appendEmitter.fire({ conversationId: id, events });
        hold.afterEvents(events);
      },
      onHeader: () => {
        const s = this.sessions.get(id);
        if (!s) return;
        this.headerEmitter.fire(s.header());
        void this.refreshEntry(s);
      },
      onStream: (delta) => this.streamEmitter.fire({ conversationId: id, delta }),
      userEditNotes: () => this.hooks.userEditNotes(id),
      ...(place ? taskSessionParts(place, this.root) : folder ? { checkpoints: this.checkpointStore() } : {}),
      mcp: this.mcp,
      sandbox,
      ...(external ? { external } : {}),
    };
    // The agents it may delegate to, and its children's sessions (agents/editor-agents.ts).
    const agents = editorMainAgent({
      agents: editorAgentDefinitions(cwd, this.log),
      parent: deps,
      headFile: (childId) => this.headFile(childId),
      onChildAppend: (childId, events) => {
        this.childEmitter.fire({ conversationId: id, childId, events });
        hold.afterEvents(events);
      },
      held: (name) => hold.held(name),
      // A child in a worktree of its own keeps its checkpoints beside the window's.
      checkpointsFor: (folder) => checkpointStoreFor(this.root, [{ name: basename(folder), path: folder }]),
    });
    const withAgents: SessionDeps = {
      ...deps,
      agent: agents.agent,
      children: agents.children,
      ...(agents.tools ? { tools: agents.tools } : {}),
    };
    const session = await ConversationSession.open(withAgents).catch(async (err: unknown) => {
      if (!(err instanceof EventStoreError) || err.code !== 'LOST_DATA') throw err;
      // Lost events are never written over unasked: the user restores the files or goes on without.
      const goOn = vscode.l10n.t('Continue Without Them');
      const choice = await vscode.window.showErrorMessage(
        vscode.l10n.t('Logbook: {0}', err.message),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Restore the missing files from a backup to keep those events. Continuing records the loss in the conversation and goes on after the events that are left.',
          ),
        },
        goOn,
      );
      if (choice !== goOn) throw err;
      return ConversationSession.open({ ...withAgents, acceptLostEvents: true });
    });
    this.sessions.set(id, session);
    if (!session.readOnly)
      await agents
        .adopt(session.conversation)
        .catch((err: unknown) => this.log.warn(`Conversation ${id}: its agents: ${String(err)}`));
    this.children.set(id, agents.children);
    this.mainAgents.set(id, agents);
    if (!session.readOnly)
      // Accepted elsewhere (`logbook agents accept`, another window) since the conversation began.
      await recordAcceptancesSince(session.conversation, cwd, process.env).catch((err: unknown) =>
        this.log.warn(`Conversation ${id}: could not record accepted agent definitions: ${String(err)}`),
      );
    if (session.readOnly) {
      this.offerTakeOver(session);
      this.heldWatch.watch(session);
    } else {
      clearHandoff(session.dir); // a request of this window's, answered
      this.handoffWatch.watch(session);
    }
    // Opening may have recorded a recovery (it was left running): the list shows the new status.
    void this.refreshEntry(session);
    this.signatures.afterOpen(session);
    return session;
  }

  /**
   * The user accepted a held definition: each conversation open here records it and may delegate
   * or hand over to it from its next step. Returns how many conversations use it now.
   */
  async definitionAccepted(accepted: AcceptedDefinition): Promise<number> {
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? this.root;
    const agent = editorAgentDefinitions(cwd, this.log).find((a) => a.origin === accepted.origin);
    let using = 0;
    for (const [id, s] of this.sessions) {
      if (s.readOnly) continue;
      await recordAcceptance(s.conversation, accepted).catch((err: unknown) =>
        this.log.warn(`Conversation ${id}: could not record the accepted definition: ${String(err)}`),
      );
      if (agent && this.mainAgents.get(id)?.accept(agent)) using++;
    }
    return using;
  }

  /**
   * Read-only here because another window writes it: says which, and offers to take it over (that
   * window lets go once its running step, if any, ends; HeldWatch then opens it writable here).
   */
  private offerTakeOver(session: ConversationSession): void {
    const writer = liveWriter(session.dir);
    if (!writer) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Logbook: this conversation is open in another window, so it is read-only here.'),
      );
      return;
    }
    const takeOver = vscode.l10n.t('Take Over Here');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          "Logbook: this conversation is open in {0}, so it is read-only here. Take it over here? That window's chat becomes read-only (with code-server, a closed browser tab's window lives on for a while on the server).",
          describeHolder(writer),
        ),
        takeOver,
      )
      .then((choice) => {
        if (choice !== takeOver || this.sessions.get(session.id) !== session || !session.readOnly) return;
        requestHandoff(session.dir, windowLockHolder());
        this.log.info(`Conversation ${session.id}: asked ${describeHolder(writer)} to let it go.`);
      });
  }

  /**
   * Another window asked for a conversation written here: it is closed here (its lock released),
   * then opened read-only once that window writes it, or writable again if it never took it.
   */
  private async handOver(s: ConversationSession, request: HandoffRequest): Promise<void> {
    if (this.sessions.get(s.id) !== s) return;
    this.log.info(`Conversation ${s.id}: handed over to ${request.holder} (pid ${request.pid}).`);
    const shown = s.length;
    const letGo = (async () => {
      this.sessions.delete(s.id);
      await s.dispose();
      const until = Date.now() + HANDOVER_WAIT_MS;
      while (!liveWriter(s.dir) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    })();
    this.handingOver.set(s.id, letGo);
    await letGo.finally(() => this.handingOver.delete(s.id));
    const again = await this.session(s.id);
    this.headerEmitter.fire(again.header());
    const added = await again.eventsAfter(shown - 1);
    if (added.length) this.appendEmitter.fire({ conversationId: again.id, events: added });
    this.listEmitter.fire();
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
      this.log.info(
        `Conversation ${s.id}: the window that wrote it let it go or is gone; it is writable here now.`,
      );
      const title = s.conversation.state.title ?? vscode.l10n.t('New conversation');
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook: “{0}” is writable here now: the window that held it no longer does.', title),
      );
    }
  }

  /** Updates the index entry of a session from its state. */
  protected refreshEntry(s: ConversationSession): Promise<void> {
    // A task's conversation is listed from its task's log (both views find it after a reload too).
    if (this.places.has(s.id)) return Promise.resolve(this.listEmitter.fire());
    const entry = entryFromState(s.id, s.conversation.state);
    return this.index.update((index) => {
      if (this.deleted.has(s.id)) return undefined;
      const before = index.entries.find((e) => e.id === s.id);
      return before && JSON.stringify(before) === JSON.stringify(entry)
        ? undefined
        : upsertEntry(index, entry);
    });
  }

  async dispose(): Promise<void> {
    this.heldWatch.dispose();
    this.handoffWatch.dispose();
    for (const s of this.sessions.values()) await s.dispose().catch(() => {});
    await this.remote.dispose();
    await this.mcp.dispose().catch(() => {});
    this.llm.knownSecrets.dispose();
    this.configListener.dispose();
    this.appendEmitter.dispose();
    this.headerEmitter.dispose();
    this.streamEmitter.dispose();
    this.listEmitter.dispose();
    this.childEmitter.dispose();
  }

  /** The delegated agents this window holds for a conversation, as the chat's cards list them. */
  delegatedAgentViews(conversationId: string): ChildAgentView[] {
    return this.children.get(conversationId)?.views() ?? [];
  }

  /** Closes a conversation's delegated agents' sessions (again: closing twice is harmless) and drops its entry. */
  protected async forgetChildren(conversationId: string): Promise<void> {
    const children = this.children.get(conversationId);
    this.children.delete(conversationId);
    this.mainAgents.delete(conversationId);
    await children
      ?.dispose()
      .catch((err: unknown) =>
        this.log.warn(`Conversation ${conversationId}: closing its delegated agents: ${String(err)}`),
      );
  }

  /** A delegated agent's events after `afterSeq` (from its session, or its log when none is open). */
  async childEventsAfter(
    conversationId: string,
    childId: string,
    afterSeq: number,
  ): Promise<SequencedEvent[]> {
    const children = this.children.get(conversationId);
    const child = children?.session(childId);
    if (child) return child.eventsAfter(afterSeq);
    // One this window has not opened (it ended before): read from its log.
    const folder = children?.folder(childId);
    return folder ? closedLogEventsAfter(folder, afterSeq) : [];
  }
}
