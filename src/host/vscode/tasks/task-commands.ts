// The editor's worktree tasks past their registration, loaded on first use (a lazy bundle,
// scripts/lazy-bundles.mjs): the Tasks view's rows, its commands (start, review, apply, discard)
// and its refresh, and the worktree of a delegated agent with `isolation: worktree`. A window that
// never shows its tasks never parses them.
export { baseContent, wireTasks } from './task-wiring';
export { continueTaskFrom } from './task-continue';
export { TasksTree } from './tasks-tree';
export { childWorktreeNote, editorChildWorktree } from '../../node/worktrees/editor-tasks';
export { taskConversationPlace, taskConversationRows } from './task-conversation-rows';
