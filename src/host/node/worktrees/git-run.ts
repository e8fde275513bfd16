// Runs git for worktree tasks: arguments as an array (never a shell), output as text, and a failure
// as an error that says which git command failed and what git said.
import { spawnSync } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git args` in `cwd`; never throws for a non-zero exit (the caller decides). */
export function gitTry(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): GitResult {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    // No optional locks: reading the status never rewrites the user's index (its stat cache).
    env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
  });
  if (r.error) throw new Error(`git could not run (${r.error.message}); is git installed?`);
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `git args` in `cwd` and returns its stdout; throws with git's own words on failure. */
export function git(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): string {
  const r = gitTry(cwd, args, env);
  if (r.code !== 0) {
    const said = (r.stderr || r.stdout).trim().split('\n').slice(-4).join(' / ');
    throw new Error(`git ${args[0] ?? ''} failed in ${cwd}: ${said || `exit ${r.code}`}`);
  }
  return r.stdout;
}

/** Lines of output, without empty ones. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}
