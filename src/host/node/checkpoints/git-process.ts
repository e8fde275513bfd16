// Runs git for the checkpoint store, and only for it: its own GIT_DIR, index and work tree, in an
// environment with nothing of the user's. No GIT_* variable, global or system config, hook,
// fsmonitor or credential helper can run a command or point git at the user's repository.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { devNull } from 'node:os';
import { CheckpointUnavailableError } from '../../../core/checkpoints/types';

export interface GitPaths {
  /** The store's object database and refs (a bare repository of Logbook's own). */
  gitDir: string;
  /** The workspace whose files are recorded. */
  workTree: string;
  /** The index (stat cache) this call reads and writes. */
  indexFile: string;
}

/** Settings on every call: they win over any config file git could still find. */
const SAFE_CONFIG = [
  `core.hooksPath=${devNull}`,
  'core.fsmonitor=false',
  'core.untrackedCache=false',

  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.fileMode=true',
  'core.quotePath=false',
  'core.ignoreCase=false',
  'core.precomposeUnicode=false',
  'core.longPaths=true',
  'core.protectNTFS=false',
  'core.sparseCheckout=false',
  'core.splitIndex=false',
  // Fast zlib: checkpoints are written before every action, read rarely.
  'core.compression=1',
  'core.looseCompression=1',
  'core.bigFileThreshold=512m',
  'gc.auto=0',
  'maintenance.auto=false',
  'index.version=4',
  'advice.detachedHead=false',
  'protocol.allow=never',
  'submodule.recurse=false',
  'diff.renames=false',
  'credential.helper=',
  'user.name=Logbook',
  'user.email=checkpoints@logbook.invalid',
].flatMap((c) => ['-c', c]);

/** The environment git runs in: PATH to find it, and nothing else of the user's. */
export function gitEnvironment(paths: GitPaths): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: paths.gitDir,
    XDG_CONFIG_HOME: paths.gitDir,
    GIT_DIR: paths.gitDir,
    GIT_WORK_TREE: paths.workTree,
    GIT_INDEX_FILE: paths.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: 'Logbook',
    GIT_AUTHOR_EMAIL: 'checkpoints@logbook.invalid',
    GIT_COMMITTER_NAME: 'Logbook',
    GIT_COMMITTER_EMAIL: 'checkpoints@logbook.invalid',
    LC_ALL: 'C',
  };
  // Windows needs these to start processes at all.
  for (const k of ['SystemRoot', 'SYSTEMROOT', 'windir', 'TEMP', 'TMP', 'PATHEXT', 'COMSPEC']) {
    if (process.env[k] !== undefined) env[k] = process.env[k];
  }
  return env;
}

export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

export interface GitRunOptions {
  input?: string | Buffer;
  /** Exit codes that are not failures (e.g. 1 for `rev-parse --verify -q` of a missing ref). */
  okCodes?: readonly number[];
  /** Without the work tree and index (`init` refuses a work tree for a bare repository). */
  bare?: boolean;
  /** More `-c name=value` settings for this call (they win over the defaults). */
  config?: readonly string[];
}

export interface GitResult {
  stdout: Buffer;
  code: number;
}

/** Runs `git <args>` in the store's environment; rejects with the stderr on a failing exit. */
export function runGit(
  paths: GitPaths,
  args: readonly string[],
  opts: GitRunOptions = {},
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const env = gitEnvironment(paths);
    const cwd = opts.bare ? paths.gitDir : paths.workTree;
    if (opts.bare) {
      delete env.GIT_WORK_TREE;
      delete env.GIT_INDEX_FILE;
    }
    const child = spawn('git', [...SAFE_CONFIG, ...(opts.config ?? []).flatMap((c) => ['-c', c]), ...args], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' ? spawnFailure(cwd) : e));
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8').trim();
      if (code === 0 || (code !== null && opts.okCodes?.includes(code))) {
        resolve({ stdout: Buffer.concat(out), code });
      } else {
        reject(new GitError(`git ${args[0]} failed: ${stderr || `exit ${code}`}`, stderr, code));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Spawning fails with ENOENT both when git is missing and when the folder it is to run in is gone
 * (a workspace folder deleted or moved while its conversation was open): say which.
 */
function spawnFailure(cwd: string): CheckpointUnavailableError {
  return existsSync(cwd)
    ? new CheckpointUnavailableError('Checkpoints need git, which is not installed or not on PATH.')
    : new CheckpointUnavailableError(
        `The folder ${cwd} no longer exists (deleted or moved?), so it has no checkpoints to take or restore.`,
      );
}

/** NUL-separated output into its parts (the last, empty one dropped). */
export function splitNul(buf: Buffer): string[] {
  const s = buf.toString('utf8');
  if (!s) return [];
  const parts = s.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}
