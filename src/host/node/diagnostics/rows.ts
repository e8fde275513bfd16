// The rows of the sections every host fills the same way: the sandbox, the MCP servers, the signing
// identity and the storage. (The model's rows are in endpoint-probe.ts; the editor's own models have
// rows of their own in the extension.)
import { type DiagnosticRow, formatSize } from '../../../core/diagnostics/report';
import type { McpServerStatus } from '../mcp';
import type { SandboxReport } from '../sandbox';
import type { ConversationUsage, OldCheckpoints, StoreUsage } from './storage-usage';

export function sandboxRows(r: SandboxReport): DiagnosticRow[] {
  const status = r.state === 'on' ? 'ok' : r.required ? 'error' : 'warning';
  return [
    { label: 'State', value: r.headline, status, ...(r.fix ? { fix: r.fix } : {}) },
    {
      label: 'Hosts commands may reach',
      value: r.allowed_hosts.length ? r.allowed_hosts.join(', ') : 'none',
      status: 'info',
    },
  ];
}

export function mcpRows(status: { servers: McpServerStatus[]; problems: string[] }): DiagnosticRow[] {
  const rows: DiagnosticRow[] = status.problems.map((p) => ({
    label: 'Configuration',
    value: p,
    status: 'error',
    fix: 'Correct the entry in logbook.mcp.servers (or the --mcp-config file).',
  }));
  for (const s of status.servers) {
    const label = `${s.server} (${s.transport})`;
    if (s.state === 'running') rows.push({ label, value: `running, ${s.tools} tool(s)`, status: 'ok' });
    else if (s.state === 'failed') {
      rows.push({
        label,
        value: `failed: ${s.problem ?? 'no reason given'}`,
        status: 'error',
        fix: 'Check the command or URL of the entry; the Output channel (Logbook: Show Log) has its messages.',
      });
    } else rows.push({ label, value: `${s.state} (servers start with the first task)`, status: 'info' });
  }
  if (!rows.length) rows.push({ label: 'Servers', value: 'none configured', status: 'info' });
  return rows;
}

/** `did`: the public identity, never the key; `where`: where the key is kept. */
export function signingRows(did: string | null, where: string, problem?: string): DiagnosticRow[] {
  if (problem)
    return [{ label: 'Identity', value: problem, status: 'error', fix: `Check the key in ${where}.` }];
  if (!did) {
    return [
      {
        label: 'Identity',
        value: `none yet: a key is created in ${where} when the first conversation is written`,
        status: 'info',
      },
    ];
  }
  return [
    { label: 'Identity', value: did, status: 'ok' },
    { label: 'Key', value: `in ${where} (never shown)`, status: 'info' },
  ];
}

export interface StorageInput {
  conversations: readonly ConversationUsage[];
  stores: readonly StoreUsage[];
  old: readonly OldCheckpoints[];
  olderThanDays: number;
  /** A conversation's name for people (its title), when the host knows it. */
  name?: (id: string) => string;
  /** How many conversations to list one by one (the rest are summed). */
  listed?: number;
}

export function storageRows(input: StorageInput): DiagnosticRow[] {
  const listed = input.listed ?? 10;
  const rows: DiagnosticRow[] = input.conversations.slice(0, listed).map((c) => ({
    label: input.name?.(c.id) ?? c.id,
    value: formatSize(c.bytes),
    status: 'info',
  }));
  const rest = input.conversations.slice(listed);
  if (rest.length) {
    rows.push({
      label: `${rest.length} more conversation(s)`,
      value: formatSize(rest.reduce((n, c) => n + c.bytes, 0)),
      status: 'info',
    });
  }
  if (!input.conversations.length) rows.push({ label: 'Conversations', value: 'none', status: 'info' });
  const held = input.stores.reduce((n, s) => n + s.held.length, 0);
  const bytes = input.stores.reduce((n, s) => n + s.bytes, 0);
  rows.push({
    label: 'Checkpoints',
    value: `${formatSize(bytes)} in ${input.stores.length} store(s), for ${held} conversation(s)`,
    status: 'info',
  });
  rows.push(
    input.old.length
      ? {
          label: 'Old checkpoints',
          value: `${input.old.length} conversation(s) with checkpoints older than ${input.olderThanDays} days or of deleted conversations`,
          status: 'warning',
          fix: 'Clean them up: the conversations stay, only restoring their files to those points goes.',
        }
      : { label: 'Old checkpoints', value: `none older than ${input.olderThanDays} days`, status: 'ok' },
  );
  return rows;
}
