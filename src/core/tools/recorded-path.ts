// Where a tool call's path led when it was recorded and rated (`real_path` in the action), and the
// check that it still leads there when the call runs: a symlink changed in between (after the user
// approved, say) must not take the call somewhere nobody rated.
import { isAbsolute } from 'node:path';
import { resolveToolPath } from '../security/resolve-path';
import type { ToolContext } from './tool';

/**
 * The action payload with `real_path` (every symlink of `raw` followed), when it can be told: a
 * relative path needs the folder it resolves against. A path the tool will refuse is left as it is.
 */
export function withRealPath<A extends Record<string, unknown>>(
  raw: string,
  cwd: string | undefined,
  action: A,
): A {
  if (cwd === undefined && !isAbsolute(raw.trim())) return action;
  const resolved = resolveToolPath(raw, cwd ?? '/');
  return resolved.ok ? { ...action, real_path: resolved.real } : action;
}

/** Why the call must not run because its path now leads elsewhere than when it was rated, or undefined. */
export function movedSinceRated(
  path: string,
  real: string,
  ctx: ToolContext,
  nothing: string,
): string | undefined {
  const recorded = ctx.action?.real_path;
  if (typeof recorded !== 'string' || recorded === real) return undefined;
  return (
    `Not done: ${path} now leads to ${real}, not to ${recorded} where it led when this call was ` +
    `rated. Nothing was ${nothing}; call again to have it rated where it leads now.`
  );
}
