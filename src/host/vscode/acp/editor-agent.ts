// An external ACP agent answering in place of the model in the chat (Logbook: Start Agent Task
// with…): the conversation names its agent in a small file beside its log, and its session gets a
// model that starts that agent, in the conversation's sandbox, at its first turn. The agent's
// writes, reads, commands and permission requests then come back as Logbook's own actions
// (external-agent.ts), so the chat's confirmations, diff review, checkpoints and terminal apply.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  type LlmCallOptions,
  type LlmClient,
  LlmError,
  type LlmRequest,
  type LlmResponse,
} from '../../../core/llm';
import type { NamedSecret } from '../../../core/secrets';
import type { CommandSandbox } from '../../node/sandbox';
import type { AgentEntry, LaunchedAgent } from '../../node/acp/agent-launch';
import type { AgentRecorder } from '../../node/acp/external-agent';
import { editorSetting } from '../config';

/** Beside the conversation's log: the name of the agent of `logbook.acp.agents` it runs. */
export const AGENT_FILE = 'acp-agent.json';

/** The agents of the user's `logbook.acp.agents` (a workspace's value never counts: guarded). */
export function editorAgents(): Record<string, AgentEntry> {
  return editorSetting<Record<string, AgentEntry>>('acp.agents') ?? {};
}

/** The agent a conversation runs, or undefined when it runs the model. */
export function boundAgent(dir: string): string | undefined {
  const file = join(dir, AGENT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' && name ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Makes a new conversation run the agent `name` (before its session opens). */
export function bindAgent(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, AGENT_FILE), JSON.stringify({ name }) + '\n');
}

export interface EditorAgentOptions {
  name: string;
  cwd: string;
  sandbox: CommandSandbox;
  log: vscode.LogOutputChannel;
}

/** The model of a conversation that runs an external agent; the agent starts at its first turn. */
export class EditorAgentModel implements LlmClient {
  readonly model: string;
  private launched: Promise<LaunchedAgent> | undefined;
  private agentSecrets: NamedSecret[] = [];
  private onRecord: AgentRecorder | undefined;

  constructor(private readonly opts: EditorAgentOptions) {
    this.model = `acp:${opts.name}`;
  }

  get name(): string {
    return this.opts.name;
  }

  /** Appends what the agent did that is not a reply (its own tool calls, a broken connection). */
  set recorder(r: AgentRecorder) {
    this.onRecord = r;
  }

  /** The values of the variables the agent got (its key), once it started. */
  secrets(): readonly NamedSecret[] {
    return this.agentSecrets;
  }

  async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
    const agent = await this.start();
    return agent.model.complete(req, opts);
  }

  private start(): Promise<LaunchedAgent> {
    if (!vscode.workspace.isTrusted)
      return Promise.reject(
        new LlmError(
          'bad_request',
          `This workspace is not trusted, so Logbook starts no external agent in it. Trust the workspace to run the agent "${this.opts.name}".`,
        ),
      );
    this.launched ??= this.launch().catch((err: unknown) => {
      // The next turn tries again (the user may fix the entry, or install the program).
      this.launched = undefined;
      throw err instanceof LlmError ? err : new LlmError('server_error', errorText(err));
    });
    return this.launched;
  }

  private async launch(): Promise<LaunchedAgent> {
    const { name, cwd, log } = this.opts;
    const agents = editorAgents();
    const entry = Object.hasOwn(agents, name) ? agents[name] : undefined;
    if (!entry) {
      const known = Object.keys(agents);
      throw new LlmError(
        'bad_request',
        `No agent "${name}" in your logbook.acp.agents (${known.length ? `there are: ${known.join(', ')}` : 'it is empty'}). Add it to your user settings (docs/ACP.md).`,
      );
    }
    // Loaded when a conversation first runs an agent, not as the extension starts.
    const { launchAgent } = await import('../../node/acp/agent-launch');
    const agent = await launchAgent({
      name,
      entry,
      sandbox: this.opts.sandbox,
      env: process.env,
      workspace: cwd,
      replyTimeoutSec: editorSetting<number>('acp.replyTimeoutSeconds'),
      log: (line) => log.info(`Agent "${name}": ${line}`),
    });
    this.agentSecrets = agent.secrets;
    agent.model.recorder = (r) => this.onRecord?.(r) ?? Promise.resolve();
    return agent;
  }

  /** Stops the agent (with the conversation's session). */
  async close(): Promise<void> {
    const launched = this.launched;
    this.launched = undefined;
    if (launched) await launched.then((a) => a.close()).catch(() => undefined);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
