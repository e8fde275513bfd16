// The rows of the sections every host fills the same way: the sandbox, the MCP servers, the signing
// identity and the storage. (The model's rows are in endpoint-probe.ts; the editor's own models have
// rows of their own in the extension.) Their words go through the host's `l10n`: English in the CLI.
import { type DiagnosticRow, formatSize } from '../../../core/diagnostics/report';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
import type { McpServerStatus } from '../mcp';
import type { SandboxReport } from '../sandbox';
import type { ConversationUsage, OldCheckpoints, StoreUsage } from './storage-usage';

export function sandboxRows(r: SandboxReport, l10n: L10n = ENGLISH): DiagnosticRow[] {
  const status = r.state === 'on' ? 'ok' : r.required ? 'error' : 'warning';
  return [
    { label: l10n.t('State'), value: r.headline, status, ...(r.fix ? { fix: r.fix } : {}) },
    {
      label: l10n.t('Hosts commands may reach'),
      value: r.allowed_hosts.length ? r.allowed_hosts.join(', ') : l10n.t('none'),
      status: 'info',
    },
    {
      label: l10n.t('Unix sockets commands may connect to'),
      value: r.unix_sockets,
      status: r.state === 'on' && !r.unix_sockets_filtered ? 'warning' : 'info',
    },
  ];
}

export function mcpRows(
  status: { servers: McpServerStatus[]; problems: string[] },
  l10n: L10n = ENGLISH,
): DiagnosticRow[] {
  const rows: DiagnosticRow[] = status.problems.map((p) => ({
    label: l10n.t('Configuration'),
    value: p,
    status: 'error',
    fix: l10n.t('Correct the entry in logbook.mcp.servers (or the --mcp-config file).'),
  }));
  for (const s of status.servers) {
    const label = `${s.server} (${s.transport})`;
    if (s.state === 'running')
      rows.push({ label, value: l10n.t('running, {0} tool(s)', s.tools), status: 'ok' });
    else if (s.state === 'failed') {
      rows.push({
        label,
        value: l10n.t('failed: {0}', s.problem ?? l10n.t('no reason given')),
        status: 'error',
        fix: l10n.t(
          'Check the command or URL of the entry; the Output channel (Logbook: Show Log) has its messages.',
        ),
      });
    } else
      rows.push({
        label,
        value:
          s.state === 'starting'
            ? l10n.t('starting (servers start with the first task)')
            : l10n.t('not started (servers start with the first task)'),
        status: 'info',
      });
  }
  if (!rows.length) rows.push({ label: l10n.t('Servers'), value: l10n.t('none configured'), status: 'info' });
  return rows;
}

/** `did`: the public identity, never the key; `where`: where the key is kept. */
export function signingRows(
  did: string | null,
  where: string,
  problem?: string,
  l10n: L10n = ENGLISH,
): DiagnosticRow[] {
  if (problem)
    return [
      {
        label: l10n.t('Identity'),
        value: problem,
        status: 'error',
        fix: l10n.t('Check the key in {0}.', where),
      },
    ];
  if (!did) {
    return [
      {
        label: l10n.t('Identity'),
        value: l10n.t('none yet: a key is created in {0} when the first conversation is written', where),
        status: 'info',
      },
    ];
  }
  return [
    { label: l10n.t('Identity'), value: did, status: 'ok' },
    { label: l10n.t('Key'), value: l10n.t('in {0} (never shown)', where), status: 'info' },
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

export function storageRows(input: StorageInput, l10n: L10n = ENGLISH): DiagnosticRow[] {
  const listed = input.listed ?? 10;
  const rows: DiagnosticRow[] = input.conversations.slice(0, listed).map((c) => ({
    label: input.name?.(c.id) ?? c.id,
    value: formatSize(c.bytes),
    status: 'info',
  }));
  const rest = input.conversations.slice(listed);
  if (rest.length) {
    rows.push({
      label: l10n.t('{0} more conversation(s)', rest.length),
      value: formatSize(rest.reduce((n, c) => n + c.bytes, 0)),
      status: 'info',
    });
  }
  // Conversations are this workspace's; checkpoint stores hold every workspace's: each says so.
  if (!input.conversations.length)
    rows.push({ label: l10n.t('Conversations in this workspace'), value: l10n.t('none'), status: 'info' });
  const held = input.stores.reduce((n, s) => n + s.held.length, 0);
  const bytes = input.stores.reduce((n, s) => n + s.bytes, 0);
  rows.push({
    label: l10n.t('Checkpoints'),
    value: l10n.t(
      '{0} in {1} store(s), for {2} conversation(s) of every workspace',
      formatSize(bytes),
      input.stores.length,
      held,
    ),
    status: 'info',
  });
  rows.push(
    input.old.length
      ? {
          label: l10n.t('Old checkpoints'),
          value: l10n.t(
            '{0} conversation(s) with checkpoints older than {1} days or of deleted conversations',
            input.old.length,
            input.olderThanDays,
          ),
          status: 'warning',
          fix: l10n.t(
            'Clean them up: the conversations stay, only restoring their files to those points goes.',
          ),
        }
      : {
          label: l10n.t('Old checkpoints'),
          value: l10n.t('none older than {0} days', input.olderThanDays),
          status: 'ok',
        },
  );
  return rows;
}
