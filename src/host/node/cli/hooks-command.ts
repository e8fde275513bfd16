// `logbook hooks`: the hooks that run in this workspace (the user's and the repository's), and
// `logbook hooks accept`, which accepts the repository's hook files as they are now, after
// printing every command line they would run.
import { hookLines } from '../../../core/hooks/hook-config';
import { acceptHooks, isAccepted } from '../hooks/accepted-hooks';
import { describeRepositoryHooks, repositoryHooks, userHooks } from '../hooks/hook-sources';
import { parseCommandArgs } from './args';
import { ioSettings } from './cli-settings';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { resolvePath } from './conversation-dir';

export function hooksCommand(argv: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs('hooks', argv, { workspace: { type: 'string' } });
  if (values.help) {
    io.out(COMMAND_HELP.hooks);
    return EXIT.ok;
  }
  const workspace = values.workspace ? resolvePath(io, values.workspace) : io.cwd;
  const [action, ...extra] = positionals;
  if (extra.length) throw new UsageError(`logbook hooks: unexpected argument "${extra[0]}".`);
  const repo = repositoryHooks(workspace);
  if (action === 'accept') {
    if (!repo.length) {
      io.out(`No repository hooks in ${workspace}: nothing to accept.`);
      return EXIT.ok;
    }
    for (const r of repo) {
      io.out(describeRepositoryHooks(r));
      const done = acceptHooks(io.env, workspace, r);
      io.out(`Accepted the hooks of ${r.origin} as shown (${done.fingerprint}).`);
    }
    return EXIT.ok;
  }
  if (action !== undefined && action !== 'list')
    throw new UsageError(`logbook hooks: unknown action "${action}" (list or accept).`);
  const mine = userHooks(ioSettings('hooks', io).get<unknown>('hooks'));
  io.out(mine.length ? 'your hooks (logbook.hooks):' : 'your hooks (logbook.hooks): none');
  for (const l of hookLines(mine)) io.out(`  ${l}`);
  for (const r of repo) {
    const state = isAccepted(io.env, workspace, r)
      ? 'accepted'
      : 'not accepted: `logbook hooks accept` runs them';
    io.out(`${describeRepositoryHooks(r)}\n  (${state})`);
  }
  return EXIT.ok;
}
