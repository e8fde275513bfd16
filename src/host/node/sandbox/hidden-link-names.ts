// Bubblewrap hides places by path, so a hard link in the workspace to a hidden file (made by the
// user or a tool: from inside, a link across mounts fails) is another name commands could read it
// by. When a shell starts, the hidden files with other links are looked for (a new walk of the
// hidden places, hidden-inodes.ts: in most homes there are none, and that walk is all it costs);
// only if there are, the workspaces and writable folders are walked for their other names
// (workspace-scan.ts, the same bounded walk that holds linked files read-only), and each is covered
// as a hidden file is (it cannot be opened).
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { hiddenInodes } from './hidden-inodes';
import { scanWorkspace } from './workspace-scan';

export interface HiddenLinkNames {
  /** Absolute names to cover. */
  names: string[];
  /** For the command's output: which names read empty and why; empty when there are none. */
  note: string;
}

export function hiddenLinkNames(folders: readonly string[], places: readonly string[]): HiddenLinkNames {
  const inodes = hiddenInodes(places, { fresh: true });
  if (inodes.complete && inodes.multiLinked.length === 0) return { names: [], note: '' };
  const names = new Set<string>();
  let unknown = false;
  for (const folder of new Set(folders)) {
    const scan = scanWorkspace(folder, { named: () => false, links: 'all' });
    for (const rel of scan.linked) {
      const p = join(folder, ...rel.split('/'));
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue; // gone since the walk
      }
      if (inodes.holds(st.dev, st.ino)) names.add(p);
      else if (inodes.incomplete(st.dev)) {
        // The walk of the hidden places stopped early: a file with other links may be one of theirs.
        names.add(p);
        unknown = true;
      }
    }
  }
  if (names.size === 0) return { names: [], note: '' };
  const list = [...names];
  const why = unknown
    ? 'are hard links to files the sandbox hides, or have other links Logbook could not tell apart from them'
    : 'are hard links to files the sandbox hides';
  return { names: list, note: `[${list.join(', ')} ${why}: commands cannot open them.]` };
}
