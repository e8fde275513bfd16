// `logbook agents`: the agents the main agent can hand work to here, where each was defined, and
// the definition files that are not valid (left out, each with why).
import { loadAgents } from '../agents/agent-files';
import { expectPositionals, parseCommandArgs } from './args';
import { resolvePath } from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { MCP_CONFIG_OPTION, mcpConfigFrom } from './mcp-option';

export async function agentsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('agents', argv, {
    workspace: { type: 'string' },
    json: { type: 'boolean' },
    ...MCP_CONFIG_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.agents);
    return EXIT.ok;
  }
  expectPositionals('agents', positionals, []);
  const workspace = resolvePath(io, values.workspace ?? '.');
  // The CLI has no workspace trust of its own: running it on a workspace is the user's choice.
  const file = values['mcp-config'];
  const mcp = mcpConfigFrom('agents', file === undefined ? undefined : resolvePath(io, file));
  const loaded = loadAgents({
    workspace,
    env: io.env,
    trusted: true,
    mcpServers: [...(mcp?.servers.keys() ?? [])],
  });
  if (values.json) {
    io.out(JSON.stringify({ agents: loaded.agents, errors: loaded.errors }));
  } else {
    for (const a of loaded.agents) {
      const tools = a.tools ? a.tools.join(', ') : 'all built-in tools and MCP tools';
      io.out(`${a.name}  (${a.mode}${a.model ? `, model ${a.model}` : ''})  ${a.description}`);
      io.out(`  tools: ${tools}`);
      const caps = [
        a.maxIterations !== null ? `${a.maxIterations} iterations` : null,
        a.maxTokens !== null ? `${a.maxTokens} tokens` : null,
        a.maxCost !== null ? `$${a.maxCost}` : null,
      ].filter((c) => c !== null);
      if (caps.length) io.out(`  caps: ${caps.join(', ')}`);
      // Each only narrows what the agent that starts it has (effective-grant.ts).
      if (a.confirmation) io.out(`  confirmation: ${a.confirmation} (or its parent's, if stricter)`);
      if (a.allowedHosts)
        io.out(`  hosts: ${a.allowedHosts.join(', ') || 'none'} (those its parent may reach)`);
      io.out(`  from: ${a.origin}`);
    }
    for (const e of loaded.errors) io.err(`left out ${e}`);
  }
  return loaded.errors.length ? EXIT.failure : EXIT.ok;
}
