// What the editor's worktree tasks need of the Node side, in one module the extension loads on
// first use (a lazy bundle, scripts/lazy-bundles.mjs): a window that never shows its tasks never
// parses the task store, git runs, the CLI's settings or a log's state.
import { openReadOnly } from '../cli/conversation-dir';
import { cliSettings } from '../cli/cli-settings';
import { checkpointStore } from '../cli/checkpoint-env';
import type { TaskRecord } from '../../../core/worktrees';
import { applyObstacle, applyTask, commitPending } from './apply-task';
import { commitRejection } from './review-commit';
import { discardTask } from './discard-task';
import { git, gitTry, lines } from './git-run';
import { type TaskFactsReport, taskFacts } from './task-facts';
import { repositoryAt, TaskStore, worktreesRoot } from './task-store';
import { type TaskConversation, taskConversation } from './task-conversations';
import { type ChildWorktree, childWorktree, childWorktreeNote } from '../agents/child-worktree';

type Env = Readonly<Record<string, string | undefined>>;

export {
  applyObstacle,
  applyTask,
  childWorktreeNote,
  commitPending,
  commitRejection,
  discardTask,
  gitTry,
  lines,
  TaskStore,
};
export type { ChildWorktree, TaskConversation };
export { createTask } from './create-task';
export { checkpointsToCopy, createContinuedTask, filesAt } from './fork-task';
export { copyCheckpoints } from '../checkpoints/checkpoint-copy';
export {
  acceptDecision,
  applyDecision,
  discardDecision,
  recordTaskDecisions,
  rejectDecision,
} from './task-decision-log';
export { runSetupSteps } from './setup-run';
export { acceptSetup, repositorySetup, setupAccepted } from './setup-source';
export { newSessionInfo, readSessionInfo, writeSessionInfo } from '../cli/session-file';

export interface TaskPlace {
  store: TaskStore;
  /** The user's own setup command for new worktrees (`worktrees.setup` of the CLI's config or env). */
  setup: string | null;
  /** The root of every repository's tasks (passed on to the CLI a task runs in). */
  root: string;
  /** The working tree of the folder: where a task starts from and is applied to. */
  workingTree: string;
}

/** The tasks of `folder`'s repository, under the root the CLI uses (worktrees.dir, its env). */
export function taskPlaceOf(folder: string, env: Env): TaskPlace {
  const settings = cliSettings('tasks', env);
  const root = worktreesRoot(settings.get<string | null>('worktrees.dir'), env);
  const store = new TaskStore(root, repositoryAt(folder));
  const setup = settings.get<string | null>('worktrees.setup')?.trim() || null;
  return { store, root, setup, workingTree: git(folder, ['rev-parse', '--show-toplevel']).trim() };
}

/** The checkpoints `logbook run` keeps of `worktree` (a task run at a terminal), as the CLI's settings place them. */
export function cliCheckpointsOf(
  worktree: string,
  env: Env,
): { storeDir: string; materialize(c: string, to: string): Promise<void> } {
  return checkpointStore(worktree, cliSettings('fork', env), env);
}

export function factsOf(record: TaskRecord): Promise<TaskFactsReport> {
  return taskFacts(record, openReadOnly);
}

/** The task's conversation as the Conversations view lists it; undefined when it has none yet. */
export function conversationOf(record: TaskRecord): Promise<TaskConversation | undefined> {
  return taskConversation(record, openReadOnly);
}

/**
 * A delegated agent's own worktree (`isolation: worktree`), made as the CLI makes it
 * (child-worktree.ts), under the root the CLI uses: `<worktrees.dir>/<repo-key>/.agents/`.
 */
export function editorChildWorktree(
  workspace: string,
  parentId: string,
  agentName: string,
  childId: string,
  env: Env,
): ChildWorktree {
  const root = worktreesRoot(cliSettings('tasks', env).get<string | null>('worktrees.dir'), env);
  return childWorktree(workspace, parentId, agentName, childId, root);
}
