// An external ACP agent as the model of a conversation in the editor (Start Agent Task with…):
// started, in the conversation's sandbox, at its first turn, from the user's entry of that name.
// Its stack (the ACP SDK) is a bundle of its own that the editor loads only for such a conversation.
import {
  type LlmCallOptions,
  type LlmClient,
  isLlmError,
  LlmError,
  type LlmRequest,
  type LlmResponse,
} from '../../../core/llm';
import type { NamedSecret } from '../../../core/secrets';
import type { ToolSpec } from '../../../core/tools';
import type { CommandSandbox } from '../sandbox';
import { type AgentEntry, type LaunchedAgent, launchAgent } from './agent-launch';
import type { AgentRecorder } from './external-agent';
import { agentPermissionTool } from './permission-tool';

// `logbook run --agent` starts the agent itself, before its first turn: what it needs of this
// bundle, so that the CLI's run loads the ACP stack only for such a run.
export { launchAgent, agentPermissionTool };

export interface AgentLlmOptions {
  name: string;
  cwd: string;
  sandbox: CommandSandbox;
  /** Whether the window trusts the workspace: an untrusted one starts no agent. */
  trusted: () => boolean;
  /** The user's agents, read when the agent starts. */
  entries: () => Record<string, AgentEntry>;
  replyTimeoutSec: () => number;
  log: (line: string) => void;
}

export class AgentLlm implements LlmClient {
  readonly model: string;
  private launched: Promise<LaunchedAgent> | undefined;
  private agentSecrets: NamedSecret[] = [];
  private onRecord: AgentRecorder | undefined;

  constructor(private readonly opts: AgentLlmOptions) {
    this.model = `acp:${opts.name}`;
  }

  get name(): string {
    return this.opts.name;
  }

  /** Appends what the agent did that is not a reply (its own tool calls, a broken connection). */
  set recorder(r: AgentRecorder) {
    this.onRecord = r;
  }

  /** The tool its permission requests are actions of. */
  permissionTool(): ToolSpec {
    return agentPermissionTool(this.opts.name);
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
    if (!this.opts.trusted())
      return Promise.reject(
        new LlmError(
          'bad_request',
          `This workspace is not trusted, so Logbook starts no external agent in it. Trust the workspace to run the agent "${this.opts.name}".`,
        ),
      );
    this.launched ??= this.launch().catch((err: unknown) => {
      // The next turn tries again (the user may fix the entry, or install the program).
      this.launched = undefined;
      throw isLlmError(err) ? err : new LlmError('server_error', (err as Error).message ?? String(err));
    });
    return this.launched;
  }

  private async launch(): Promise<LaunchedAgent> {
    const { name, cwd, log } = this.opts;
    const agents = this.opts.entries();
    const entry = Object.hasOwn(agents, name) ? agents[name] : undefined;
    if (!entry) {
      const known = Object.keys(agents);
      throw new LlmError(
        'bad_request',
        `No agent "${name}" in your logbook.acp.agents (${known.length ? `there are: ${known.join(', ')}` : 'it is empty'}). Add it to your user settings (docs/ACP.md).`,
      );
    }
    const agent = await launchAgent({
      name,
      entry,
      sandbox: this.opts.sandbox,
      env: process.env,
      workspace: cwd,
      log,
      replyTimeoutSec: this.opts.replyTimeoutSec(),
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
