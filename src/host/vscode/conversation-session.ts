// One open conversation in the editor: the core Conversation on a segment log under the
// workspace storage, with the VS Code ports (workspace edits, an integrated terminal). Runs are
// started here and never awaited by UI code; their failures become events or log lines.
import { activeDemo } from './demo-model';
import type { SignatureCheck } from './verify';
import type { AgentMode } from '../../core/state';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Conversation } from '../../core/agent/conversation';
import { conversationEventCodec, type StoredConversationEvent } from '../../core/agent/event-codec';
import type { PolicyGate } from '../../core/agent/policy-gate';
import type { Event } from '../../core/events';
import { EventStoreError, isCorruptRecord, type EventStore, type Slot } from '../../core/log/event-store';
import { SegmentEventStore } from '../../core/log/segment-store';
import { hasLiveWriter, liveWriter } from '../../core/log/lock';
import { LIMITS } from '../../protocol/messages';
import { describeHolder } from './lock-holder';
import { SignedEventStore, type SigningIdentity, openSignedStore } from '../../core/signing';
import type { ConversationAgent } from '../../core/agents/conversation-agent';
import type { AgentSettings } from '../../core/agent/settings';
import type { SessionToolContext } from '../node/node-session';
import { type ExecutionStatus, statusForReader } from '../../core/state';
import {
  defaultTools,
  type ShellCwd,
  type TerminalPort,
  trackShellCwd,
  type ToolSpec,
} from '../../core/tools';
import type { Skill } from '../../core/skills/skills';
import type { NamedSecret } from '../../core/secrets';
import { NodeSearchPort, TempScratchPort } from '../node/ports';
import type {
  ChildAgentView,
  ConversationHeader,
  PlanStep,
  SequencedEvent,
  StreamDelta,
} from './chat-backend';
import { ImageStore } from '../../core/attachments/image-store';
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
import { shellStartDir } from '../node/ports/shell-start';
import { WorkspaceFilePort } from './ports/workspace-file-port';
import type { WorkspaceCheckpointStore } from '../node/checkpoints/workspace-store';
import { settingAwarePort } from './checkpoints';
import type { EditorMcpServers } from './mcp/editor-mcp-servers';
import { joinSecrets } from '../node/mcp';
import { joinToolSources } from '../../core/agent/tool-sources';
import { editorToolSource } from './editor-tools';
import { assembleConversation } from '../node/conversation-assembly';
import type { EditorSandbox } from './sandbox/editor-sandbox';
import { NodeWebPort } from '../node/web/node-web-port';
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
  /** The sandbox is the parent's (a delegated agent's session): disposing this one leaves it. */
  sharedSandbox?: boolean;
  /** The agent the conversation runs as (its stamp on every event, its prompt sections). */
  agent?: ConversationAgent;
  /** The tools it gets from the built-in ones (the main agent's delegate tool; a child's subset). */
  tools?: (builtIn: ToolSpec[], ctx: SessionToolContext) => ToolSpec[];
  /** Settings that win over the editor's (a delegated agent's caps). */
  settings?: Partial<AgentSettings>;
  /** Answers a pending action of a delegated agent (ids the conversation itself does not hold). */
  children?: ChildDecisions;
}

/** The user's answers to actions delegated agents wait on, by their action ids. */
export interface ChildDecisions {
  /** Whether a child holds any of these actions; it records the answer, and the parent runs on. */
  approve(ids: readonly string[]): Promise<boolean>;
  reject(ids: readonly string[], reason: string): Promise<boolean>;
  /** The delegated agents, as the chat's delegation cards show them. */
  views(): ChildAgentView[];
  dispose(): Promise<void>;
}

/** Statuses after which no command of this run will come: its terminal tab is closed. */
const RUN_ENDED = new Set<ExecutionStatus>(['finished', 'error', 'stuck']);

export class ConversationSession {
  readonly id: string;
  readonly dir: string;
  private terminalRef: { port?: IntegratedTerminalPort } = {};
  private running: Promise<ExecutionStatus> | undefined;
  /** A run was asked for while one was ending (an approval as it stopped to wait): run again after. */
  private runAgain = false;
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
    const webSearch = readWebSearch(deps.log);
    const builtIn = defaultTools({
      terminal: { defaultTimeoutSec: terminalTimeoutSeconds() },
      // The settings are read at each fetch: a host added to logbook.web.allowedHosts counts at once.
      web: new NodeWebPort({ rules: readWebRules }),
      ...(webSearch ? { webSearch } : {}),
    });
    const opened: { conversation?: Conversation } = {};
    const tools = deps.tools
      ? deps.tools(builtIn, {
          conversation: () => {
            if (!opened.conversation) throw new Error('The conversation is not open yet.');
            return opened.conversation;
          },
          useSigner: (identity) => {
            if (store instanceof SignedEventStore) store.useIdentity(identity);
          },
        })
      : builtIn;
    // One integrated terminal per conversation, named after it, created when the agent first runs a command.
    const terminal: { port?: IntegratedTerminalPort; title: () => string; startDir: () => string } = {
      title: () => 'Agent',
      startDir: () => deps.cwd,
    };
    const knownSecrets = deps.llm.knownSecrets;
    const box = deps.sandbox;
    // The mode is the conversation's, which opens after the terminal port exists: read late.
    let planMode = (): boolean => false;
    // The gate judges a command's relative paths from where the shell is (an earlier cd carries over).
    let shell: (TerminalPort & ShellCwd) | undefined;
    const lazyTerminal = () => (shell ??= trackShellCwd(lazyIntegratedTerminal(), () => terminal.startDir()));
    const lazyIntegratedTerminal = () =>
      (terminal.port ??= new IntegratedTerminalPort({
        title: terminal.title(),
        cwd: terminal.startDir(),
        // The shell starts without the key (and LOGBOOK_*), unless the user passes a name on.
        environment: async () => {
          await knownSecrets.refresh();
          return { pass: terminalPassEnvironment(), secretValues: knownSecrets.current.map((s) => s.value) };
        },
        ...(box
          ? {
              sandbox: {
                sandbox: box.sandbox,
                workspaces: () => workspaceRoots(deps.cwd),
                readOnly: () => planMode(),
                launcherDir: box.launcherDir,
              },
            }
          : {}),
      }));
    // Images the user attaches or a tool views are kept once in the conversation's folder.
    const images = new ImageStore(deps.dir);
    const ports = {
      images,
      files: new WorkspaceFilePort(),
      get terminal() {
        return lazyTerminal();
      },
      search: new NodeSearchPort(),
      scratch: new TempScratchPort(join(deps.dir, 'scratch')),
    };
    const settings = { ...readAgentSettings(), ...deps.settings };
    const mcpSource = deps.mcp?.source();
    const editor = editorToolSource(
      () => [...tools.map((t) => t.name), ...(mcpSource?.tools() ?? []).map((t) => t.name)],
      deps.log,
    );
    const toolSource = joinToolSources(mcpSource ? [mcpSource, editor] : [editor]);
    const mcp = deps.mcp;
    const secrets = mcp
      ? joinSecrets(
          () => knownSecrets.current,
          () => mcp.knownSecrets(),
        )
      : () => knownSecrets.current;
    const { conversation, gate } = await assembleConversation({
      id: deps.id,
      store,
      llm: deps.llm,
      tools,
      ports,
      cwd: deps.cwd,
      settings,
      skills: deps.skills,
      condenser: new LlmSummarizingCondenser(readCondenserSettings()),
      userEditNotes: () => deps.userEditNotes(),
      secrets,
      toolSource,
      images: {
        // The editor's Language Model API takes text only: its models get the note, not the bytes.
        supportsImages: () => llmSupportsImages() && readLlmProvider() !== 'vscode',
        load: (url) => images.dataUrl(url),
      },
      ...(deps.checkpoints ? { checkpoints: settingAwarePort(deps.checkpoints) } : {}),
      ...(box ? { sandbox: box.sandbox } : {}),
      // The editor's terminal (or its fallback, a login shell) reads the user's startup files.
      shell: () => ({ startup: 'user' }),
      confirmation: () => {
        const s = readAgentSettings();
        return { mode: s.confirmationMode, allowRules: s.allowRules };
      },
      roots: () => workspaceRoots(deps.cwd),
      readableRoots: () => [join(deps.dir, 'scratch')],
      shellCwd: () => shell?.cwd ?? terminal.startDir(),
      ...(deps.agent ? { agent: deps.agent } : {}),
    });
    opened.conversation = conversation;
    const { fromSnapshot, replayed } = conversation.opened;
    deps.log.info(
      fromSnapshot === null
        ? `Conversation ${deps.id}: opened by replaying its ${replayed} events`
        : `Conversation ${deps.id}: opened from its snapshot at event ${fromSnapshot} and ${replayed} events after it`,
    );
    const session = new ConversationSession(deps, conversation, store, tools, gate, images);
    // Reopened while an action waits: its server must run for its tool to be rated and shown.
    if (conversation.status === 'waiting_for_confirmation')
      void toolSource.prepare().then(
        () => deps.onHeader(),
        () => undefined,
      );
    terminal.title = () => conversation.state.title ?? 'Agent';
    terminal.startDir = () => shellStartDir(conversation.state.shellCwd, deps.cwd);
    planMode = () => conversation.state.mode === 'plan';
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
    if (this.readOnly) return;
    if (this.running) {
      // The run may already be past the point where it would see what was just recorded (an
      // approval recorded while it ends to wait for one): run again once it ended, if so.
      this.runAgain = true;
      return;
    }
    this.running = this.runUntilSettled().finally(() => {
      this.running = undefined;
      // The task is over: its terminal tab goes (the next command opens one where it left off).
      if (RUN_ENDED.has(this.conversation.status)) this.terminalRef.port?.closeTab();
      this.deps.onHeader();
    });
  }

  private async runUntilSettled(): Promise<ExecutionStatus> {
    let status: ExecutionStatus;
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
    await this.deps.children?.dispose();
    this.terminalRef.port?.dispose();
    if (!this.deps.sharedSandbox) await this.deps.sandbox?.sandbox.dispose().catch(() => undefined);
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
): Promise<SignedEventStore<StoredConversationEvent> | SegmentEventStore<StoredConversationEvent>> {
  const { dir } = deps;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const options = {
      codec: conversationEventCodec,
      acceptLostEvents: deps.acceptLostEvents === true,
      lockHolder: deps.lockHolder,
    };
    const store = await openSignedStore<StoredConversationEvent>(dir, {
      ...options,
      ...chain,
      identity: deps.signing,
    }).catch((err: unknown) => {
      if (!isUnsignableDamage(err)) throw err;
      // A record that was never chained and no longer reads (damage in a log written before
      // signing, kept aside on open) cannot be signed. The conversation goes on unsigned, and says
      // so: Verify reports the damaged record, never "verified".
      unsigned(err.message);
      return SegmentEventStore.open<StoredConversationEvent>(dir, options);
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

/**
 * The signer refused because a record it would chain late is unreadable (signed-store.ts). Any
 * other refusal (a malformed signatures.log, a chain longer than the log) stays an error.
 */
function isUnsignableDamage(err: unknown): err is EventStoreError {
  return err instanceof EventStoreError && err.code === 'UNSIGNABLE';
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
