// One path, judged as it will be used. The text a tool was given becomes, once and by this module
// only, the absolute path the tool opens (`path`) and the place that path really reaches on disk
// (`real`, every symlink of an existing ancestor followed). Tools operate on `path`; the risk rules
// judge `real`; nobody re-reads the raw text, so " /etc/x" cannot be judged as a workspace file and
// then used as /etc/x.
import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

/** What resolving needs from the file system (synchronous: the confirmation gate is). */
export interface PathLookup {
  /** The kind of the entry itself (a symlink is not followed); undefined when it cannot be seen. */
  kind(path: string): 'symlink' | 'directory' | 'other' | undefined;
  readlink(path: string): string;
  /**
   * How many hard links (names) the regular file at `path` has, the entry itself and not where a
   * symlink leads; undefined for anything else, or when it cannot be seen.
   */
  hardLinks?(path: string): number | undefined;
}

export const diskLookup: PathLookup = {
  kind(path) {
    try {
      const st = lstatSync(path);
      return st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'directory' : 'other';
    } catch {
      return undefined; // missing, or not ours to look at: the rest is taken as written
    }
  },
  readlink: (path) => readlinkSync(path),
  hardLinks(path) {
    try {
      const st = lstatSync(path);
      return st.isFile() ? st.nlink : undefined;
    } catch {
      return undefined;
    }
  },
};

export type ResolvedPath = { ok: true; path: string; real: string } | { ok: false; error: string };

/**
 * Characters a path must not contain: C0/C1 controls (a newline or escape inside a name misleads
 * every display of it) and invisible format characters (zero-width, bidirectional overrides) that
 * make a path look like another one in the confirmation the user reads.
 */
const FORBIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/**
 * The path a tool will use for `raw`, and where it really leads. Surrounding whitespace (spaces,
 * tabs, newlines, NBSP, BOM) is trimmed; a path with a control or invisible character left in it,
 * or nothing left at all, is refused with an error the model can act on.
 */
export function resolveToolPath(raw: string, cwd: string, lookup: PathLookup = diskLookup): ResolvedPath {
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: false, error: 'The path is empty.' };
  const bad = FORBIDDEN.exec(trimmed);
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return {
      ok: false,
      error: `The path ${JSON.stringify(trimmed)} contains the control or invisible character ${code}; paths must be plain text. Nothing was done.`,
    };
  }
  const path = isAbsolute(trimmed) ? resolve(trimmed) : resolve(cwd, trimmed);
  return { ok: true, path, real: realPath(path, lookup) };
}

const MAX_LINKS = 40; // as Linux's own limit before ELOOP

/**
 * Where an absolute path leads: every symlink along it is followed, also a dangling one (writing
 * through it creates its target) and one whose target has `..` (resolved from the link's real
 * folder, as the kernel does). Parts that do not exist are kept as written.
 */
export function realPath(path: string, lookup: PathLookup = diskLookup): string {
  const { root } = parse(path);
  let current = root;
  const todo = parts(path.slice(root.length));
  let links = 0;
  while (todo.length > 0) {
    const part = todo.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = resolve(current, '..');
      continue;
    }
    const next = join(current, part);
    const kind = lookup.kind(next);
    if (kind === 'symlink') {
      if (++links > MAX_LINKS) return join(next, ...todo); // a loop: the operation will fail with ELOOP
      const target = lookup.readlink(next);
      if (isAbsolute(target)) current = parse(target).root;
      todo.unshift(...parts(isAbsolute(target) ? target.slice(parse(target).root.length) : target));
      continue;
    }
    current = next;
    if (kind === undefined) return join(current, ...todo.filter((p) => p !== '.'));
  }
  return current;
}

/** A backslash separates only where the platform says so (Windows); elsewhere it is part of a name. */
const SEPARATORS = sep === '\\' ? /[\\/]+/ : /\/+/;

function parts(path: string): string[] {
  return path.split(SEPARATORS).filter((p) => p !== '');
}

/** The real location of each workspace folder, so a folder opened through a symlink still matches. */
export function realRoots(roots: readonly string[], lookup: PathLookup = diskLookup): string[] {
  return roots.map((root) => realPath(resolve(root), lookup));
}

export function isInsideRoot(path: string, root: string): boolean {
  const base = resolve(root);
  const target = resolve(path);
  return target === base || target.startsWith(base.endsWith(sep) ? base : base + sep);
}

/** Whether a real path lies in one of the folders (compared by their own real locations). */
export function isInsideAny(
  real: string,
  roots: readonly string[],
  lookup: PathLookup = diskLookup,
): boolean {
  return realRoots(roots, lookup).some((root) => isInsideRoot(real, root));
}

/** `real` relative to the workspace folder holding it, `/`-separated; undefined outside them all. */
export function workspaceRelative(
  real: string,
  roots: readonly string[],
  lookup: PathLookup = diskLookup,
): string | undefined {
  const candidates = [...roots, ...realRoots(roots, lookup)];
  const root = candidates.find((r) => isInsideRoot(real, r));
  return root === undefined ? undefined : relative(resolve(root), real).split(sep).join('/');
}
