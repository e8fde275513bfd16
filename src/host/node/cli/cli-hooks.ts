// The hooks of a CLI session: the user's `hooks` setting, and the repository's hook files once the
// user accepted them. At a terminal an unaccepted file is shown by its command lines and asked
// about; elsewhere (a script, CI) the run is refused, naming `logbook hooks accept`, so a cloned
// repository's programs never run unseen and a team's checks are never silently skipped.
import type { ConfiguredHook } from '../../../core/hooks/hook-config';
import { acceptHooks } from '../hooks/accepted-hooks';
import { describeRepositoryHooks } from '../hooks/hook-sources';
import { hooksInEffect } from '../hooks/hooks-in-effect';
import type { CliSettings } from './cli-settings';
import type { CliIo } from './io';

export async function cliHooks(
  io: CliIo,
  workspace: string,
  settings: CliSettings,
): Promise<ConfiguredHook[]> {
  const found = hooksInEffect({
    workspace,
    env: io.env,
    user: settings.get<unknown>('hooks'),
    trusted: true,
  });
  const hooks = [...found.hooks];
  for (const r of found.unaccepted) {
    const shown = describeRepositoryHooks(r);
    if (!process.stdin.isTTY || !io.ask)
      throw new Error(
        `This repository has hooks you have not accepted, and they would run as you, outside the sandbox:\n${shown}\n` +
          'Read them, then run `logbook hooks accept` in this workspace to accept them as they are (a change asks again); nothing was run.',
      );
    io.err(`This repository has hooks that would run as you, outside the sandbox:\n${shown}`);
    const answer = await io.ask('Run these hooks (now and until they change)? [y/N] ');
    if (answer?.trim().toLowerCase() !== 'y')
      throw new Error(
        `The repository's hooks in ${r.origin} were not accepted, so the run did not start (their checks would be skipped). ` +
          'Accept them with `logbook hooks accept`, or remove them.',
      );
    const done = acceptHooks(io.env, workspace, r);
    io.err(`Accepted the hooks of ${r.origin} (${done.fingerprint}).`);
    hooks.push(...r.hooks);
  }
  return hooks;
}
