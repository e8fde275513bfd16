// The hooks a session runs: the user's own, then each repository file's the user accepted as it
// is now. An untrusted workspace runs none of the repository's.
import type { ConfiguredHook } from '../../../core/hooks/hook-config';
import type { Env } from '../config-dir';
import { isAccepted } from './accepted-hooks';
import { type RepositoryHooks, repositoryHooks, userHooks } from './hook-sources';

export interface HooksInEffect {
  hooks: ConfiguredHook[];
  /** Repository hook files not accepted as they are now: their hooks do not run. */
  unaccepted: RepositoryHooks[];
}

export function hooksInEffect(opts: {
  workspace: string;
  env: Env;
  /** The user's `hooks` setting. */
  user: unknown;
  trusted: boolean;
}): HooksInEffect {
  const hooks = userHooks(opts.user);
  if (!opts.trusted) return { hooks, unaccepted: [] };
  const unaccepted: RepositoryHooks[] = [];
  for (const r of repositoryHooks(opts.workspace)) {
    if (isAccepted(opts.env, opts.workspace, r)) hooks.push(...r.hooks);
    else unaccepted.push(r);
  }
  return { hooks, unaccepted };
}
