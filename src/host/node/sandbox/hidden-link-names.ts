// Bubblewrap hides places by path, so a hard link in the workspace to a hidden file (made by the
// user or a tool: from inside, a link across mounts fails) is another name commands could read it
// by. When a shell starts, such names are found and covered as a hidden file is (it cannot be
// opened). The files of the hidden places are known by identity (hidden-inodes.ts); the names:
// - in a writable workspace, the files with other links the shell holds read-only anyway (its
//   walk, workspace-scan.ts, found them): each is looked up, which costs a look at the hidden
//   places' folders;
// - elsewhere (a read-only workspace, the writable folders), found by the same bounded walk, made
//   only when a new walk of the hidden places finds a file there with other links: in most homes
//   there is none, and that walk is all it costs.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { type HiddenInodes, hiddenInodes } from './hidden-inodes';
import { scanWorkspace } from './workspace-scan';

export interface HiddenLinkNames {
  /** Absolute names to cover. */
  names: string[];
  /** For the command's output: which names cannot be opened and why; empty when there are none. */
  note: string;
}

/**
 * The names in the workspaces and writable folders to cover. `known`: the files with other links a
 * writable launch's walk found in the workspaces (absolute), so the workspaces are not walked
 * again; undefined (a read-only launch): they are walked too, if a hidden file has other links.
 */
export function hiddenLinkNames(
  known: Iterable<string> | undefined,
  folders: { workspaces: readonly string[]; writable: readonly string[] },
  places: readonly string[],
): HiddenLinkNames {
  const names = new Set<string>();
  let unknown = false;
  const judge = (p: string, inodes: HiddenInodes) => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return; // gone since the walk
    }
    if (inodes.holds(st.dev, st.ino)) names.add(p);
    else if (inodes.incomplete(st.dev)) {
      // The walk of the hidden places stopped early: a file with other links may be one of theirs.
      names.add(p);
      unknown = true;
    }
  };
  const linked = [...(known ?? [])];
  if (linked.length) {
    const inodes = hiddenInodes(places);
    for (const p of linked) judge(p, inodes);
  }
  const walk = known ? folders.writable : [...folders.workspaces, ...folders.writable];
  if (walk.length) {
    const inodes = hiddenInodes(places, { fresh: true });
    if (!inodes.complete || inodes.multiLinked.length > 0)
      for (const folder of new Set(walk)) {
        const scan = scanWorkspace(folder, { named: () => false, links: 'all' });
        for (const rel of scan.linked) judge(join(folder, ...rel.split('/')), inodes);
      }
  }
  if (names.size === 0) return { names: [], note: '' };
  const list = [...names];
  const why = unknown
    ? 'are hard links to files the sandbox hides, or have other links Logbook could not tell apart from them'
    : 'are hard links to files the sandbox hides';
  return { names: list, note: `[${list.join(', ')} ${why}: commands cannot open them.]` };
}
