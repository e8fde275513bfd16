// `logbook run --agent NAME` (and the editor's agent task): the agent the user's `acp.agents` names, started the way a stdio MCP
// server starts (server-sandbox.ts): inside the command sandbox, the workspace writable, a network
// of its own that lets through `sandbox.allowedHosts` plus the agent's `allowedHosts`.
import { serverLaunch } from '../mcp/server-sandbox';
import type { NamedSecret } from '../../../core/secrets';
import type { CommandSandbox } from '../sandbox';
import { hiddenLinkCheck } from '../sandbox/hidden-inodes';
import { ExternalAgentModel } from './external-agent';
import type { AgentEntry } from './agent-entry';

export type { AgentEntry };

export interface LaunchedAgent {
  model: ExternalAgentModel;
  /** The values of the variables the agent gets (its key): redacted from the log. */
  secrets: NamedSecret[];
  /** Stops the agent, then its sandbox's proxy. */
  close(): Promise<void>;
}

export async function launchAgent(opts: {
  name: string;
  entry: AgentEntry;
  /** The sandbox the agent starts in (its network is a copy of this one's, plus the agent's hosts). */
  sandbox: CommandSandbox;
  env: Readonly<Record<string, string | undefined>>;
  workspace: string;
  log: (line: string) => void;
  /** acp.replyTimeoutSeconds: how long the agent may say nothing before its turn is given up. */
  replyTimeoutSec?: number;
}): Promise<LaunchedAgent> {
  const { name, entry, workspace, log } = opts;
  // The launcher is the MCP servers'; its lines name the agent and where its hosts go.
  const asAgent = (line: string) =>
    line
      .replace(/^MCP server "/, 'The agent "')
      .replace(
        `the server's "allowedHosts" (or to logbook.sandbox.allowedHosts)`,
        `its "allowedHosts" in acp.agents (or to sandbox.allowedHosts)`,
      );
  const pass = entry.env ?? [];
  const sandbox = opts.sandbox;
  const launched = await serverLaunch(
    name,
    { command: entry.command, args: entry.args ?? [], allowedHosts: entry.allowedHosts ?? [] },
    { sandbox, workspaces: [workspace], cwd: workspace, pass, env: {}, log: (line) => log(asAgent(line)) },
  );
  if (launched.unsandboxed) log(asAgent(launched.unsandboxed));
  // Unsandboxed (sandbox.mode off, or auto where none can start): only what the entry names.
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'LANG', ...pass]) {
    const v = opts.env[k];
    if (v !== undefined) env[k] = v;
  }
  const model = new ExternalAgentModel({
    name,
    launch: launched.launch ?? { command: entry.command, args: entry.args ?? [], env },
    workspace,
    log,
    hidden: {
      locations: () => sandbox.hiddenLocations(),
      links: () => hiddenLinkCheck(sandbox.hiddenLocations()),
    },
    ...(opts.replyTimeoutSec !== undefined ? { replyTimeoutSec: opts.replyTimeoutSec } : {}),
  });
  const secrets: NamedSecret[] = [];
  for (const k of pass) {
    const v = opts.env[k];
    // A short value (a flag, a region) would redact ordinary words; keys are long.
    if (v !== undefined && v.length >= 8) secrets.push({ name: `${k} of the agent ${name}`, value: v });
  }
  return {
    model,
    secrets,
    close: async () => {
      await model.close();
      await launched.release();
    },
  };
}
