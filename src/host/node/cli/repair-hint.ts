// What to do about lost events, in its own module: the CLI's dispatcher says it after any command
// fails on them, and must not load the log's code to say it.
export function repairHint(dir: string): string {
  return (
    'Restore the missing files from a backup, or record the loss and continue without them: ' +
    `logbook repair ${dir} --accept-lost-events`
  );
}
