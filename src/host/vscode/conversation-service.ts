// Owns the workspace's conversations: which exist (the index), which are open, which one the chat
// panel shows. Implements the ChatBackend the panel talks to, and is what the commands, the tree
// and the status bar read. Conversations live under the extension's workspace storage.
import { randomUUID } from 'node:crypto';
import { readdir, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
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
import { EventStoreError, hasLiveWriter, openEventStore } from '../../core/log';
import { conversationEventCodec, type StoredConversationEvent } from '../../core/agent/event-codec';
import { NodeFilePort } from '../node/ports';
import type { ChatBackend, ConversationHeader, SequencedEvent, StreamDelta } from './chat-backend';
import type { LlmSettingId } from '../../protocol/messages';
import { addAllowRule } from './config';
import { ConfiguredLlm } from './configured-llm';
import { ConversationSession, type SessionDeps } from './conversation-session';
import { forkConversation } from './fork';
import { importOpenHands } from '../../core/agent/import-openhands';
import { type VerifyResult, verifyConversation } from '../../core/signing';
import { SecretSigningKey } from './signing-key';
import { EditorMcpServers } from './mcp/editor-mcp-servers';

const ACTIVE_KEY = 'logbook.activeConversation';

/** A conversation as the list shows it. */
export type ListedConversation = IndexEntry & {
  /** Why it shows as paused although its log says running (the process that ran it is gone). */
  interrupted?: string;
};

export class ConversationService implements ChatBackend, vscode.Disposable {
  private readonly sessions = new Map<string, ConversationSession>();
  private readonly opening = new Map<string, Promise<ConversationSession>>();
  private index: ConversationIndex = { entries: [] };
  private activeConversationId: string | undefined;
  private readonly llm: ConfiguredLlm;
  private skills: Skill[] | undefined;
  private readonly indexFile: ConversationIndexFile;
  private readonly signingKey: SecretSigningKey;
  /** The window's MCP servers; they stop with the window. */
  readonly mcp: EditorMcpServers;

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
    this.mcp = new EditorMcpServers(context.secrets, log, () =>
      this.llm.knownSecrets.current.map((s) => s.value),
    );
    const base = context.storageUri ?? context.globalStorageUri;
    this.root = join(base.fsPath, 'conversations');
    this.indexFile = new ConversationIndexFile(join(this.root, 'index.json'));
    this.activeConversationId = context.workspaceState.get<string>(ACTIVE_KEY);
  }

  readonly root: string;

  /** Loads the conversation list (rebuilding the index from the folders if it is missing or damaged). */
  async initialize(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const load = await this.indexFile.load(() => this.scanFolders());
    if (load.source === 'rebuilt' && load.reason === 'corrupt') {
      this.log.warn(
        `The conversation index was damaged (${load.detail}); rebuilt it from the conversation folders.`,
      );
    }
    this.index = load.index;
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

  get activeId(): string | undefined {
    return this.activeConversationId;
  }

  get activeSession(): ConversationSession | undefined {
    return this.activeConversationId ? this.sessions.get(this.activeConversationId) : undefined;
  }

  list(): ListedConversation[] {
    return this.index.entries.map((e) => this.asSeen(e));
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
  private async sendTask(s: ConversationSession, task: string, context: string): Promise<void> {
    const untitled = s.conversation.state.title === null;
    await s.send(task + context);
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
    attachments?: { activeFile?: boolean; selection?: boolean },
  ): Promise<void> {
    const s = this.activeSession ?? (await this.create());
    if (!this.activeConversationId) await this.setActive(s.id);
    await this.sendTask(s, text, attachmentText(attachments));
    await this.refreshEntry(s);
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

  async forkFrom(conversationId: string, eventId: string): Promise<void> {
    const source = await this.session(conversationId);
    const id = randomUUID();
    await forkConversation(source, eventId, join(this.root, id), await this.signingKey.identity());
    const s = await this.session(id);
    await this.refreshEntry(s);
    await this.setActive(id);
  }

  /**
   * Imports an OpenHands SDK conversation folder or V0 trajectory file as a new conversation of this
   * workspace and shows it in the chat; resolves to its id.
   */
  async importConversation(from: string): Promise<string> {
    const id = randomUUID();
    await importOpenHands(from, join(this.root, id), { id });
    const s = await this.session(id);
    await this.refreshEntry(s);
    await this.setActive(id);
    return id;
  }

  /**
   * Checks a conversation's events against its signed hash chain, as `logbook verify` does. An open
   * conversation is flushed first, so the signature over its newest events is on disk.
   */
  async verify(conversationId: string): Promise<VerifyResult> {
    if (!this.index.entries.some((e) => e.id === conversationId) && !this.sessions.has(conversationId)) {
      throw new Error(`There is no conversation ${conversationId}.`);
    }
    const session = this.sessions.get(conversationId);
    await session?.flush();
    const result = verifyConversation(join(this.root, conversationId));
    session?.setSignature(result.status);
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
    await rm(join(this.root, conversationId), { recursive: true, force: true });
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
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? this.root;
    this.skills ??= await loadSkills(new NodeFilePort([cwd]), cwd).catch(() => []);
    const signing = await this.signingKey.identity();
    const deps: SessionDeps = {
      signing,
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
      mcp: this.mcp,
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
    if (session.readOnly) {
      void vscode.window.showWarningMessage(
        'Logbook: this conversation is open in another window, so it is read-only here.',
      );
    }
    this.sessions.set(id, session);
    // Opening may have recorded a recovery (it was left running): the list shows the new status.
    void this.refreshEntry(session);
    return session;
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

  /** One index entry per conversation folder, read-only (never takes a writer lock). */
  private async scanFolders(): Promise<IndexEntry[]> {
    const entries: IndexEntry[] = [];
    for (const name of await readdir(this.root).catch(() => [] as string[])) {
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
    for (const s of this.sessions.values()) await s.dispose().catch(() => {});
    await this.mcp.dispose().catch(() => {});
    this.llm.knownSecrets.dispose();
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
