// The sandbox options every command that runs the agent takes, with their environment
// variables: `--sandbox auto|required|off` (LOGBOOK_SANDBOX), `--allow-host HOST`
// (LOGBOOK_SANDBOX_ALLOW_HOSTS), `--deny-read PATH` (LOGBOOK_SANDBOX_DENY_READ) and
// `--writable DIR` (LOGBOOK_SANDBOX_WRITABLE); lists in variables are comma or space separated.
import { CommandSandbox, type SandboxSetting } from '../sandbox';
import { signingKeyPath } from '../signing-key';
import { UsageError } from './exit-codes';
import { describeSandbox } from '../sandbox';
import { note } from './event-printer';
import type { CliIo } from './io';

export const SANDBOX_OPTION = {
  sandbox: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'deny-read': { type: 'string', multiple: true },
  writable: { type: 'string', multiple: true },
} as const;

const SETTINGS: readonly SandboxSetting[] = ['auto', 'required', 'off'];

export interface SandboxFlags {
  sandbox?: string | undefined;
  'allow-host'?: string[] | undefined;
  'deny-read'?: string[] | undefined;
  writable?: string[] | undefined;
}

export function cliSandbox(
  command: string,
  flags: SandboxFlags,
  env: Readonly<Record<string, string | undefined>>,
): CommandSandbox {
  const setting = (flags.sandbox ?? env.LOGBOOK_SANDBOX ?? 'auto').trim() as SandboxSetting;
  if (!SETTINGS.includes(setting))
    throw new UsageError(
      `logbook ${command}: --sandbox must be one of ${SETTINGS.join(', ')}, got "${setting}".`,
    );
  const list = (flag: string[] | undefined, variable: string | undefined): string[] =>
    [...(flag ?? []), ...(variable ?? '').split(/[\s,]+/)].map((s) => s.trim()).filter(Boolean);
  const allowed = list(flags['allow-host'], env.LOGBOOK_SANDBOX_ALLOW_HOSTS);
  return new CommandSandbox({
    setting,
    allowedHosts: () => allowed,
    denyRead: list(flags['deny-read'], env.LOGBOOK_SANDBOX_DENY_READ),
    writable: list(flags.writable, env.LOGBOOK_SANDBOX_WRITABLE),
    // Wherever the signing key lives (LOGBOOK_SIGNING_KEY may put it anywhere), it is hidden.
    ownSecrets: [signingKeyPath(env)],
    hostEnv: env,
    // Another bubblewrap than the one on PATH (a build of your own, say).
    ...(env.LOGBOOK_BWRAP ? { bwrap: env.LOGBOOK_BWRAP } : {}),
  });
}

/** The first lines of a run: what holds the boundary, and the fix when nothing does. */
export function printSandboxState(io: CliIo, mode: { json: boolean }, sandbox: CommandSandbox): void {
  const text = describeSandbox(sandbox.state);
  note(io, mode, `sandbox: ${text.headline}`);
  if (text.fix) note(io, mode, `  fix: ${text.fix}`);
}
