// The `logbook.sandbox*` settings. Machine-scoped in package.json: VS Code takes them from the
// user's (or the remote machine's) settings only, never from a repository's .vscode/settings.json,
// so a workspace cannot weaken its own sandbox. The choice is `logbook.sandbox.mode`, not
// `logbook.sandbox`: VS Code cannot hold a setting that is also the prefix of others (it ignores
// the longer ones).
import * as vscode from 'vscode';
import type { SandboxSetting } from '../../node/sandbox';

function cfg() {
  return vscode.workspace.getConfiguration('logbook');
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
}

/** `logbook.sandbox.mode`: anything unexpected reads as the default, `auto`. */
export function readSandboxSetting(): SandboxSetting {
  const v = cfg().get<unknown>('sandbox.mode');
  return v === 'off' || v === 'required' ? v : 'auto';
}

export function readAllowedHosts(): string[] {
  return strings(cfg().get('sandbox.allowedHosts'));
}

export function readDenyRead(): string[] {
  return strings(cfg().get('sandbox.denyRead'));
}

export function readWritable(): string[] {
  return strings(cfg().get('sandbox.writable'));
}

/** "Always Allow" on a network ask: the host joins the user's own list. */
export async function addAllowedHost(host: string): Promise<void> {
  const hosts = readAllowedHosts();
  if (hosts.includes(host)) return;
  await cfg().update('sandbox.allowedHosts', [...hosts, host], vscode.ConfigurationTarget.Global);
}
