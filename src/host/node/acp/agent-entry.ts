// An agent of the user's `acp.agents`, looked up by name before anything starts: its own module, so
// `logbook run` checks the name without loading the ACP stack (agent-launch.ts) a run without
// --agent never uses.
import { UsageError } from '../cli/exit-codes';
import type { CliSettings } from '../cli/cli-settings';

export interface AgentEntry {
  command: string;
  args?: string[];
  env?: string[];
  allowedHosts?: string[];
}

/** The entry of `acp.agents` by name, or a usage error naming the ones there are. */
export function agentEntry(settings: CliSettings, name: string): AgentEntry {
  const agents = settings.get<Record<string, AgentEntry>>('acp.agents');
  const entry = Object.hasOwn(agents, name) ? agents[name] : undefined;
  if (entry) return entry;
  const known = Object.keys(agents);
  throw new UsageError(
    `logbook run: no agent "${name}" in acp.agents (${known.length ? `there are: ${known.join(', ')}` : 'it is empty'}); add it to your config file (docs/ACP.md).`,
  );
}
