// What a sandbox would allow for a workspace, for the diagnostics commands (`logbook sandbox`,
// VS Code's Logbook: Show Sandbox Status): the same lists CommandSandbox mounts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxState } from './sandbox-state';
import { describeSandbox, socketsAllowed, unfilteredSockets } from './describe-sandbox';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
import { RUNS_LATER } from '../../../core/security/runs-later';
import { isAnyDepth } from './held-paths';
import { findLinkedWorktree, linkedWorktreeWritable } from './linked-worktree';

export interface SandboxReportInput {
  state: SandboxState;
  workspaces: readonly string[];
  writable: readonly string[];
  hidden: readonly string[];
  /** Every user's home: empty inside but for `homeReadable`. */
  hiddenHomes?: readonly string[];
  homeReadable?: readonly string[];
  allowedHosts: readonly string[];
}

export interface SandboxReport {
  state: SandboxState['kind'];
  required: boolean;
  headline: string;
  fix: string | null;
  writable: string[];
  read_only_in_workspace: string[];
  /** Folders that are empty inside, but for what `readable_in_home` names. */
  hidden_homes: string[];
  readable_in_home: string[];
  hidden: string[];
  allowed_hosts: string[];
  /** Which Unix sockets commands can connect to. */
  unix_sockets: string;
  /** Whether commands run under the Unix socket filter. */
  unix_sockets_filtered: boolean;
}

export function sandboxReport(input: SandboxReportInput, l10n: L10n = ENGLISH): SandboxReport {
  const present = (p: string) => (existsSync(p) ? p : l10n.t('{0} (absent)', p));
  const text = describeSandbox(input.state, l10n);
  return {
    state: input.state.kind,
    required: input.state.kind === 'unavailable' && input.state.required,
    headline: text.headline,
    fix: text.fix ?? null,
    writable: [
      ...input.workspaces,
      // A linked worktree's commits: what of the shared .git they write (linked-worktree.ts).
      ...input.workspaces.flatMap((ws) => {
        const found = findLinkedWorktree(ws);
        return found ? linkedWorktreeWritable(found) : [];
      }),
      l10n.t('/tmp (private to the sandbox)'),
      ...input.writable,
    ],
    // Held whether it exists or not; a name without a folder at any depth.
    read_only_in_workspace: [
      ...input.workspaces.flatMap((ws) =>
        RUNS_LATER.map((e) => (isAnyDepth(e) ? join(ws, '**', e.pattern) : join(ws, e.pattern))),
      ),
      ...(input.workspaces.length ? [l10n.t('files with more than one hard link')] : []),
    ],
    hidden_homes: [...(input.hiddenHomes ?? [])],
    readable_in_home: (input.homeReadable ?? []).map(present),
    // Only what exists is mounted over; the rest is listed so the user sees the whole list.
    hidden: input.hidden.map(present),
    allowed_hosts: [...input.allowedHosts],
    unix_sockets:
      input.state.kind === 'on' && input.state.socketsAllowed
        ? socketsAllowed(l10n)
        : input.state.kind === 'on' && input.state.socketFilterMissing
          ? unfilteredSockets(input.state.socketFilterMissing, l10n)
          : input.state.kind === 'on'
            ? l10n.t(
                "none: creating one fails (a seccomp filter); the network goes through Logbook's proxy, and socketpair still works",
              )
            : l10n.t('all that your user can reach'),
    unix_sockets_filtered:
      input.state.kind === 'on' && !input.state.socketFilterMissing && !input.state.socketsAllowed,
  };
}

export function sandboxReportText(r: SandboxReport, l10n: L10n = ENGLISH): string {
  const lines = [r.headline];
  if (r.fix) lines.push(l10n.t('Fix: {0}', r.fix));
  const list = (title: string, items: readonly string[]) => {
    lines.push('', `${title}:`, ...(items.length ? items.map((i) => `  ${i}`) : [`  ${l10n.t('(none)')}`]));
  };
  list(l10n.t('Writable'), r.writable);
  list(l10n.t('Read-only inside the workspace'), r.read_only_in_workspace);
  list(l10n.t('Home folders, empty inside'), r.hidden_homes);
  list(l10n.t('Readable in the home folders (read-only)'), r.readable_in_home);
  list(l10n.t('Hidden (unreadable)'), r.hidden);
  list(l10n.t('Hosts commands may reach'), r.allowed_hosts);
  list(l10n.t('Unix sockets commands may connect to'), [r.unix_sockets]);
  lines.push(
    '',
    l10n.t(
      'Everything else outside the home folders is read-only; no other process is visible; the network is closed but for the hosts above.',
    ),
  );
  return lines.join('\n');
}
