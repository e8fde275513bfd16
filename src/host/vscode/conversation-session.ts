// One open conversation in the editor: the core Conversation on a segment log under the
// workspace storage, with the VS Code ports (workspace edits, an integrated terminal). Runs are
// started here and never awaited by UI code; their failures become events or log lines.
import { activeDemo } from './demo-model';
import type { SignatureCheck } from './verify';
import type { AgentMode } from '../../core/state';
import * as vscode from 'vscode';
import type { Conversation } from '../../core/agent/conversation';
import type { StoredConversationEvent } from '../../core/agent/event-codec';
import type { PolicyGate } from '../../core/agent/policy-gate';
import type { Event } from '../../core/events';
import { isCorruptRecord, type EventStore, type Slot } from '../../core/log/event-store';
import { hasLiveWriter, liveWriter } from '../../core/log/lock';
import { LIMITS } from '../../protocol/messages';
import { describeHolder } from './lock-holder';
import type { SigningIdentity } from '../../core/signing';
import { type ExecutionStatus, statusForReader } from '../../core/state';
import type { ToolSpec } from '../../core/tools';
import type { Skill } from '../../core/skills/skills';
import type { NamedSecret } from '../../core/secrets';
import type { ConversationHeader, PlanStep, SequencedEvent, StreamDelta } from './chat-backend';
import type { ImageStore } from '../../core/attachments/image-store';
import {
  editorSetting,
  llmSupportsImages,
  type LlmProvider,
  readAgentSettings,
  readCondenserSettings,
  readEditorModel,
  readLlmProvider,
  terminalPassEnvironment,
  terminalTimeoutSeconds,
} from './config';
import { LlmSummarizingCondenser } from '../../core/context';
import type { ConfiguredLlm } from './configured-llm';
import { IntegratedTerminalPort, type TerminalMode } from './ports/terminal-port';
import { WorkspaceFilePort } from './ports/workspace-file-port';
import type { WorkspaceCheckpointStore } from '../node/checkpoints/workspace-store';
import { settingAwarePort } from './checkpoints';
import type { EditorMcpServers } from './mcp/editor-mcp-servers';
import { joinSecrets } from '../node/mcp';
import { joinToolSources } from '../../core/agent/tool-sources';
import { editorToolSource } from './editor-tools';
import { openAgentSession } from '../node/session/agent-session';
import { type ConversationStore, openConversationStore } from '../node/session/conversation-store';
import type { EditorSandbox } from './sandbox/editor-sandbox';
import { readWebRules, readWebSearch } from './web-settings';

export interface SessionDeps {
  id: string;
  dir: string;
  cwd: string;
  llm: ConfiguredLlm;
  skills: Skill[];
  log: vscode.LogOutputChannel;
  onAppend(events: SequencedEvent[]): void;
  onHeader(): void;
  onStream(delta: StreamDelta): void;
  /** Edits the user made to the agent's changes since the last call (from the inline review). */
  userEditNotes(): string[];
  /** The user chose to continue without events the log lost (see SegmentStoreOptions). */
  acceptLostEvents?: boolean;
  /** Signs and chains every event appended (signatures.log beside the segments). */
  signing: SigningIdentity;
  /** Where the conversation's signed head is kept outside its folder (the extension's global storage). */
  headFile: string;
  /** This window, in words, for the writer lock: another window that finds it held names it. */
  lockHolder: string;
  /** The workspace's checkpoint store; none (no workspace folder): no checkpoints. */
  checkpoints?: WorkspaceCheckpointStore;
  /** The window's MCP servers, whose tools the conversation may use. */
  mcp?: EditorMcpServers;
  /** The sandbox the agent's commands run in (disposed with the session); none: unsandboxed. */
  sandbox?: EditorSandbox;
}

/** Statuses after which no command of this run will come: its terminal tab is closed. */
const RUN_ENDED = new Set<ExecutionStatus>(['finished', 'error', 'stuck']);

export class ConversationSession {
  readonly id: string;
  readonly dir: string;
  private terminalRef: { port?: IntegratedTerminalPort } = {};
  private running: Promise<ExecutionStatus> | undefined;
  /** The last verification's verdict, shown as a badge in the chat header. */
  private signature: SignatureCheck | undefined;

  private constructor(
    private readonly deps: SessionDeps,
    readonly conversation: Conversation,
    private readonly store: EventStore<StoredConversationEvent>,
    private readonly tools: ToolSpec[],
    /** The gate the conversation asks; the header reads its decisions for the pending risks. */
    private readonly gate: PolicyGate,
    private readonly imageStore: ImageStore,
  ) {
    this.id = deps.id;
    this.dir = deps.dir;
  }

  static async open(deps: SessionDeps): Promise<ConversationSession> {
    const chain = { conversationId: deps.id, headFile: deps.headFile };
    const store = await openWritable(deps, chain, (why) => {
      deps.log.warn(`Conversation ${deps.id}: not signed from here on: ${why}`);
      void vscode.window.showWarningMessage(
        `Logbook: this conversation has a damaged record written before signing (${why}), so its new events are not signed. Logbook: Verify Conversation names the record.`,
      );
    });
    if (store.openReport.quarantined.length || store.openReport.truncatedBytes) {
      deps.log.warn(
        `Conversation ${deps.id}: recovered its log on open (${JSON.stringify(store.openReport)})`,
      );
    }
    const webSearch = readWebSearch(deps.log);
    // One integrated terminal per conversation, named after it, created when the agent first runs a command.
    const terminal: { port?: IntegratedTerminalPort; title: () => string } = { title: () => 'Agent' };
    const knownSecrets = deps.llm.knownSecrets;
    const box = deps.sandbox;
    const mcp = deps.mcp;
    const { conversation, gate, tools, toolSource, images } = await openAgentSession({
      id: deps.id,
      dir: deps.dir,
      cwd: deps.cwd,
      store,
      llm: deps.llm,
      settings: readAgentSettings,
      tools: {
        terminalTimeoutSec: terminalTimeoutSeconds(),
        // The settings are read at each fetch: a host added to logbook.web.allowedHosts counts at once.
        web: { rules: readWebRules, ...(webSearch ? { search: webSearch } : {}) },
      },
      toolSource: (tools) => {
        const mcpSource = mcp?.source();
        const editor = editorToolSource(
          () => [...tools.map((t) => t.name), ...(mcpSource?.tools() ?? []).map((t) => t.name)],
          deps.log,
        );
        return joinToolSources(mcpSource ? [mcpSource, editor] : [editor]);
      },
      ports: {
        files: new WorkspaceFilePort(),
        terminal: (place) =>
          (terminal.port = new IntegratedTerminalPort({
            title: terminal.title(),
            cwd: place.startDir(),
            // The shell starts without the key (and LOGBOOK_*), unless the user passes a name on.
            environment: async () => {
              await knownSecrets.refresh();
              return {
                pass: terminalPassEnvironment(),
                secretValues: knownSecrets.current.map((s) => s.value),
              };
            },
            ...(box
              ? {
                  sandbox: {
                    sandbox: box.sandbox,
                    workspaces: () => workspaceRoots(deps.cwd),
                    readOnly: place.readOnly,
                    launcherDir: box.launcherDir,
                  },
                }
              : {}),
          })),
      },
      roots: () => workspaceRoots(deps.cwd),
      secrets: mcp
        ? joinSecrets(
            () => knownSecrets.current,
            () => mcp.knownSecrets(),
          )
        : () => knownSecrets.current,
      condenser: new LlmSummarizingCondenser(readCondenserSettings()),
      // The editor's Language Model API takes text only: its models get the note, not the bytes.
      supportsImages: () => llmSupportsImages() && readLlmProvider() !== 'vscode',
      skills: deps.skills,
      userEditNotes: () => deps.userEditNotes(),
      ...(deps.checkpoints ? { checkpoints: settingAwarePort(deps.checkpoints) } : {}),
      ...(box ? { sandbox: box.sandbox } : {}),
    });
    const { fromSnapshot, replayed } = conversation.opened;
    deps.log.info(
      fromSnapshot === null
        ? `Conversation ${deps.id}: opened by replaying its ${replayed} events`
        : `Conversation ${deps.id}: opened from its snapshot at event ${fromSnapshot} and ${replayed} events after it`,
    );
    const session = new ConversationSession(deps, conversation, store, tools, gate, images);
    // Reopened while an action waits: its server must run for its tool to be rated and shown.
    if (conversation.status === 'waiting_for_confirmation' && toolSource)
      void toolSource.prepare().then(
        () => deps.onHeader(),
        () => undefined,
      );
    terminal.title = () => conversation.state.title ?? 'Agent';
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
    const mcp = this.deps.mcp?.knownSecrets() ?? [];
    return mcp.length ? [...own, ...mcp] : own;
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
        reason: (d.riskReasons ?? d.reasons).join('; '),
      })),
      readOnly: this.readOnly,
      ...(this.readOnly ? heldBy(this.dir) : {}),
      mode: s.mode,
      ...(this.signature ? signatureFields(this.signature) : {}),
      model: configuredModel(),
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

  async send(
    text: string,
    attached?: { texts: readonly string[]; images: readonly string[] },
  ): Promise<void> {
    this.ensureWritable();
    // An attached file may hold the key just set: the redactor must know it before this is recorded.
    await this.deps.llm.knownSecrets.refresh();
    await this.conversation.sendMessage(
      text,
      attached ? { attachments: attached.texts, images: attached.images } : {},
    );
    this.startRun();
  }

  /** Starts (or joins) a run in the background with the current settings. */
  startRun(): void {
    if (this.running || this.readOnly) return;
    this.conversation.updateSettings(readAgentSettings());
    this.running = this.conversation
      .run()
      .catch((err: unknown) => {
        this.deps.log.error(
          `Conversation ${this.id}: the run failed: ${(err as Error).stack ?? String(err)}`,
        );
        return this.conversation.status;
      })
      .finally(() => {
        this.running = undefined;
        // The task is over: its terminal tab goes (the next command opens one where it left off).
        if (RUN_ENDED.has(this.conversation.status)) this.terminalRef.port?.closeTab();
        this.deps.onHeader();
      });
  }

  /** Resolves when the current run (if any) ends. */
  async settled(): Promise<ExecutionStatus> {
    return (await this.running) ?? this.conversation.status;
  }

  async approve(ids: string[]): Promise<void> {
    this.ensureWritable();
    await this.conversation.approve(ids);
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
    await this.conversation.reject(reason, ids);
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
    this.terminalRef.port?.dispose();
    await this.deps.sandbox?.sandbox.dispose().catch(() => undefined);
    await this.store.close();
  }

  private ensureWritable(): void {
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

function workspaceRoots(cwd: string): string[] {
  const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath) ?? [];
  return folders.length ? folders : [cwd];
}

/** How long to wait for a lock held by a window that is closing (a reload replaces the extension host). */
const LOCK_WAIT_MS = 10_000;

/**
 * Opens the log for writing, waiting a little while another process holds its lock: after a window
 * reload the previous extension host may still be shutting down. Still locked after that, it is
 * opened read-only (another window really has it open).
 */
async function openWritable(
  deps: Pick<SessionDeps, 'dir' | 'signing' | 'acceptLostEvents' | 'lockHolder'>,
  chain: { conversationId: string; headFile: string },
  unsigned: (why: string) => void,
): Promise<ConversationStore> {
  const { dir } = deps;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const store = await openConversationStore(dir, {
      ...chain,
      signing: deps.signing,
      acceptLostEvents: deps.acceptLostEvents === true,
      lockHolder: deps.lockHolder,
      // A record that was never chained and no longer reads (damage in a log written before
      // signing, kept aside on open) cannot be signed: the conversation goes on unsigned, and says so.
      unsigned,
    });
    if (!store.readOnly || Date.now() >= deadline) return store;
    await store.close();
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Who writes a conversation this window only reads, for the header (none once nobody does). */
function heldBy(dir: string): Pick<ConversationHeader, 'heldBy'> {
  const writer = liveWriter(dir);
  return writer ? { heldBy: describeHolder(writer).slice(0, LIMITS.title) } : {};
}

/** The header's view of a verification: the badge, the signers, and where it broke. */
function signatureFields(
  r: SignatureCheck,
): Pick<ConversationHeader, 'signature' | 'signers' | 'signerNames' | 'signatureNote' | 'brokenAt'> {
  const bad = r.status === 'broken' ? r.firstBad : null;
  return {
    signature: r.verdict,
    signers: r.signers.slice(0, 64),
    signerNames: r.signerNames.slice(0, 64),
    signatureNote: r.message.slice(0, 2_000),
    ...(bad ? { brokenAt: { seq: bad.index, id: bad.id, reason: bad.reason } } : {}),
  };
}

function viewJsonOf(slot: Slot<StoredConversationEvent>): SequencedEvent['event'] {
  return isCorruptRecord(slot) ? { ...slot } : toViewJson(slot as Event);
}

/** The model the next step will use, as the settings say (the header's model button). */
function configuredModel(): { name: string; provider: LlmProvider } {
  const demo = activeDemo();
  if (demo) return { name: demo.model, provider: 'openai' };
  const provider = readLlmProvider();
  if (provider === 'vscode') return { name: readEditorModel() || 'editor model', provider };
  return { name: editorSetting<string>('llm.model'), provider };
}
