// The task store the CLI's worktree commands share: the repository of the current folder, under
// the root the settings name (worktrees.dir, LOGBOOK_WORKTREES_DIR).
import { isTaskName } from '../../../core/worktrees/task-name';
import { isDirectory } from './conversation-dir';
import { cliSettings } from './cli-settings';
import type { CliIo } from './io';
import { repositoryAt, TaskStore, worktreesRoot } from '../worktrees/task-store';
import { git } from '../worktrees/git-run';

export function cliTaskStore(command: string, io: CliIo, from = io.cwd): TaskStore {
  const settings = cliSettings(command, io.env, { warn: (line) => io.err(line) });
  return taskStoreFor(settings.get<string | null>('worktrees.dir'), io, from);
}

export function taskStoreFor(configured: string | null, io: CliIo, from = io.cwd): TaskStore {
  if (!isDirectory(from)) throw new Error(`${from} is not a directory.`);
  return new TaskStore(worktreesRoot(configured, io.env), repositoryAt(from));
}

/** The working tree of `dir` (its top folder), where a task starts from and is applied to. */
export function workingTreeOf(dir: string): string {
  return git(dir, ['rev-parse', '--show-toplevel']).trim();
}

/** The log folder of the task `name` of the current folder's repository; undefined when there is none. */
export function taskLog(command: string, io: CliIo, name: string): string | undefined {
  if (!isTaskName(name)) return undefined;
  let store: TaskStore;
  try {
    store = cliTaskStore(command, io);
  } catch {
    return undefined; // not in a repository: the name is a folder that is not there
  }
  return store.has(name) ? store.get(name).log : undefined;
}
