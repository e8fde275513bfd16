// The hooks a session runs: the user's own, then each repository file's the user accepted as it
// is now. An untrusted workspace runs none of the repository's, nor a hook of yours that names one
// of its files.
import type { ConfiguredHook } from '../../../core/hooks/hook-config';
import type { Env } from '../config-dir';
import { isAccepted } from './accepted-hooks';
import { pinnedScripts } from './pinned-scripts';
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
  // Untrusted, not even your own hook may run a script of the repository (its content is theirs).
  if (!opts.trusted)
    return {
      hooks: hooks.filter((h) => pinnedScripts(h.command, opts.workspace).length === 0),
      unaccepted: [],
    };
  const unaccepted: RepositoryHooks[] = [];
  for (const r of repositoryHooks(opts.workspace)) {
    if (isAccepted(opts.env, opts.workspace, r)) hooks.push(...r.hooks);
    else unaccepted.push(r);
  }
  return { hooks, unaccepted };
}
