// One ACP session: a Logbook conversation opened the way `logbook run` opens one (its folder in the
// workspace, signed, checkpointed, sandboxed), driven turn by turn by an editor. What the agent
// does streams as `session/update`; what the gate holds becomes `session/request_permission`, and
// the user's answer is recorded through the conversation's own approve and reject.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import type {
  AgentContext,
  ContentBlock,
  FileSystemCapabilities,
  McpServer,
  PermissionOption,
  SessionModeState,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk';
import type { ConfirmationMode } from '../../../core/agent/settings';
import type { AgentMode } from '../../../core/agent/plan-mode';
import type { ActionEvent, Event } from '../../../core/events';
import { matchAllowRules } from '../../../core/security/allow-rules';
import { withoutUrlCredentials } from '../../../core/secrets/url-secrets';
import { openCliSession, type CliSession, type PreparedSession } from '../cli/cli-session';
import { actionWhat } from '../cli/event-line';
import { excludeStoreFromGit, STORE_EXCLUDE_LINE } from '../cli/git-exclude';
import { keepRecord } from '../cli/kept-record';
import { newSessionInfo, noteTitle, readSessionInfo, writeSessionInfo } from '../cli/session-file';
import { addUserAllowRule } from '../cli/user-allow-rules';
import type { FilePort } from '../../../core/tools';
import { ClientFilePort } from './client-file-port';
import { EventUpdates } from './event-updates';
import { withEditorServers } from './editor-mcp-servers';
import { commandPrefix } from './command-prefix';

export const MODES: SessionModeState['availableModes'] = [
  {
    id: 'act',
    name: 'Act',
    description: 'The agent reads, edits and runs commands, asking as your settings say.',
  },
  {
    id: 'plan',
    name: 'Plan',
    description: 'Read only: the agent explores and answers with a plan; nothing is changed.',
  },
];

const ALLOW_ONCE = 'allow_once';
const ALLOW_ALWAYS = 'allow_always';
const REJECT_ONCE = 'reject_once';

/** Where a workspace's conversations live, as `logbook run` puts them. */
export function conversationsRoot(workspace: string): string {
  return join(workspace, '.logbook', 'conversations');
}

/** What the editor brings to a session: its connection, its file capabilities, its MCP servers. */
export interface EditorParts {
  client: AgentContext;
  fs: FileSystemCapabilities;
  mcpServers: readonly McpServer[];
}

export class AcpSession {
  private cancelling = false;
  private turn: Promise<StopReason> | undefined;
  /** Tools other than the terminal the user allowed for this session (not kept past it). */
  private readonly allowedTools = new Set<string>();
  /** Command prefixes the user allowed always while this session was open. */
  private readonly allowRules: string[] = [];
  private titleSent: string | undefined;
  private readonly stopListening: () => void;

  private constructor(
    readonly id: string,
    readonly dir: string,
    readonly workspace: string,
    private readonly opened: CliSession,
    private readonly client: AgentContext,
    private readonly env: PreparedSession['io']['env'],
  ) {
    // Whether the model's reply reached the editor as deltas: an endpoint that does not stream has
    // its reply sent from the recorded event instead.
    let streamed = false;
    const live = new EventUpdates({ workspace, streamed: () => streamed });
    const conversation = opened.session.conversation;
    // The user's own words are the editor's already; everything else streams as it is recorded.
    const onEvent = (e: Event) => {
      if (e.kind === 'MessageEvent' && e.source === 'user') return;
      for (const u of live.of(e)) this.send(u);
      // A reply's actions share its deltas; the next reply starts after their results.
      if (e.kind !== 'ActionEvent' && e.kind !== 'ConversationStateUpdateEvent') streamed = false;
    };
    const offEvent = conversation.onEvent(onEvent);
    const offDelta = conversation.onDelta((d) => {
      if ((d.type === 'text' || d.type === 'reasoning') && d.text) streamed = true;
      if (d.type === 'text' && d.text)
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: d.text } });
      if (d.type === 'reasoning' && d.text)
        this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: d.text } });
    });
    this.stopListening = () => {
      offEvent();
      offDelta();
    };
  }

  /** A new conversation in the workspace, recorded like one `logbook run` starts. */
  static async create(
    prepared: PreparedSession,
    workspace: string,
    editor: EditorParts,
  ): Promise<AcpSession> {
    const id = randomUUID();
    const dir = join(conversationsRoot(workspace), id);
    const session = await AcpSession.open(prepared, workspace, id, dir, editor);
    // As for `run`: the conversations stay out of the repository's status.
    if (excludeStoreFromGit(workspace) === 'added')
      prepared.io.err(`logbook acp: added ${STORE_EXCLUDE_LINE} to the repository's .git/info/exclude`);
    const { settings } = prepared;
    const demo = settings.get<boolean>('demo');
    const info = newSessionInfo({
      id,
      workspace,
      confirmation: settings.get<ConfirmationMode>('confirmation.mode'),
      max_iterations: null,
      max_tool_calls_per_reply: null,
      model: session.opened.llmSettings.model,
      base_url: demo ? null : withoutUrlCredentials(prepared.llmSettings.baseUrl),
      demo,
      mcp_config: prepared.mcpConfigPath ?? null,
    });
    writeSessionInfo(dir, info);
    // Out of the workspace's reach, as for `run`: what approve and reject trust later.
    keepRecord(prepared.io.env, dir, info, prepared.mcpConfigSha256);
    return session;
  }

  /** A conversation of the workspace this agent (or `logbook run`) recorded before. */
  static async resume(
    prepared: PreparedSession,
    workspace: string,
    id: string,
    editor: EditorParts,
  ): Promise<AcpSession | undefined> {
    // An id names a folder of the workspace's conversations, never a path elsewhere.
    if (!/^[\w-]{1,128}$/.test(id)) return undefined;
    const dir = join(conversationsRoot(workspace), id);
    const info = readSessionInfo(dir);
    if (!info || info.workspace !== workspace) return undefined;
    return AcpSession.open(prepared, workspace, info.id, dir, editor);
  }

  private static async open(
    prepared: PreparedSession,
    workspace: string,
    id: string,
    dir: string,
    editor: EditorParts,
  ): Promise<AcpSession> {
    const { client, fs } = editor;
    const viaEditor = fs.readTextFile === true || fs.writeTextFile === true;
    const mcpServers = withEditorServers(prepared.mcpServers, editor.mcpServers, (line) =>
      prepared.io.err(line),
    );
    const opened = await openCliSession(
      { ...prepared, mcpServers },
      {
        storeDir: dir,
        workspace,
        id,
        mode: { json: false },
        demo: prepared.settings.get<boolean>('demo'),
        ...(viaEditor ? { files: (disk: FilePort) => new ClientFilePort(disk, client, id, fs) } : {}),
      },
    );
    return new AcpSession(id, dir, workspace, opened, client, prepared.io.env);
  }

  get conversation() {
    return this.opened.session.conversation;
  }

  modes(): SessionModeState {
    return { currentModeId: this.conversation.state.mode, availableModes: MODES };
  }

  /** The whole conversation as updates, from its log: what `session/load` sends. */
  async replay(): Promise<void> {
    const replayed = new EventUpdates({ workspace: this.workspace, streamed: false });
    for (const e of await this.conversation.events()) for (const u of replayed.of(e)) this.send(u);
  }

  /** The user's toggle (never the agent's): plan or act. */
  async setMode(mode: AgentMode): Promise<void> {
    await this.conversation.setMode(mode);
    this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode });
  }

  /** One turn: the user's message, then the loop until it stops; permissions asked on the way. */
  prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn)
      throw RequestError.invalidRequest(
        { sessionId: this.id },
        'A turn of this session is still running; cancel it first.',
      );
    this.cancelling = false;
    this.turn = this.runTurn(blocks).finally(() => (this.turn = undefined));
    return this.turn;
  }

  private async runTurn(blocks: readonly ContentBlock[]): Promise<StopReason> {
    const { text, attachments } = promptText(blocks);
    const c = this.conversation;
    // What a crash or a client gone away left open is the user's to decide first, never run unasked;
    // what they allow runs before the new message, so each call's result follows its call.
    await this.askAboutInDoubt();
    if (c.status === 'waiting_for_confirmation') await this.askAboutHeld();
    if (this.cancelling) return 'cancelled';
    if (c.state.pendingActions.length > 0 && (await this.drive()) === 'cancelled') return 'cancelled';
    await c.sendMessage(text, { attachments });
    // The conversation's title (its first message, or the one the user gave) names the editor's thread.
    const title = c.state.title;
    if (title && title !== this.titleSent) {
      this.titleSent = title;
      noteTitle(this.dir, title);
      this.send({ sessionUpdate: 'session_info_update', title, updatedAt: new Date().toISOString() });
    }
    return this.drive();
  }

  /** Runs the loop until it stops for good, asking about each action it holds on the way. */
  private async drive(): Promise<StopReason> {
    const c = this.conversation;
    for (;;) {
      const status = await c.run();
      if (this.cancelling) return 'cancelled';
      if (status !== 'waiting_for_confirmation') return this.stopReason(status);
      await this.askAboutHeld();
      if (this.cancelling) {
        await c.interrupt();
        return 'cancelled';
      }
    }
  }

  private stopReason(status: string): StopReason {
    if (status === 'error' || status === 'stuck') {
      const why =
        status === 'stuck'
          ? 'Stopped: the agent is stuck repeating itself.'
          : `Stopped with an error: ${this.conversation.state.lastError?.message ?? 'unknown error'}`;
      this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: why } });
    }
    return 'end_turn';
  }

  /**
   * Actions that started before the process ended and have no result (`logbook resolve` in the
   * shell): each is asked about; "allow" runs it again, anything else records it as skipped.
   */
  private async askAboutInDoubt(): Promise<void> {
    const c = this.conversation;
    for (const action of c.inDoubtActions()) {
      const answer = await this.client
        .request('session/request_permission', {
          sessionId: this.id,
          toolCall: {
            toolCallId: action.id,
            title: `${actionWhat(action)} (started before the agent stopped; its result is unknown)`,
            status: 'pending',
            content: [
              {
                type: 'content',
                content: {
                  type: 'text',
                  text: 'It may have run in part or in full. Run it again, or skip it (the agent is told it did not run again).',
                },
              },
            ],
          },
          options: [
            { optionId: ALLOW_ONCE, name: 'Run it again', kind: 'allow_once' },
            { optionId: REJECT_ONCE, name: 'Skip it', kind: 'reject_once' },
          ],
        })
        .catch(() => ({ outcome: { outcome: 'cancelled' as const } }));
      const rerun = answer.outcome.outcome === 'selected' && answer.outcome.optionId === ALLOW_ONCE;
      await c.resolveInDoubt(rerun ? 'rerun' : 'skip', [action.id]);
    }
  }

  /** Each held action, one permission request at a time; the answer is recorded as the user's. */
  private async askAboutHeld(): Promise<void> {
    const c = this.conversation;
    const risks = new Map(c.heldRisks().map((d) => [d.actionId, d]));
    for (const action of c.awaitingConfirmation()) {
      if (this.cancelling) return;
      if (this.allowedTools.has(action.tool_name) || this.allowedByRule(action)) {
        await c.approve([action.id]);
        continue;
      }
      const d = risks.get(action.id);
      const reasons = [...(d?.riskReasons ?? []), ...(d?.notUndoable ? [d.notUndoable] : [])];
      const risk = d?.risk ?? 'UNKNOWN';
      const prefix = action.tool_name === 'terminal' ? commandPrefix(commandOf(action)) : '';
      const options: PermissionOption[] = [
        { optionId: ALLOW_ONCE, name: 'Allow once', kind: 'allow_once' },
        // A command with no plain program to name (`./build.sh`) is allowed once at a time.
        ...(action.tool_name !== 'terminal' || prefix
          ? [
              {
                optionId: ALLOW_ALWAYS,
                name: prefix
                  ? `Always allow commands starting with "${prefix}"`
                  : `Always allow ${action.tool_name} in this session`,
                kind: 'allow_always' as const,
              },
            ]
          : []),
        { optionId: REJECT_ONCE, name: 'Reject', kind: 'reject_once' },
      ];
      // The call as the editor shows it (a file edit's diff, its locations), with the risk and why.
      const shown = this.shownCall(action);
      const answer = await this.client
        .request('session/request_permission', {
          sessionId: this.id,
          toolCall: {
            toolCallId: action.id,
            title: `${actionWhat(action)} (risk ${risk})`,
            status: 'pending',
            ...(shown?.kind ? { kind: shown.kind } : {}),
            ...(shown?.locations ? { locations: shown.locations } : {}),
            content: [
              {
                type: 'content',
                content: {
                  type: 'text',
                  text: `Risk ${risk}${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
                },
              },
              ...(shown?.content ?? []),
            ],
          },
          options,
        })
        .catch(() => ({ outcome: { outcome: 'cancelled' as const } }));
      const chosen = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : undefined;
      if (chosen === ALLOW_ONCE) {
        await c.approve([action.id]);
      } else if (chosen === ALLOW_ALWAYS) {
        if (prefix) {
          // The rule goes into the user's settings (every later session reads it there), and
          // answers this session's next matching commands, whose settings were read at its start.
          addUserAllowRule(this.env, prefix);
          this.allowRules.push(prefix);
        } else {
          this.allowedTools.add(action.tool_name);
        }
        await c.approve([action.id]);
      } else {
        const reason =
          chosen === REJECT_ONCE
            ? 'The user rejected this action.'
            : 'The user cancelled the permission request, so the action was rejected.';
        await c.reject(reason, [action.id]);
      }
    }
  }

  private shownCall(action: ActionEvent): Extract<SessionUpdate, { sessionUpdate: 'tool_call' }> | undefined {
    const updates = new EventUpdates({ workspace: this.workspace, streamed: true }).of(action);
    return updates.find((u) => u.sessionUpdate === 'tool_call') as
      Extract<SessionUpdate, { sessionUpdate: 'tool_call' }> | undefined;
  }

  private allowedByRule(action: ActionEvent): boolean {
    if (action.tool_name !== 'terminal' || this.allowRules.length === 0) return false;
    return matchAllowRules(commandOf(action), this.allowRules, { roots: [this.workspace] }).allowed;
  }

  /** `session/cancel`: the command in the shell stops, then the loop; the turn ends `cancelled`. */
  async cancel(): Promise<void> {
    if (!this.turn) return;
    this.cancelling = true;
    await this.opened.session.stopCommand().catch(() => undefined);
    await this.conversation.interrupt();
  }

  async close(): Promise<void> {
    if (this.turn) await this.cancel().catch(() => undefined);
    await this.turn?.catch(() => undefined);
    this.stopListening();
    await this.opened.close();
  }

  private send(update: SessionUpdate): void {
    // A client gone away loses the update; the log still has the event.
    void this.client.notify('session/update', { sessionId: this.id, update }).catch(() => undefined);
  }
}

function commandOf(action: ActionEvent): string {
  const command = (action.action as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : '';
}

/** The prompt's text, and what the editor attached (an embedded file's text, a link to one). */
export function promptText(blocks: readonly ContentBlock[]): { text: string; attachments: string[] } {
  const words: string[] = [];
  const attachments: string[] = [];
  for (const b of blocks) {
    if (b.type === 'text') words.push(b.text);
    else if (b.type === 'resource_link') words.push(b.uri);
    else if (b.type === 'resource' && 'text' in b.resource)
      attachments.push(`Attached ${b.resource.uri}:\n${b.resource.text}`);
  }
  const text = words.join('\n').trim();
  if (!text && attachments.length === 0)
    throw RequestError.invalidParams({ prompt: blocks }, 'The prompt has no text.');
  return { text: text || 'See the attached file.', attachments };
}
