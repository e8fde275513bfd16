// The held files no mount can hold: a name that may appear at any depth (`.env`, `.envrc`,
// `*.code-workspace`, `.gitmodules`, a `.git` file or link), git's `commondir` and
// `config.worktree`, where even an empty file changes how git behaves, so nothing may be put in
// their place, and what makes a repository the command creates run programs for the user: its
// `config` and hooks, also in a git folder under another name (a bare layout, which git finds by
// walking up from a subfolder, or where a `.git` file points). Before each command
// their state is taken; after it, one that appeared is removed and one that changed or went away
// is put back, and the command's output says so. A process the command leaves running in the
// background can still write one between two commands: that is accepted as the user's own (the
// host's file tools write these files between commands too, after asking).
import {
  chmodSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { RUNS_LATER, entryHolding, type RunsLaterEntry } from '../../../core/security/runs-later';
import { heldNameTest } from './held-paths';
import { scanWorkspace } from './workspace-scan';

/** Larger held files are watched but not kept: a change to one is reported, not undone. */
const KEEP_MAX_BYTES = 1024 * 1024;

interface FileState {
  ino: number;
  size: number;
  mtimeMs: number;
  mode: number;
  isFile: boolean;
  content?: Buffer;
}

export interface HeldChange {
  /** Absolute path. */
  path: string;
  action: 'removed' | 'restored' | 'changed';
  why: string;
}

export class HeldFilesWatch {
  private before = new Map<string, FileState>();
  /** Folders' modification times at the last walk, per workspace: a changed one may hold a new link. */
  private readonly folderTimes = new Map<string, Map<string, number>>();
  private readonly named: (name: string) => boolean;
  /** Why each file of a git folder is watched (its path alone may not say it is one). */
  private readonly reasons = new Map<string, string>();

  constructor(
    private readonly workspaces: readonly string[],
    private readonly list: readonly RunsLaterEntry[] = RUNS_LATER,
  ) {
    this.named = heldNameTest(list);
  }

  /** The folders' times of the launch's walk, which stat'ed every file for links. */
  startFrom(ws: string, folderTimes: Map<string, number>): void {
    this.folderTimes.set(ws, folderTimes);
  }

  /**
   * Takes the state the next `check` compares with; also lists the files with more than one hard
   * link in folders that changed since the last look (a name made there: `ln` by the user, say).
   */
  snapshot(): { linked: string[] } {
    const { files, linked } = this.collect(true, true);
    this.before = files;
    return { linked };
  }

  /** Undoes what appeared or changed since `snapshot`, and says what it did. */
  check(): HeldChange[] {
    const { files: now } = this.collect(false);
    const changes: HeldChange[] = [];
    for (const path of now.keys()) {
      if (this.before.has(path)) continue;
      if (!this.safeToTouch(path)) continue;
      rmSync(path, { recursive: true, force: true });
      changes.push({ path, action: 'removed', why: this.why(path) });
    }
    for (const [path, old] of this.before) {
      const cur = now.get(path);
      if (cur && same(cur, old)) continue;
      if (!old.content || !this.safeToTouch(path)) {
        changes.push({ path, action: 'changed', why: this.why(path) });
        continue;
      }
      rmSync(path, { recursive: true, force: true });
      writeFileSync(path, old.content, { flag: 'wx', mode: old.mode & 0o777 });
      chmodSync(path, old.mode & 0o777);
      changes.push({ path, action: 'restored', why: this.why(path) });
    }
    this.before = changes.length ? this.collect(true).files : withContent(this.before, now);
    return changes;
  }

  private why(path: string): string {
    const known = this.reasons.get(path);
    if (known) return known;
    for (const ws of this.workspaces) {
      const rel = relative(ws, path);
      if (rel.startsWith('..')) continue;
      const parts = rel.split(/[\\/]/);
      const git = parts.indexOf('.git');
      const entry = entryHolding(git > 0 ? parts.slice(git).join('/') : rel, this.list);
      if (entry) return entry.why;
    }
    return 'it runs later outside the sandbox';
  }

  /** Only a path whose folders are what they say (no link swapped in) is removed or written. */
  private safeToTouch(path: string): boolean {
    const ws = this.workspaces.find((w) => !relative(w, path).startsWith('..'));
    if (!ws) return false;
    try {
      return realpathSync(dirname(path)) === join(realpathSync(ws), relative(ws, dirname(path)));
    } catch {
      return false;
    }
  }

  private collect(keep: boolean, links = false): { files: Map<string, FileState>; linked: string[] } {
    const out = new Map<string, FileState>();
    const linked: string[] = [];
    const add = (p: string) => {
      let st: Stats;
      try {
        st = lstatSync(p);
      } catch {
        return;
      }
      const state: FileState = {
        ino: st.ino,
        size: st.size,
        mtimeMs: st.mtimeMs,
        mode: st.mode,
        isFile: st.isFile(),
      };
      if (keep && st.isFile() && st.size <= KEEP_MAX_BYTES) {
        try {
          state.content = readFileSync(p);
        } catch {
          // unreadable: watched, not kept
        }
      }
      out.set(p, state);
    };
    for (const ws of this.workspaces) {
      // Only the walk before a command looks for links, against the folders' times of the last
      // such walk (or the launch's): links to outside cannot be made inside the sandbox (a link
      // across mounts fails), so new ones come from outside, between commands.
      let times = this.folderTimes.get(ws);
      if (!times) this.folderTimes.set(ws, (times = new Map()));
      const scan = links
        ? scanWorkspace(ws, { named: this.named, links: 'changed', folderTimes: times })
        : scanWorkspace(ws, { named: this.named, links: 'none' });
      for (const rel of scan.named) add(join(ws, ...rel.split('/')));
      for (const rel of scan.linked) linked.push(join(ws, ...rel.split('/')));
      const gitDirs = [
        ...scan.repos.map((repo) => join(ws, ...(repo ? repo.split('/') : []), '.git')),
        ...scan.gitDirs.map((dir) => join(ws, ...dir.split('/'))).filter(isGitFolder),
      ];
      for (const git of gitDirs) {
        // Held folders are mounted read-only, in the repositories there were when the shell
        // started; the files git reads that no mount can hold are watched: at the top, a
        // submodule's configuration, and the hooks (a repository made since has no mount).
        const rels = [
          ...list(git),
          ...list(join(git, 'modules')).map((m) => `modules/${m}/config`),
          ...list(join(git, 'hooks'))
            .filter((h) => !h.endsWith('.sample')) // git never runs these
            .map((h) => `hooks/${h}`),
        ];
        // A hooks folder that is a link leads elsewhere: the link itself is watched.
        const hooksLink = isLink(join(git, 'hooks'));
        for (const rel of rels) {
          const entry = entryHolding(`.git/${rel}`, this.list);
          const hook = rel.startsWith('hooks/') || (rel === 'hooks' && hooksLink);
          if (!entry || (entry.pattern.endsWith('/') && !hook)) continue;
          const path = join(git, ...rel.split('/'));
          this.reasons.set(path, entry.why);
          add(path);
        }
      }
    }
    return { files: out, linked };
  }
}

/** A folder git takes for a git folder: `HEAD` with `objects`, or with `commondir` naming another. */
function isGitFolder(dir: string): boolean {
  const kind = (name: string) => {
    try {
      return lstatSync(join(dir, name));
    } catch {
      return undefined;
    }
  };
  return kind('objects')?.isDirectory() === true || kind('commondir') !== undefined;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function same(a: FileState, b: FileState): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.isFile === b.isFile;
}

/** The new state, with the content kept before for files that did not change. */
function withContent(before: Map<string, FileState>, now: Map<string, FileState>): Map<string, FileState> {
  for (const [p, st] of now) st.content = before.get(p)?.content;
  return now;
}

/** The note the command's output ends with. */
export function heldChangesText(changes: readonly HeldChange[]): string {
  if (!changes.length) return '';
  const lines = changes.map((c) => {
    const what =
      c.action === 'removed'
        ? 'Logbook removed it'
        : c.action === 'restored'
          ? 'Logbook put the previous content back'
          : 'it changed and could not be put back';
    return `- ${c.path}: ${what} (${c.why})`;
  });
  return [
    "[The sandbox holds files that run later outside it, in the user's own context. The command wrote some:",
    ...lines,
    'Ask the user to make such a change, or use the file tools, which ask first.]',
  ].join('\n');
}
