// The window's remote conversations (their agent runs on an OpenHands agent-server): starting one
// from "Logbook: Start Agent Task on Server…", and opening one the list shows (its folder holds
// remote.json). The server's session key lives in the editor's secret storage, one per server URL,
// asked for once; it is never written to settings, events, logs or exports. An untrusted window
// connects to no server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ConfirmationMode } from '../../../core/agent/settings';
import type { SigningIdentity } from '../../../core/signing';
import { entryFromState, type IndexEntry } from '../../../core/state';
import { openConversationStore } from '../../node/session/conversation-store';
import { readRemoteOrigin, REMOTE_ORIGIN_FILE, writeRemoteOrigin } from '../../node/remote/remote-risk';
import type { SequencedEvent } from '../chat/chat-backend';
import type { StreamDelta } from '../../../protocol/messages';
import { windowLockHolder } from '../handoff/lock-holder';
import { editorSetting, readDefaultMode, readLlmSettings, writeSetting } from '../settings/config';
import type { RemoteSession } from './remote-session';

/** The remote stack, loaded on first use (a bundle of its own). */
const stack = () => import('./remote-session');

export interface RemoteConversationsDeps {
  root: string;
  secrets: vscode.SecretStorage;
  signing: () => Promise<SigningIdentity>;
  headFile: (id: string) => string;
  log: vscode.LogOutputChannel;
  onAppend: (id: string, events: SequencedEvent[]) => void;
  /** A remote reply's text as it streams in (transient, as a local model's stream). */
  onStream: (id: string, delta: StreamDelta) => void;
  onHeader: (id: string) => void;
  /** The conversation's entry in the list changed. */
  onEntry: (entry: IndexEntry) => Promise<void>;
  /** The window's own folders (storage, logs): a remote change's Apply writes or links nothing there. */
  ownFolders: readonly string[];
}

/** What starting a remote task needs; the command asks for what is not given. */
export interface RemoteTask {
  server: string;
  task: string;
  /** The working folder on the server's machine (default: the workspace folder's path). */
  workingDir: string;
}

const SERVERS_SETTING = 'remote.servers';
const KEY_PREFIX = 'logbook.remote.key:';

export class RemoteConversations {
  private readonly sessions = new Map<string, RemoteSession>();
  private readonly opening = new Map<string, Promise<RemoteSession>>();

  constructor(private readonly deps: RemoteConversationsDeps) {}

  /** Whether the conversation's folder is a remote conversation's. */
  isRemote(id: string): boolean {
    return this.sessions.has(id) || existsSync(join(this.deps.root, id, REMOTE_ORIGIN_FILE));
  }

  /** The open session of a remote conversation, opened once; undefined for a local one. */
  async of(id: string): Promise<RemoteSession | undefined> {
    const open = this.sessions.get(id);
    if (open) return open;
    if (!this.isRemote(id)) return undefined;
    let pending = this.opening.get(id);
    if (!pending) {
      pending = this.open(id).finally(() => this.opening.delete(id));
      this.opening.set(id, pending);
    }
    return pending;
  }

  /** Only when it is open already (the header is asked for synchronously). */
  opened(id: string): RemoteSession | undefined {
    return this.sessions.get(id);
  }

  private async open(id: string): Promise<RemoteSession> {
    const dir = join(this.deps.root, id);
    const origin = readRemoteOrigin(dir);
    if (!origin) throw new Error(`${join(dir, REMOTE_ORIGIN_FILE)} cannot be read.`);
    const store = await openConversationStore(dir, {
      signing: await this.deps.signing(),
      conversationId: id,
      headFile: this.deps.headFile(id),
      lockHolder: windowLockHolder(),
    });
    const session = await (
      await stack()
    ).RemoteSession.open({
      dir,
      origin,
      store,
      key: () => this.key(origin.server),
      refused: async () => void (await this.deps.secrets.delete(KEY_PREFIX + origin.server)),
      log: this.deps.log,
      onAppend: (events) => this.deps.onAppend(id, events),
      onStream: (delta) => this.deps.onStream(id, delta),
      onHeader: () => {
        this.deps.onHeader(id);
        void this.deps.onEntry(this.entry(session));
      },
      onProblem: (message) => void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', message)),
      unreachableLabel: (server, since, every) =>
        vscode.l10n.t(
          '{0}: not answering since {1}, asked again every {2} s',
          server,
          since.toLocaleTimeString(),
          String(every),
        ),
      confirmation: () => ({
        confirmation: editorSetting<ConfirmationMode>('confirmation.mode'),
        allowRules: editorSetting<string[]>('confirmation.allowRules'),
      }),
      ownFolders: this.deps.ownFolders,
    });
    this.sessions.set(id, session);
    return session;
  }

  entry(s: RemoteSession): IndexEntry {
    return { ...entryFromState(s.id, s.conversationState), status: s.status as IndexEntry['status'] };
  }

  /**
   * Starts the task on the server and streams its events into a new conversation's log; resolves
   * to the conversation's id (the server's) once its folder exists. `show` opens it in the chat
   * before the stream does, so the reply's first streamed words are not sent to another conversation.
   */
  async start(req: RemoteTask, show?: (id: string) => Promise<void>): Promise<string> {
    assertTrusted();
    const { normalizeServerUrl, refusedKey, startConversation } = await stack();
    const url = normalizeServerUrl(req.server);
    const key = await this.key(url);
    if (!key) throw new Error(vscode.l10n.t('No session key for {0}: nothing was sent.', url));
    const llm = await readLlmSettings(this.deps.secrets);
    const target = { url, key };
    const mode = readDefaultMode();
    const { serverHeadCommit } = await import('../../node/remote/agent-server-git');
    let base: string | undefined;
    let id: string;
    try {
      // The task is sent once the event stream is open (follow): the server streams a reply's
      // text only to those listening when it is written.
      // Before the agent can commit anything: the base its change is taken against.
      base = await serverHeadCommit(target, req.workingDir);
      id = await startConversation(target, {
        workingDir: req.workingDir,
        // A new conversation starts in logbook.agent.defaultMode: in plan the server holds every action.
        confirmation: mode === 'plan' ? 'always' : editorSetting<string>('confirmation.mode'),
        model: { model: llm.model, baseUrl: llm.baseUrl || undefined, apiKey: llm.apiKey || undefined },
      });
    } catch (err) {
      if (refusedKey(err)) await this.deps.secrets.delete(KEY_PREFIX + url);
      throw err;
    }
    await this.remember(url);
    const dir = join(this.deps.root, id);
    // The store makes the folder; remote.json goes beside the log before any event.
    const store = await openConversationStore(dir, {
      signing: await this.deps.signing(),
      conversationId: id,
      headFile: this.deps.headFile(id),
      lockHolder: windowLockHolder(),
    });
    writeRemoteOrigin(dir, {
      server: url,
      conversation_id: id,
      working_dir: req.workingDir,
      ...(mode === 'plan' ? { mode } : {}),
      ...(base ? { base_commit: base } : {}),
    });
    await store.close();
    const session = (await this.of(id))!;
    this.deps.log.info(`Remote conversation ${id}: started on ${url}`);
    await this.deps.onEntry(this.entry(session));
    await show?.(id);
    session.follow(target, req.task);
    return id;
  }

  /**
   * "Continue from here" on an event of a remote conversation: the server forks it up to that
   * event (`logbook fork --at`'s request), and the fork, idle on the server, gets a folder of its
   * own beside the source with the events the server copied; resolves to the fork's id.
   */
  async fork(
    id: string,
    eventId: string,
    open: (forkId: string) => Promise<void>,
  ): Promise<{ forkId: string }> {
    assertTrusted();
    const { forkOnServer, normalizeServerUrl, recordFork, refusedKey } = await stack();
    const origin = readRemoteOrigin(join(this.deps.root, id));
    if (!origin) throw new Error(`${join(this.deps.root, id, REMOTE_ORIGIN_FILE)} cannot be read.`);
    const url = normalizeServerUrl(origin.server);
    const key = await this.key(url);
    if (!key) throw new Error(vscode.l10n.t('No session key for {0}: nothing was sent.', url));
    const fork = await forkOnServer({ url, key }, origin, eventId).catch(async (err: unknown) => {
      if (refusedKey(err)) await this.deps.secrets.delete(KEY_PREFIX + url);
      throw err;
    });
    const dir = join(this.deps.root, fork.forkId);
    const store = await openConversationStore(dir, {
      signing: await this.deps.signing(),
      conversationId: fork.forkId,
      headFile: this.deps.headFile(fork.forkId),
      lockHolder: windowLockHolder(),
    });
    try {
      writeRemoteOrigin(dir, { ...origin, conversation_id: fork.forkId });
      const r = await recordFork(store, url, fork.events);
      if (r.unreadable !== undefined)
        throw new Error(
          vscode.l10n.t(
            'The agent-server sent an event Logbook cannot read: {0}. The {1} event(s) before it are in {2}.',
            r.unreadable,
            String(r.written),
            dir,
          ),
        );
    } finally {
      await store.close();
    }
    this.deps.log.info(`Remote conversation ${id}: forked on ${url} at ${eventId} as ${fork.forkId}`);
    const session = (await this.of(fork.forkId))!;
    await this.deps.onEntry(this.entry(session));
    await open(fork.forkId);
    return { forkId: fork.forkId };
  }

  /** The server's key from secret storage, else asked for once (and kept there). */
  async key(server: string): Promise<string | undefined> {
    assertTrusted();
    const stored = await this.deps.secrets.get(KEY_PREFIX + server);
    if (stored) return stored;
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Logbook: Session Key of {0}', server),
      prompt: vscode.l10n.t("The agent-server's session API key (kept in the editor's secret storage)."),
      password: true,
      ignoreFocusOut: true,
    });
    if (!typed?.trim()) return undefined;
    await this.deps.secrets.store(KEY_PREFIX + server, typed.trim());
    return typed.trim();
  }

  /** Keeps a server's key in secret storage (what the prompt does; for callers that have it). */
  async setKey(server: string, key: string): Promise<void> {
    const { normalizeServerUrl } = await stack();
    await this.deps.secrets.store(KEY_PREFIX + normalizeServerUrl(server), key);
  }

  /** The server goes first in the recent list (the user's settings). */
  private async remember(url: string): Promise<void> {
    const recent = editorSetting<string[]>(SERVERS_SETTING).filter((s) => s !== url);
    await writeSetting(SERVERS_SETTING, [url, ...recent].slice(0, 10), 'user').catch((err: unknown) =>
      this.deps.log.warn(`Could not remember the agent-server ${url}: ${String(err)}`),
    );
  }

  async dispose(): Promise<void> {
    if (this.sessions.size > 0) (await stack()).disposeRemoteReview();
    for (const s of this.sessions.values()) await s.dispose().catch(() => undefined);
    this.sessions.clear();
  }
}

/** An untrusted workspace connects to no server (its settings could name one to send the key to). */
function assertTrusted(): void {
  if (!vscode.workspace.isTrusted)
    throw new Error(
      vscode.l10n.t('This workspace is not trusted: Logbook connects to no agent-server from it.'),
    );
}

/** The servers the user used, newest first (logbook.remote.servers). */
export function recentServers(): string[] {
  return editorSetting<string[]>(SERVERS_SETTING).filter((s) => s.trim() !== '');
}
