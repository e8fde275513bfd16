/** The scheme of a file as it was at a task's base commit (a read-only document). */
export const TASK_BASE_SCHEME = 'logbook-task-base';
