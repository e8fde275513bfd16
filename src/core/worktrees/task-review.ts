// A finished task reviewed per hunk before apply: its files go under the editor's inline review as
// a review of their own, named after the task, and each rejected hunk is taken back in the task's
// worktree as a commit on its branch. These are the names and words of that review.

const PREFIX = 'task:';

/** The review's id for a task (conversation ids are UUIDs, so the two never meet). */
export function taskReviewId(name: string): string {
  return `${PREFIX}${name}`;
}

/** The task a review id names, or undefined for a conversation's review. */
export function taskOfReviewId(id: string): string | undefined {
  return id.startsWith(PREFIX) && id.length > PREFIX.length ? id.slice(PREFIX.length) : undefined;
}

/** Subject and body of the commit that takes a rejected change back on the task's branch. */
export function rejectionCommitMessage(
  task: { name: string; branch: string },
  path: string,
  wholeFile: boolean,
  /** Where the decision was taken: the editor's review, or `logbook review`. */
  where = "the editor's review",
): [string, string] {
  const subject = wholeFile
    ? `Logbook review of task ${task.name}: reject every change to ${path}`
    : `Logbook review of task ${task.name}: reject a hunk of ${path}`;
  const body =
    `Rejected in ${where} of ${task.branch} before apply; this commit takes ` +
    (wholeFile ? 'the whole change to the file back.' : 'that hunk back.') +
    '\nIt holds the file as the review left it: what apply brings of it is its accepted change.';
  return [subject, body];
}
