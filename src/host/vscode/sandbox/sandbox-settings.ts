// The `logbook.sandbox*` settings. Machine-scoped in package.json: VS Code takes them from the
// user's (or the remote machine's) settings only, never from a repository's .vscode/settings.json,
// so a workspace cannot weaken its own sandbox. The choice is `logbook.sandbox.mode`, not
// `logbook.sandbox`: VS Code cannot hold a setting that is also the prefix of others (it ignores
// the longer ones).
import type { SandboxSetting } from '../../node/sandbox';
import { editorList, editorSetting, writeSetting } from '../settings/config';

/** `logbook.sandbox.mode`: anything unexpected reads as the default, `auto`. */
export function readSandboxSetting(): SandboxSetting {
  return editorSetting<SandboxSetting>('sandbox.mode');
}

export function readAllowedHosts(): string[] {
  return editorList('sandbox.allowedHosts');
}

export function readDenyRead(): string[] {
  return editorList('sandbox.denyRead');
}

export function readHomeReadable(): string[] {
  return editorList('sandbox.homeReadable');
}

export function readWritable(): string[] {
  return editorList('sandbox.writable');
}

/** `logbook.sandbox.allowUnixSockets`: the Unix socket filter turned off. */
export function readAllowUnixSockets(): boolean {
  return editorSetting<boolean>('sandbox.allowUnixSockets') === true;
}

/** "Always Allow" on a network ask: the host joins the user's own list. */
export async function addAllowedHost(host: string): Promise<void> {
  const hosts = readAllowedHosts();
  if (hosts.includes(host)) return;
  await writeSetting('sandbox.allowedHosts', [...hosts, host], 'user');
}
