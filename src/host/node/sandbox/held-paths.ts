// Which paths of a writable workspace the sandbox holds read-only: the files that run later in the
// user's own context (core/security/runs-later.ts), found on disk. Entries under `.git/` apply to
// every repository in the workspace (the workspace's own and nested ones); the other anchored
// entries to the workspace folder; a pattern without `/` to a name at any depth (found by the scan).
// A held folder that does not exist yet at the workspace folder is named too, so the sandbox can
// put an empty read-only folder there (see placeholders.ts); a held file that does not exist yet
// cannot have one without changing how git or the editor behave, and is checked after each
// command instead (held-files-watch.ts).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RUNS_LATER, entryHolding, type RunsLaterEntry } from '../../../core/security/runs-later';
import type { WorkspaceScan } from './workspace-scan';

export interface HeldPlan {
  /** Existing paths to mount read-only (absolute). */
  held: string[];
  /** Folders bound writable onto themselves, so that what they hold cannot be renamed away. */
  selfBound: string[];
  /** Held folders missing at the workspace folder (absolute; their parent exists). */
  missingFolders: string[];
}

type Kind = 'dir' | 'file' | undefined;

function kindOf(p: string): Kind {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/** A pattern with no `/` but a trailing one matches a name at any depth (as entryHolding reads it). */
export function isAnyDepth(entry: RunsLaterEntry): boolean {
  return !entry.pattern.includes('/');
}

/** Whether a file name is held wherever it lies (`.env`, `*.code-workspace`, ...). */
export function heldNameTest(list: readonly RunsLaterEntry[] = RUNS_LATER): (name: string) => boolean {
  const anyDepth = list.filter(isAnyDepth);
  return (name) => entryHolding(name, anyDepth) !== undefined;
}

/**
 * The existing paths under `base` that match `segments` (`*` within one name); for a literal
 * pattern, also the path itself when it is missing but its folder exists.
 */
export function expandUnder(
  base: string,
  segments: readonly string[],
): { found: string[]; missing: string[] } {
  if (!segments.some((s) => s.includes('*'))) {
    const p = join(base, ...segments);
    if (kindOf(p)) return { found: [p], missing: [] };
    return { found: [], missing: kindOf(dirname(p)) === 'dir' ? [p] : [] };
  }
  let paths = [base];
  for (const seg of segments) {
    const next: string[] = [];
    for (const p of paths) {
      if (!seg.includes('*')) {
        if (kindOf(join(p, seg))) next.push(join(p, seg));
        continue;
      }
      let names: string[] = [];
      try {
        names = readdirSync(p);
      } catch {
        continue;
      }
      for (const n of names) if (entryHolding(n, [{ pattern: seg, why: '' }])) next.push(join(p, n));
    }
    paths = next;
  }
  return { found: paths, missing: [] };
}

export function heldPlan(
  ws: string,
  scan: WorkspaceScan,
  list: readonly RunsLaterEntry[] = RUNS_LATER,
): HeldPlan {
  const held = new Set<string>();
  const selfBound = new Set<string>();
  const missingFolders = new Set<string>();
  const anchored = list.filter((e) => !isAnyDepth(e));
  const gitEntries = anchored.filter((e) => e.pattern.startsWith('.git/'));
  const rootEntries = anchored.filter((e) => !e.pattern.startsWith('.git/'));

  for (const repo of new Set(scan.repos)) {
    const top = repo ? join(ws, ...repo.split('/')) : ws;
    const git = join(top, '.git');
    const kind = kindOf(git);
    if (kind === 'file') {
      // A `.git` file says where the repository is: rewritten, it points git at another one.
      held.add(git);
      continue;
    }
    if (kind !== 'dir') continue;
    selfBound.add(git);
    for (const e of gitEntries) {
      const segments = e.pattern.replace(/\/$/, '').split('/').slice(1);
      const { found, missing } = expandUnder(git, segments);
      found.forEach((p) => held.add(p));
      // The folders on the way to a held one are mount points too, so they cannot be renamed away
      // (`.git/modules/x` moved aside, a fresh one made with a config of the command's own).
      if (segments.length > 1)
        for (const p of found) {
          let d = join(p, '..');
          while (d.length > git.length) {
            if (kindOf(d) === 'dir') selfBound.add(d);
            d = join(d, '..');
          }
        }
      if (repo === '' && e.pattern.endsWith('/')) missing.forEach((p) => missingFolders.add(p));
    }
  }
  for (const e of rootEntries) {
    const { found, missing } = expandUnder(ws, e.pattern.replace(/\/$/, '').split('/'));
    found.forEach((p) => held.add(p));
    if (e.pattern.endsWith('/')) missing.forEach((p) => missingFolders.add(p));
  }
  // (a `.git` file or link is held with its repository above)
  for (const rel of scan.named) if (!/(^|\/)\.git$/.test(rel)) held.add(join(ws, ...rel.split('/')));
  return { held: [...held], selfBound: [...selfBound], missingFolders: [...missingFolders] };
}
