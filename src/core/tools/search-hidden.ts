// What grep and glob do about the places the sandbox hides (security/hidden-paths.ts): a search
// there is refused, and what a search elsewhere finds there (a hidden folder inside the searched
// one, a symlink into one) is left out of the answer, with a note saying so.
import { hiddenCheck, hiddenReason, type HiddenPaths } from '../security/hidden-paths';
import { realPath } from '../security/resolve-path';

/** Why the folder or file to search must not be, or undefined. */
export function hiddenSearchReason(path: string, hidden: HiddenPaths | undefined): string | undefined {
  const real = realPath(path);
  const why = hiddenReason(real === path ? path : `${path} (a symlink to ${real})`, real, hidden, true);
  return why && `Refused: ${why}. Nothing was searched; the user cannot allow it here.`;
}

/** Found paths without those that lead into a hidden place, and a note saying how many went. */
export function withoutHidden<T>(
  found: readonly T[],
  pathOf: (item: T) => string,
  hidden: HiddenPaths | undefined,
): { kept: T[]; note: string[] } {
  const check = hiddenCheck(hidden, true);
  const kept = found.filter((item) => {
    const path = pathOf(item);
    return check(path, realPath(path)) === undefined;
  });
  const left = found.length - kept.length;
  const note = left
    ? [
        `[${left} result${left === 1 ? '' : 's'} in places hidden from the agent (as from its commands) left out.]`,
      ]
    : [];
  return { kept, note };
}
