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
 * Where a symlink may lead outside the working tree: only where the user said yes to, for this
 * link's path and the real place it leads (a place that changed since the question is not agreed).
 */
export type OutsideAgreed = (path: string, leads: string) => boolean;

export const NONE_AGREED: OutsideAgreed = () => false;

/** A symlink that leads outside the working tree and nowhere hidden: one the user may be asked about. */
export interface OutsideLink {
  path: string;
  target: string;
  /** Its real place here, every symlink on the way followed. */
  leads: string;
}

interface Judgement {
  why?: string;
  /** Set when the only reason is that it leads outside the tree (to this real place). */
  outside?: string;
}

function judge(root: string, rel: string, target: string, hidden: readonly string[]): Judgement {
  if (target === '')
    return { why: "the server's patch gives no target for this symlink (renamed whole?); not made" };
  if (NOT_PLAIN.test(target))
    return { why: `the server's symlink has no plain target (${JSON.stringify(target)}); not made` };
  const folder = realPath(dirname(join(root, rel)));
  const leads = realPath(isAbsolute(target) ? resolve(target) : resolve(folder, target));
  const shown = `a symlink to ${target}`;
  const hiddenWhy = hiddenReason(target, leads, { locations: () => hidden }, false);
  if (!isInsideRoot(leads, root)) {
    const why = `${shown}, which leads outside the working tree (to ${leads}); not made: make it yourself if you mean it`;
    // A place the sandbox hides is never offered: its message names that too.
    return hiddenWhy ? { why: `${why} (${hiddenWhy})` } : { why, outside: leads };
  }
  if (
    relative(root, leads)
      .split(sep)
      .some((p) => p.toLowerCase() === '.git')
  )
    return { why: `${shown}, which leads into the repository's .git; not made` };
  if (hiddenWhy) return { why: `${shown}: ${hiddenWhy}; not made` };
  return {};
}

/**
 * Why the symlink `rel` → `target` is not made in the working tree `root` (its real path), or
 * undefined when it leads to a place inside it that nothing hides, or outside it to a place the
 * user agreed to and nothing hides. `hidden`: the sandbox's hidden locations.
 */
export function symlinkRefusal(
  root: string,
  rel: string,
  target: string,
  hidden: readonly string[],
  agreed: OutsideAgreed = NONE_AGREED,
): string | undefined {
  const j = judge(root, rel, target, hidden);
  if (j.outside !== undefined && agreed(rel, j.outside)) return undefined;
  return j.why;
}

/** Where `rel` → `target` leads when that is outside the tree and nowhere hidden, else undefined. */
export function outsideOnly(
  root: string,
  rel: string,
  target: string,
  hidden: readonly string[],
): string | undefined {
  return judge(root, rel, target, hidden).outside;
}
