// `logbook run --worktree [NAME]`: the task runs in a new git worktree of its own. The name is
// optional, so it is read here rather than by parseArgs: `--worktree=NAME`, or `--worktree NAME`
// followed by the task (two arguments after the option); a lone argument is the task.
import { UsageError } from './exit-codes';

export const WORKTREE_OPTIONS = {
  worktree: { type: 'boolean' },
  carry: { type: 'boolean' },
} as const;

/** argv with `--worktree=NAME` turned into `--worktree`, and the name it gave. */
export function splitWorktreeName(argv: readonly string[]): { argv: string[]; name: string | undefined } {
  let name: string | undefined;
  const out: string[] = [];
  for (const [i, a] of argv.entries()) {
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (a.startsWith('--worktree=')) {
      name = a.slice('--worktree='.length);
      out.push('--worktree');
    } else out.push(a);
  }
  return { argv: out, name };
}

/** The task's name (if given) and the positionals left for the task itself. */
export function worktreeArgs(
  argv: readonly string[],
  positionals: readonly string[],
  given: string | undefined,
): { name: string | undefined; positionals: string[] } {
  if (given !== undefined || positionals.length !== 2) return { name: given, positionals: [...positionals] };
  const at = argv.indexOf('--worktree');
  if (at >= 0 && argv[at + 1] === positionals[0])
    return { name: positionals[0], positionals: positionals.slice(1) };
  throw new UsageError(
    'logbook run: give the task name right after --worktree: logbook run --worktree NAME "task".',
  );
}
