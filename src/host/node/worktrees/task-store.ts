// Where worktree tasks live, and the registry of one repository's tasks. Everything is outside the
// user's working tree, under Logbook's data folder (worktrees.dir, by default
// $XDG_DATA_HOME/logbook/worktrees):
//   <root>/<repo-key>/<name>/                 the task's worktree (branch logbook/<name>)
//   <root>/<repo-key>/.tasks/<name>.json      its record (one file per task: parallel CLI
//                                             processes never rewrite each other's)
//   <root>/<repo-key>/.conversations/<name>/  its conversation log, kept when the task is discarded
// A task name never starts with a dot, so no task's folder meets the registry's.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { writeFileDurable } from '../../../core/log/durable-file';
import { parseTaskRecord, type TaskRecord } from '../../../core/worktrees';
import { git } from './git-run';

type Env = Readonly<Record<string, string | undefined>>;

/** The root of every repository's tasks: the setting when given, else the XDG data folder's. */
export function worktreesRoot(configured: string | null | undefined, env: Env): string {
  const dir = configured?.trim();
  if (dir) return dir;
  const data = env.XDG_DATA_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.local', 'share');
  return join(data, 'logbook', 'worktrees');
}

export interface Repository {
  /** The main working tree (where `apply` brings changes). */
  top: string;
  /** The shared .git folder, the same for every worktree of the repository. */
  commonDir: string;
}

/** The repository `dir` is in, by its main working tree; a clear error when there is none. */
export function repositoryAt(dir: string): Repository {
  let commonDir: string;
  try {
    commonDir = realpathSync(git(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir']).trim());
  } catch {
    throw new Error(
      `${dir} is not in a git repository; worktree tasks need one (git init, then a first commit).`,
    );
  }
  // The main working tree is the first one git lists, also when `dir` is a linked worktree.
  const first = /^worktree (.+)$/m.exec(git(dir, ['worktree', 'list', '--porcelain']));
  if (!first) throw new Error(`git lists no working tree for ${dir}.`);
  return { top: first[1]!, commonDir };
}

/** A readable, stable key per repository: its folder's name and a hash of its .git folder's path. */
export function repoKey(repo: Repository): string {
  const name =
    basename(repo.top)
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '') || 'repo';
  const hash = createHash('sha256').update(repo.commonDir).digest('hex').slice(0, 10);
  return `${name.slice(0, 40)}-${hash}`;
}

export class TaskStore {
  readonly dir: string;

  constructor(
    root: string,
    readonly repo: Repository,
  ) {
    this.dir = join(root, repoKey(repo));
  }

  worktreeDir(name: string): string {
    return join(this.dir, name);
  }

  logDir(name: string): string {
    return join(this.dir, '.conversations', name);
  }

  private recordFile(name: string): string {
    return join(this.dir, '.tasks', `${name}.json`);
  }

  has(name: string): boolean {
    return existsSync(this.recordFile(name));
  }

  /** The task's record; throws with the names there are when there is no such task. */
  get(name: string): TaskRecord {
    const file = this.recordFile(name);
    if (!existsSync(file)) {
      const names = this.list().map((t) => t.name);
      const known = names.length > 0 ? `Tasks here: ${names.join(', ')}.` : 'This repository has no tasks.';
      throw new Error(`no task named "${name}" in ${this.repo.top}. ${known}`);
    }
    return parseTaskRecord(readFileSync(file, 'utf8'), file);
  }

  /** Written whole to a temp file, then renamed: a reader never sees half a record. */
  put(record: TaskRecord): void {
    mkdirSync(join(this.dir, '.tasks'), { recursive: true });
    writeFileDurable(this.recordFile(record.name), JSON.stringify(record, null, 2) + '\n');
  }

  /** Removes the record of a task made and undone again in one go (a continued task that failed). */
  remove(name: string): void {
    rmSync(this.recordFile(name), { force: true });
  }

  /** Every task of the repository, oldest first; a damaged record is reported, not skipped silently. */
  list(onDamaged?: (file: string, err: Error) => void): TaskRecord[] {
    const folder = join(this.dir, '.tasks');
    let names: string[];
    try {
      names = readdirSync(folder).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const records: TaskRecord[] = [];
    for (const n of names) {
      const file = join(folder, n);
      try {
        records.push(parseTaskRecord(readFileSync(file, 'utf8'), file));
      } catch (err) {
        onDamaged?.(file, err as Error);
      }
    }
    return records.sort((a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name));
  }
}
