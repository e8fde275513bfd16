// The user's choice for actions in doubt after a crash: they started and their result was never
// recorded, so their effect may or may not have happened. Only the user may run them again.
import { shellQuote } from './drive';
import { UsageError } from './exit-codes';

export type InDoubtChoice = 'rerun' | 'skip';

export const IN_DOUBT_OPTIONS = {
  rerun: { type: 'boolean' },
  skip: { type: 'boolean' },
} as const;

/** The one of --rerun and --skip that was given. */
export function inDoubtChoice(values: { rerun?: boolean; skip?: boolean }): InDoubtChoice {
  if (values.rerun === values.skip) {
    throw new UsageError('logbook resolve: give --rerun or --skip (one of them).');
  }
  return values.rerun ? 'rerun' : 'skip';
}

/** How to decide, for messages that stop short of it. */
export function resolveHint(dir: string): string {
  const d = shellQuote(dir);
  return `\`logbook resolve ${d} --rerun\` runs them again, \`logbook resolve ${d} --skip\` tells the agent they were skipped`;
}
