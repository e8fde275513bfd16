// git: reading commands are LOW; history rewrites, forced pushes and discarding work are HIGH;
// everything else changes the repository (MEDIUM).
import { hasOption, operands, shortFlags } from './argv-options';
import { type Finding, high, low, medium } from './risk';
import type { ProgramRule, RuleContext } from './rule-types';
import { cwdRead, outsideRead } from './outside-reads';

const GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);

const READ_ONLY = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'annotate', 'grep', 'describe', 'shortlog', 'rev-parse', 'rev-list',
  'ls-files', 'ls-tree', 'ls-remote', 'cat-file', 'merge-base', 'name-rev', 'check-ignore', 'check-attr',
  'count-objects', 'whatchanged', 'var', 'help', 'version', 'for-each-ref', 'show-ref', 'show-branch',
  'cherry', 'range-diff', 'diff-tree', 'diff-files', 'diff-index', 'verify-commit', 'verify-tag', 'fsck',
]); // prettier-ignore

function isConfigOverride(arg: string): boolean {
  return arg === '-c' || arg === '--config-env' || arg.startsWith('--config-env=');
}

/** Subcommand and its arguments, after global options such as `-C dir` or `--no-pager`. */
function subcommand(args: readonly string[]): { sub: string; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (GLOBAL_WITH_VALUE.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { sub: arg, rest: args.slice(i + 1) };
  }
  return { sub: '', rest: [] };
}

function push(rest: readonly string[]): Finding[] {
  const flags = shortFlags(rest);
  if (flags.has('f') || hasOption(rest, null, 'force', 'force-with-lease', 'force-if-includes', 'mirror')) {
    return [high('force-pushes, which can overwrite history on the remote')];
  }
  if (flags.has('d') || hasOption(rest, null, 'delete', 'prune'))
    return [high('deletes branches or tags on the remote')];
  const refspecs = operands(rest, ['-o', '--push-option', '--repo']).slice(1);
  if (refspecs.some((r) => r.startsWith('+')))
    return [high('force-pushes a refspec (+), overwriting remote history')];
  if (refspecs.some((r) => r.startsWith(':'))) return [high('deletes a branch on the remote')];
  return [medium('pushes commits to a remote')];
}

function checkoutOrRestore(sub: string, rest: readonly string[]): Finding[] {
  const discards =
    sub === 'restore'
      ? !hasOption(rest, 'S', 'staged') || hasOption(rest, 'W', 'worktree')
      : hasOption(rest, 'f', 'force') || rest.includes('--') || rest.includes('.');
  if (discards) return [high(`git ${sub} discards uncommitted changes, which cannot be recovered`)];
  return [medium(`git ${sub} changes the working tree`)];
}

/** Read-only subcommands' options that start a program (`git grep -O cmd`, `ls-remote --upload-pack`). */
function startsProgram(sub: string, rest: readonly string[]): string | undefined {
  if (sub === 'grep' && rest.some((a) => /^(-O|--open-files-in-pager)/.test(a)))
    return '--open-files-in-pager';
  if (sub === 'ls-remote' && rest.some((a) => /^(-u|--upload-pack)/.test(a))) return '--upload-pack';
  if (sub === 'help' && hasOption(rest, 'w', 'web')) return '--web';
  return undefined;
}

/**
 * The folder git finds its repository from: the shell's, moved by each `-C dir`, or `--git-dir`;
 * null when a variable or substitution decides it.
 */
function repositoryDir(globals: readonly string[], ctx: RuleContext): string | null | undefined {
  let dir: string | null | undefined = ctx.cwd === undefined ? ctx.roots[0] : ctx.cwd;
  for (let i = 0; i < globals.length; i++) {
    const arg = globals[i]!;
    const value =
      arg === '-C' || arg === '--git-dir'
        ? globals[++i]
        : arg.startsWith('--git-dir=')
          ? arg.slice(10)
          : undefined;
    if (value === undefined) continue;
    dir = dir === null ? null : (ctx.at(dir ?? null).locate(value)?.path ?? null);
  }
  return dir;
}

/** A repository outside the workspace (`git -C / status`, or the shell's folder after `cd /`). */
function outsideRepository(globals: readonly string[], sub: string, ctx: RuleContext): Finding[] {
  if (NO_REPOSITORY.has(sub)) return [];
  const moved = globals.some((g) => g === '-C' || g === '--git-dir' || g.startsWith('--git-dir='));
  if (!moved) return cwdRead('git reads the repository at', ctx);
  const dir = repositoryDir(globals, ctx);
  return typeof dir === 'string' ? outsideRead(dir, 'git reads the repository at', ctx) : [];
}

/** Subcommands that read no repository where they run. */
const NO_REPOSITORY = new Set(['', 'help', 'version', 'clone', 'init']);

export const git: ProgramRule = (args, env) => {
  if (args.length === 0 || (args.length === 1 && (args[0] === '--version' || args[0] === '--help'))) {
    return [low('git only prints information')];
  }
  const { sub, rest } = subcommand(args);
  const globals = args.slice(0, args.length - rest.length - (sub === '' ? 0 : 1));
  // A repository's own settings (core.fsmonitor, core.pager, a diff driver...) start programs.
  const key = env.ctx.gitConfigRunsPrograms(repositoryDir(globals, env.ctx));
  const configured =
    key === undefined ? [] : [medium(`the repository's git settings start other programs (${key})`)];
  return [...configured, ...outsideRepository(globals, sub, env.ctx), ...subcommandFindings(args, sub, rest)];
};

function subcommandFindings(args: readonly string[], sub: string, rest: readonly string[]): Finding[] {
  if (args.some((a) => /^--exec-path=./.test(a)) || (args.includes('--exec-path') && sub !== ''))
    return [medium('git --exec-path runs git programs from another folder')];
  const program = startsProgram(sub, rest);
  if (program) return [medium(`git ${sub} ${program} starts another program`)];
  // core.pager, core.fsmonitor, alias.*: a setting given on the command line can run any program.
  if (args.slice(0, args.indexOf(sub) === -1 ? args.length : args.indexOf(sub)).some(isConfigOverride))
    return [medium('git -c overrides settings, which can run other programs')];
  if (READ_ONLY.has(sub)) {
    const output = rest.find((a) => a === '--output' || a.startsWith('--output='));
    if (output !== undefined) return [medium(`git ${sub} --output writes a file`)];
    if (sub === 'fsck' && rest.includes('--lost-found'))
      return [medium('git fsck --lost-found writes into .git')];
    return [low(`git ${sub} only reads`)];
  }
  switch (sub) {
    case 'push':
      return push(rest);
    case 'reset':
      return hasOption(rest, null, 'hard', 'merge', 'keep')
        ? [high('git reset --hard discards uncommitted changes, which cannot be recovered')]
        : [medium('git reset moves the branch or unstages changes')];
    case 'clean':
      return shortFlags(rest).has('f') || hasOption(rest, null, 'force')
        ? [high('git clean deletes untracked files, which cannot be recovered')]
        : [low('git clean without -f only previews')];
    case 'checkout':
    case 'restore':
      return checkoutOrRestore(sub, rest);
    case 'filter-branch':
    case 'filter-repo':
      return [high('rewrites the whole history of the repository')];
    case 'update-ref':
      return shortFlags(rest).has('d') ? [high('deletes a ref directly')] : [medium('moves a ref directly')];
    case 'stash':
      if (rest[0] === 'list' || rest[0] === 'show') return [low('git stash only reads')];
      return rest[0] === 'clear' || rest[0] === 'drop'
        ? [high('deletes stashed work')]
        : [medium('git stash changes the working tree')];
    case 'branch':
    case 'tag':
      if (hasOption(rest, 'D') || (hasOption(rest, 'd', 'delete') && hasOption(rest, 'f', 'force'))) {
        return [high(`force-deletes a ${sub}`)];
      }
      return operands(rest).length === 0 && !hasOption(rest, 'd', 'delete', 'move', 'copy', 'set-upstream-to')
        ? [low(`git ${sub} only lists`)]
        : [medium(`git ${sub} creates, moves or deletes ${sub === 'tag' ? 'tags' : 'branches'}`)];
    case 'remote':
      return rest.length === 0 || rest[0] === '-v' || rest[0] === 'show' || rest[0] === 'get-url'
        ? [low('git remote only lists')]
        : [medium('changes git remotes')];
    case 'config':
      if (
        !hasOption(
          rest,
          null,
          'unset',
          'unset-all',
          'add',
          'replace-all',
          'remove-section',
          'rename-section',
          'edit',
        ) &&
        !hasOption(rest, 'e') &&
        (hasOption(rest, 'l', 'list', 'get', 'get-all', 'get-regexp') || operands(rest).length <= 1)
      ) {
        return [low('git config only reads')];
      }
      return hasOption(rest, null, 'global', 'system')
        ? [medium('changes git settings for every repository')]
        : [medium('changes git settings')];
    case 'reflog':
      return rest[0] === 'expire' || rest[0] === 'delete'
        ? [high('deletes reflog entries (the safety net)')]
        : [low('git reflog only reads')];
    case 'gc':
    case 'prune':
      return hasOption(rest, null, 'prune') || sub === 'prune'
        ? [high('prunes unreachable commits for good')]
        : [medium('repacks the repository')];
    case 'worktree':
      return rest[0] === 'list' ? [low('git worktree only lists')] : [medium('changes worktrees')];
    default:
      return [medium(`git ${sub} changes the repository`)];
  }
}
