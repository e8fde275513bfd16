// The editor's commands on worktree tasks and the Tasks view's rows, loaded on first use (a lazy bundle,
// scripts/lazy-bundles.mjs): a window that never starts, reviews, applies or discards a task
// never parses them (the view's rows load when it is first shown).
export { applyTaskHere, discardTaskHere } from './task-actions';
export { reviewTask } from './task-review';
export { startTaskInWorktree } from './task-start';
export { TasksTree } from './tasks-tree';
export { taskPlace } from './task-place';
export { gitTry } from '../../node/worktrees/git-run';
