// The tools a conversation offers: the built-in ones and those from outside (MCP servers, the
// editor's tools), none in an untrusted workspace. As a policy it starts the outside tools when a
// run starts, records which of them the next request offers (offered-tools.ts) and the problems
// their sources report, and refuses every call while tools are disabled.
import type { ToolSpec } from '../../tools';
import { toolsOfferedUpdate } from '../offered-tools';
import { TOOL_SOURCE_KEY, type ToolSource } from '../ports';
import type { AgentSettings } from '../settings';
import type { ConversationPolicy, PolicyContext } from './policy';

export const TOOLS_DISABLED_ERROR = 'Tools are disabled because this workspace is not trusted.';

export class ToolSet implements ConversationPolicy {
  readonly name = 'tools';

  constructor(
    private readonly builtIn: ToolSpec[],
    private readonly source: ToolSource | undefined,
    private readonly settings: () => AgentSettings,
    /** The agent running now may call this tool (after a handoff, the new agent's subset). */
    private readonly offers: (tool: Pick<ToolSpec, 'name' | 'mcp'>) => boolean = () => true,
  ) {}

  /** The tools the agent may call now (the built-in array itself when none come from outside). */
  active(): ToolSpec[] {
    if (!this.settings().toolsEnabled) return [];
    const outside = this.source?.tools() ?? [];
    return outside.length ? [...this.builtIn, ...outside] : this.builtIn;
  }

  /** The tools the model is offered in its next request: the active ones the agent may call. */
  offered(): ToolSpec[] {
    return this.active().filter((t) => this.offers(t));
  }

  /** Starts the tools from outside (only with tools enabled: an untrusted workspace starts nothing). */
  async prepare(ctx: PolicyContext): Promise<void> {
    if (!this.source || !ctx.settings.toolsEnabled) return;
    await this.source.prepare();
    await this.recordNotices(ctx);
  }

  /** Records the tools from outside the next request offers, when they changed. */
  async beforeRequest({ log, settings }: PolicyContext): Promise<'go'> {
    const outside = settings.toolsEnabled ? (this.source?.tools() ?? []).filter((t) => this.offers(t)) : [];
    const update = toolsOfferedUpdate(outside, log.state.toolsOfferedSha);
    if (update) await log.append('ConversationStateUpdateEvent', update);
    return 'go';
  }

  refuseCall(call: { name: string } | undefined, { settings }: PolicyContext): string | null {
    if (!settings.toolsEnabled) return TOOLS_DISABLED_ERROR;
    // A tool of the conversation the agent running now does not have (after a handoff).
    const tool = call && this.active().find((t) => t.name === call.name);
    if (call && tool && !this.offers(tool))
      return `The agent running now has no ${call.name} tool; use the tools offered.`;
    return null;
  }

  afterStep(ctx: PolicyContext): Promise<void> {
    return this.recordNotices(ctx);
  }

  private async recordNotices({ log }: PolicyContext): Promise<void> {
    for (const n of this.source?.takeNotices() ?? [])
      await log.append('ConversationStateUpdateEvent', { key: TOOL_SOURCE_KEY, value: n });
  }
}
