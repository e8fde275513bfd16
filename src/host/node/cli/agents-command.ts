// `logbook agents`: the agents the main agent can hand work to here, where each was defined, and
// the definition files that are not valid (left out, each with why).
import { readFileSync } from 'node:fs';
import { definitionFingerprint, heldLine } from '../../../core/agents/definition-trust';
import { loadAgents } from '../agents/agent-files';
import { heldHere } from '../agents/definition-watch';
import { acceptHeldDefinition } from '../agents/held-definitions';
import { expectPositionals, parseCommandArgs } from './args';
import { resolvePath } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
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
  const workspace = resolvePath(io, values.workspace ?? '.');
  if (positionals[0] === 'accept') return acceptCommand(positionals.slice(1), workspace, io);
  expectPositionals('agents', positionals, []);
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
    io.out(JSON.stringify({ agents: loaded.agents, errors: loaded.errors, held: loaded.held }));
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
    for (const h of loaded.held) io.out(`held ${heldLine(h)}; \`logbook agents accept ${h.name}\` uses it`);
    for (const e of loaded.errors) io.err(`left out ${e}`);
  }
  return loaded.errors.length ? EXIT.failure : EXIT.ok;
}

/**
 * `logbook agents accept NAME`: the user accepts a held definition of this workspace (or their own)
 * as it is now. Its content is printed first, so what is accepted is what the user saw.
 */
function acceptCommand(args: readonly string[], workspace: string, io: CliIo): number {
  const [name, ...extra] = args;
  if (!name) throw new UsageError('logbook agents accept: give the name of the agent to accept.');
  if (extra.length) throw new UsageError(`logbook agents accept: unexpected argument "${extra[0]}".`);
  const held = heldHere(io.env, workspace).filter((h) => h.name === name);
  if (!held.length) throw new Error(`No held definition of an agent "${name}" here: nothing to accept.`);
  for (const h of held) {
    const text = readFileSync(h.origin, 'utf8');
    const accepted = acceptHeldDefinition(io.env, h.origin, definitionFingerprint(text));
    io.out(`--- ${h.origin}`);
    io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
    io.out('---');
    io.out(`Accepted the agent ${name} as shown (${accepted.fingerprint}).`);
  }
  return EXIT.ok;
}
