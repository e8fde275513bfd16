// The sandbox options every command that runs the agent takes, with their environment
// variables: `--sandbox auto|required|off` (LOGBOOK_SANDBOX), `--allow-host HOST`
// (LOGBOOK_SANDBOX_ALLOW_HOSTS), `--deny-read PATH` (LOGBOOK_SANDBOX_DENY_READ),
// `--home-readable PATH` (LOGBOOK_SANDBOX_HOME_READABLE) and `--writable DIR`
// (LOGBOOK_SANDBOX_WRITABLE); lists in variables are comma or space separated,
// and the lists of the config file, the variables and the flags add up.
import path from 'node:path';
import { logbookConfigDir } from '../config-dir';
import { CommandSandbox, type SandboxSetting } from '../sandbox';
import type { CliSettings } from './cli-settings';
import { cliSigningKeyPath } from './signing';
import { checkpointsRoot } from './checkpoint-env';
import { describeSandbox } from '../sandbox';
import { note } from './event-printer';
import type { CliIo } from './io';

export const SANDBOX_OPTION = {
  sandbox: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'deny-read': { type: 'string', multiple: true },
  'home-readable': { type: 'string', multiple: true },
  writable: { type: 'string', multiple: true },
} as const;

/** The sandbox as the settings `sandbox.*` set it (flags, variables, config file). */
export function cliSandbox(
  settings: CliSettings,
  env: Readonly<Record<string, string | undefined>>,
  /** `logbook sandbox` and `doctor`: a sandbox is started to check, whatever an earlier run kept. */
  opts: { probeFresh?: boolean } = {},
): CommandSandbox {
  const allowed = settings.get<string[]>('sandbox.allowedHosts');
  const bwrap = settings.get<string | null>('sandbox.bwrap');
  return new CommandSandbox({
    setting: settings.get<SandboxSetting>('sandbox.mode'),
    allowedHosts: () => allowed,
    denyRead: settings.get<string[]>('sandbox.denyRead'),
    homeReadable: settings.get<string[]>('sandbox.homeReadable'),
    writable: settings.get<string[]>('sandbox.writable'),
    allowUnixSockets: settings.get<boolean>('sandbox.allowUnixSockets'),
    // Wherever the signing key and the checkpoint stores live (a variable or a setting may put
    // them anywhere), they are hidden.
    ownSecrets: [cliSigningKeyPath(settings, env), checkpointsRoot(settings, env)],
    hostEnv: env,
    // Another bubblewrap than the one on PATH (a build of your own, say).
    ...(bwrap ? { bwrap } : {}),
    // A full sandbox found by an earlier run on the same binaries, kernel and settings is not
    // probed again (probe-cache.ts): each run would pay for starting one.
    probeCache: path.join(logbookConfigDir(env), 'sandbox-probe.json'),
    ...(opts.probeFresh ? { probeFresh: true } : {}),
  });
}

/** The first lines of a run: what holds the boundary, and the fix when nothing does. */
export function printSandboxState(io: CliIo, mode: { json: boolean }, sandbox: CommandSandbox): void {
  const text = describeSandbox(sandbox.state);
  note(io, mode, `sandbox: ${text.headline}`);
  if (text.fix) note(io, mode, `  fix: ${text.fix}`);
}
