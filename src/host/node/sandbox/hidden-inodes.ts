// Which files the hidden places hold, by identity (device and inode), so that a hard link elsewhere
// to one of them (`ws/notes.txt` and `~/.ssh/id_ed25519` the same file) is known for what it is:
// its path leads nowhere hidden, so only its identity tells. Found by a bounded walk of the hidden
// places, kept per process for each list of places, and looked at again before it is used: a
// folder whose modification time moved (a new key in `~/.ssh`) makes a new walk.
import { lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { HiddenLinkVerdict } from '../../../core/security/hidden-paths';

/** Entries a walk looks at before it stops: past it, a multi-link file cannot be told apart. */
export const HIDDEN_WALK_LIMIT = 100_000;
/** Folder levels a walk enters below each hidden place. */
export const HIDDEN_WALK_DEPTH = 32;
/**
 * A folder changed this close to the walk may change again within the same tick of the file
 * system's clock without its time moving: such a walk is not trusted the next time.
 */
const RACY_MS = 1_000;

export interface HiddenInodes {
  /** Whether a regular file of the hidden places has this identity. */
  holds(dev: number, ino: number): boolean;
  /** Why files on this device cannot be told apart (the walk stopped before the end); else undefined. */
  incomplete(dev: number): string | undefined;
  /** The hidden regular files with more than one link: only their other names can be links to them. */
  readonly multiLinked: readonly { path: string; dev: number; ino: number }[];
  /** Whether the walk saw everything (else `incomplete` names the devices it did not finish). */
  readonly complete: boolean;
}

/** How far a walk goes (the defaults but in tests). */
export interface WalkLimits {
  entries: number;
  depth: number;
}

interface Walk extends HiddenInodes {
  /** Each folder walked (and each place itself), with what it was: a change means a new walk. */
  seen: Map<string, string>;
  /** A folder changed during the walk's last second: looked at again next time in any case. */
  racy: boolean;
}

const walks = new Map<string, Walk>();

/**
 * The files of `places` (absolute paths, folders or files, existing or not) as they are now: the
 * last walk of the same places when nothing it saw has changed since, else a new one. Every file
 * is kept, so a link made later to one is known; but which have other links (`multiLinked`) is
 * only sure after a new walk (`fresh`): a new link changes no folder of the hidden places.
 */
export function hiddenInodes(
  places: readonly string[],
  opts: { fresh?: boolean; limits?: WalkLimits } = {},
): HiddenInodes {
  const limits = opts.limits ?? { entries: HIDDEN_WALK_LIMIT, depth: HIDDEN_WALK_DEPTH };
  const key = [limits.entries, limits.depth, ...[...places].sort()].join('\0');
  const last = walks.get(key);
  if (!opts.fresh && last && !last.racy && unchanged(last.seen)) return last;
  const walk = walkPlaces(places, limits);
  if (walks.size >= 8 && !walks.has(key)) walks.clear(); // lists of places a process no longer uses
  walks.set(key, walk);
  return walk;
}

/** Inode numbers above 2^53 lose precision as numbers: two may then compare equal, never two the same unequal. */
function identity(st: Stats): { dev: number; ino: number } {
  return { dev: st.dev, ino: st.ino };
}

function signature(st: Stats | undefined): string {
  return st ? `${st.dev}:${st.ino}:${st.mode}:${st.mtimeMs}` : 'missing';
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function unchanged(seen: Map<string, string>): boolean {
  for (const [p, sig] of seen) {
    if (signature(lstatOrUndefined(p)) !== sig) return false;
  }
  return true;
}

function walkPlaces(places: readonly string[], limits: WalkLimits): Walk {
  const started = Date.now();
  const files = new Map<number, Set<number>>();
  const short = new Map<number, string>();
  const multiLinked: { path: string; dev: number; ino: number }[] = [];
  const seen = new Map<string, string>();
  let racy = false;
  let entries = 0;
  const note = (p: string, st: Stats | undefined) => {
    seen.set(p, signature(st));
    if (st && st.isDirectory() && st.mtimeMs > started - RACY_MS) racy = true;
  };
  const addFile = (p: string, st: Stats) => {
    const { dev, ino } = identity(st);
    let inos = files.get(dev);
    if (!inos) files.set(dev, (inos = new Set()));
    inos.add(ino);
    if (st.nlink > 1) multiLinked.push({ path: p, dev, ino });
  };
  const stop = (dev: number, why: string) => {
    if (!short.has(dev)) short.set(dev, why);
  };

  for (const place of places) {
    // The place itself as written (a symlink replaced is a change) and where it really is.
    note(place, lstatOrUndefined(place));
    let real: string;
    try {
      real = realpathSync(place);
    } catch {
      continue; // missing: nothing there to link to (a place made later changes what was noted)
    }
    const top = lstatOrUndefined(real);
    note(real, top);
    if (!top) continue;
    if (top.isFile()) {
      addFile(real, top);
      continue;
    }
    if (!top.isDirectory()) continue;
    const stack: { dir: string; dev: number; depth: number }[] = [{ dir: real, dev: top.dev, depth: 0 }];
    while (stack.length) {
      const { dir, dev, depth } = stack.pop()!;
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (err) {
        // Named without the folder: the reason reaches the model, and a hidden place's names are hidden too.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          stop(dev, 'a folder of the hidden places cannot be listed');
        continue;
      }
      for (const name of names) {
        if (++entries > limits.entries) {
          // What is left unwalked lies on the devices of the folders not yet listed (a mount point
          // deeper in one of them is not known either: its device is not seen).
          const why = `the hidden places hold more than ${limits.entries} entries`;
          stop(dev, why);
          for (const rest of stack) stop(rest.dev, why);
          return { ...answers(files, short, multiLinked), seen, racy };
        }
        const p = join(dir, name);
        const st = lstatOrUndefined(p);
        if (!st) continue;
        if (st.isFile()) addFile(p, st);
        else if (st.isDirectory()) {
          note(p, st);
          if (depth + 1 >= limits.depth)
            stop(st.dev, `the hidden places nest folders deeper than ${limits.depth} levels`);
          else stack.push({ dir: p, dev: st.dev, depth: depth + 1 });
        }
        // A symlink is not followed: the sandbox hides its name, not where it leads.
      }
    }
  }
  return { ...answers(files, short, multiLinked), seen, racy };
}

function answers(
  files: Map<number, Set<number>>,
  short: Map<number, string>,
  multiLinked: { path: string; dev: number; ino: number }[],
): HiddenInodes {
  return {
    holds: (dev, ino) => files.get(dev)?.has(ino) === true,
    incomplete: (dev) => short.get(dev),
    multiLinked,
    complete: short.size === 0,
  };
}

/**
 * The file tools' look at hard links for one call (core/security/hidden-paths.ts): the hidden
 * places are looked at once, when the first file with other links is met.
 */
export function hiddenLinkCheck(places: readonly string[]): (path: string) => HiddenLinkVerdict {
  let inodes: HiddenInodes | undefined;
  return (path) => {
    const st = lstatOrUndefined(path);
    if (!st?.isFile() || st.nlink < 2) return undefined;
    inodes ??= hiddenInodes(places);
    if (inodes.holds(st.dev, st.ino)) return { hidden: true };
    const why = inodes.incomplete(st.dev);
    return why ? { unknown: why } : undefined;
  };
}
