// What a sandbox would allow for a workspace, for the diagnostics commands (`logbook sandbox`,
// VS Code's Logbook: Show Sandbox Status): the same lists CommandSandbox mounts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxState } from './sandbox-state';
import { describeSandbox } from './describe-sandbox';
import { ENGLISH, type L10n } from '../../../core/text/l10n';
import { PROTECTED_WORKSPACE_PATHS } from './sandbox-profile';

export interface SandboxReportInput {
  state: SandboxState;
  workspaces: readonly string[];
  writable: readonly string[];
  hidden: readonly string[];
  allowedHosts: readonly string[];
}

export interface SandboxReport {
  state: SandboxState['kind'];
  required: boolean;
  headline: string;
  fix: string | null;
  writable: string[];
  read_only_in_workspace: string[];
  hidden: string[];
  allowed_hosts: string[];
}

export function sandboxReport(input: SandboxReportInput, l10n: L10n = ENGLISH): SandboxReport {
  const text = describeSandbox(input.state, l10n);
  return {
    state: input.state.kind,
    required: input.state.kind === 'unavailable' && input.state.required,
    headline: text.headline,
    fix: text.fix ?? null,
    writable: [...input.workspaces, l10n.t('/tmp (private to the sandbox)'), ...input.writable],
    read_only_in_workspace: input.workspaces.flatMap((ws) =>
      PROTECTED_WORKSPACE_PATHS.map((p) => join(ws, p)),
    ),
    // Only what exists is mounted over; the rest is listed so the user sees the whole list.
    hidden: input.hidden.map((p) => (existsSync(p) ? p : l10n.t('{0} (absent)', p))),
    allowed_hosts: [...input.allowedHosts],
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
  list(l10n.t('Hidden (unreadable)'), r.hidden);
  list(l10n.t('Hosts commands may reach'), r.allowed_hosts);
  lines.push(
    '',
    l10n.t(
      'Everything else is read-only; no other process is visible; the network is closed but for the hosts above.',
    ),
  );
  return lines.join('\n');
}
