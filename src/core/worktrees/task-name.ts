// Names of worktree tasks: short, readable, safe as a folder name and as part of a git branch
// (`logbook/<name>`). A name the user gives is checked; one Logbook makes comes from the task's
// first words and a short id, so two tasks with the same words still differ.

/** Lower-case letters, digits and single dashes; starts with a letter or digit; at most 48 long. */
export const TASK_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,47}$/;

export const TASK_BRANCH_PREFIX = 'logbook/';

export function isTaskName(name: string): boolean {
  return TASK_NAME_PATTERN.test(name);
}

/** Why `name` cannot name a task, or null when it can. */
export function taskNameProblem(name: string): string | null {
  if (isTaskName(name)) return null;
  return (
    `"${name}" is not a task name: use lower-case letters, digits and single dashes, ` +
    'starting with a letter or digit, at most 48 characters (e.g. fix-login-tests).'
  );
}

/** The branch a task works on. */
export function taskBranch(name: string): string {
  return `${TASK_BRANCH_PREFIX}${name}`;
}

/** A name from the task's first words (at most four, 32 characters) and `shortId`. */
export function taskNameFrom(task: string, shortId: string): string {
  const words = task
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // accents off: é is e, not a word break
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
    .slice(0, 4);
  let stem = '';
  for (const w of words) {
    const next = stem === '' ? w : `${stem}-${w}`;
    if (next.length > 32) break;
    stem = next;
  }
  if (stem === '' && words[0]) stem = words[0].slice(0, 32);
  const id =
    shortId
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 8) || '0';
  return stem === '' ? `task-${id}` : `${stem}-${id}`;
}
