// Whether a symlink the server's agent made may be made here. A symlink is a door: once it is in
// the working tree, the local agent's file tools and commands, the editor and the user's own tools
// follow it. So it is judged as the local file tools judge a path: where it really leads here
// (every symlink on the way followed), which must be inside the working tree, not in its `.git`,
// and not in a place the sandbox hides (~/.ssh, Logbook's own folders, logbook.sandbox.denyRead).
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hiddenReason } from '../../../core/security/hidden-paths';
import { isInsideRoot, realPath } from '../../../core/security/resolve-path';

/** Controls and invisible characters: a target holding one reads as another in every listing. */
const NOT_PLAIN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/**
 * Why the symlink `rel` → `target` is not made in the working tree `root` (its real path), or
 * undefined when it leads to a place inside it that nothing hides. `hidden`: the sandbox's hidden
 * locations.
 */
export function symlinkRefusal(
  root: string,
  rel: string,
  target: string,
  hidden: readonly string[],
): string | undefined {
  if (target === '') return "the server's patch gives no target for this symlink (renamed whole?); not made";
  if (NOT_PLAIN.test(target))
    return `the server's symlink has no plain target (${JSON.stringify(target)}); not made`;
  const folder = realPath(dirname(join(root, rel)));
  const leads = realPath(isAbsolute(target) ? resolve(target) : resolve(folder, target));
  const shown = `a symlink to ${target}`;
  if (!isInsideRoot(leads, root))
    return `${shown}, which leads outside the working tree (to ${leads}); not made: make it yourself if you mean it`;
  if (
    relative(root, leads)
      .split(sep)
      .some((p) => p.toLowerCase() === '.git')
  )
    return `${shown}, which leads into the repository's .git; not made`;
  const why = hiddenReason(target, leads, { locations: () => hidden }, false);
  if (why) return `${shown}: ${why}; not made`;
  return undefined;
}
