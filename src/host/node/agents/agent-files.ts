// Where agent definitions live on disk: `.logbook/agents/*.md` in the workspace and `agents/*.md`
// in the user's Logbook config folder. A workspace's definitions are read only when the workspace is
// trusted: a repository must not be able to give the agent new instructions and tools unasked.
import fs from 'node:fs';
import path from 'node:path';
import {
  type AgentDefinition,
  BUILT_IN_AGENTS,
  mergeAgents,
  parseAgentDefinition,
} from '../../../core/agents/definition';
import { DELEGATE_TOOL_NAME } from '../../../core/agents/delegate-tool';
import type { HeldDefinition } from '../../../core/agents/definition-trust';
import { parseMcpToolRef } from '../../../core/agents/mcp-tool-refs';
import { builtInToolNames } from '../session/agent-tools';
import { type Env, logbookConfigDir } from '../config-dir';
import { definitionName, readHeldDefinitions } from './held-definitions';

export interface LoadedAgents {
  agents: AgentDefinition[];
  /** Files that are not valid definitions, each with why (they are left out). */
  errors: string[];
  /** A workspace folder of definitions that was not read because the workspace is not trusted. */
  skippedUntrusted: string | null;
  /**
   * Definitions written or changed while a conversation ran, not accepted by the user yet: listed,
   * never offered (definition-trust.ts).
   */
  held: HeldDefinition[];
}

export function workspaceAgentsDir(workspace: string): string {
  return path.join(workspace, '.logbook', 'agents');
}

export function userAgentsDir(env: Env): string {
  return path.join(logbookConfigDir(env), 'agents');
}

export function loadAgents(opts: {
  workspace: string;
  env: Env;
  trusted: boolean;
  /** The MCP servers configured (by name) where the agents run: a definition may name their tools. */
  mcpServers?: readonly string[];
}): LoadedAgents {
  const errors: string[] = [];
  const heldNow = readHeldDefinitions(opts.env);
  const held = definitionFiles(opts).flatMap((f) => {
    const h = heldNow.get(f);
    return h ? [{ ...h, name: definitionName(f) }] : [];
  });
  const isHeld = new Set(held.map((h) => h.origin));
  const user = readDir(userAgentsDir(opts.env), errors, isHeld);
  const wsDir = workspaceAgentsDir(opts.workspace);
  const ws = opts.trusted ? readDir(wsDir, errors, isHeld) : [];
  // A misspelt tool would leave the agent without it, silently: such a definition is an error.
  // The web tools too: offered where the settings say so; and `delegate`, which lets an agent delegate further.
  const known = new Set([...builtInToolNames(), DELEGATE_TOOL_NAME]);
  // An MCP tool's server must be configured; whether it offers the tool is known once it runs.
  const servers = new Set(opts.mcpServers ?? []);
  const checked = (list: AgentDefinition[]) =>
    list.filter((a) => {
      const tools = a.tools ?? [];
      const unknown = tools.filter((t) => !parseMcpToolRef(t) && !known.has(t));
      if (unknown.length)
        errors.push(
          `${a.origin}: unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${[...known].join(', ')})`,
        );
      const noServer = tools.filter((t) => {
        const ref = parseMcpToolRef(t);
        return ref !== null && !servers.has(ref.server);
      });
      if (noServer.length)
        errors.push(
          `${a.origin}: no MCP server is configured for ${noServer.join(', ')} (` +
            (servers.size ? `configured: ${[...servers].join(', ')})` : 'none is configured)'),
        );
      return unknown.length === 0 && noServer.length === 0;
    });
  const skippedUntrusted = !opts.trusted && mdFiles(wsDir).length > 0 ? wsDir : null;
  return {
    agents: mergeAgents(BUILT_IN_AGENTS, checked(user), checked(ws)),
    errors,
    skippedUntrusted,
    held,
  };
}

/** The definition files a conversation here reads: the user's, then (when trusted) the workspace's. */
export function definitionFiles(opts: { workspace: string; env: Env; trusted: boolean }): string[] {
  return [
    ...mdFiles(userAgentsDir(opts.env)),
    ...(opts.trusted ? mdFiles(workspaceAgentsDir(opts.workspace)) : []),
  ];
}

function readDir(dir: string, errors: string[], held: ReadonlySet<string>): AgentDefinition[] {
  const out: AgentDefinition[] = [];
  for (const file of mdFiles(dir)) {
    if (held.has(file)) continue;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      errors.push(`${file}: ${(err as Error).message}`);
      continue;
    }
    const parsed = parseAgentDefinition(text, file);
    if (parsed.ok) out.push(parsed.agent);
    else errors.push(parsed.error);
  }
  return out;
}

function mdFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}
