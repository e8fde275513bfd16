// Where a remote conversation's replay starts: the files of the commit the server's HEAD was on
// when it started (remote.json's base_commit), taken from a local clone that has that commit.
// The commit is written into the replay's own copy through a throwaway index; the user's working
// tree, index and refs are not touched.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ReplayRequest } from '../replay/replay-run';
import { REMOTE_ORIGIN_FILE, type RemoteOrigin } from './remote-origin';

/** git's empty tree: the base of a working folder that had no commit when the conversation started. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A full commit id (SHA-1 or SHA-256), nothing git could read as a ref, a range or an option. */
export function isCommitId(s: unknown): s is string {
  return typeof s === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(s);
}

export interface RemoteReplayBase {
  commit: string;
  /** Writes the commit's files into `target` (an empty folder). */
  materialize(target: string): Promise<void>;
}

/**
 * The base commit to replay `dir` from, found in the git repository at `workspace`; an error in
 * words when remote.json records none, records something else, or the repository lacks it.
 */
export async function remoteReplayBase(
  dir: string,
  origin: RemoteOrigin,
  workspace: string,
): Promise<RemoteReplayBase> {
  const commit = origin.base_commit;
  if (!isCommitId(commit)) {
    // readRemoteOrigin drops a base_commit that is not a commit id: say which it was.
    const raw = rawBaseCommit(dir);
    throw new Error(
      raw === undefined
        ? `${dir}/${REMOTE_ORIGIN_FILE} records no base_commit (the commit the server's HEAD was on when the ` +
            'conversation started), so there are no files to replay it on. Conversations started before ' +
            'Logbook recorded it cannot be replayed; fork --at runs one again on the server.'
        : `${dir}/${REMOTE_ORIGIN_FILE}'s base_commit is not a commit id (40 or 64 hex digits); nothing was asked of git.`,
    );
  }
  if (commit === EMPTY_TREE) return { commit, materialize: async () => {} };
  const { repo, prefix } = await gitRepoAt(workspace);
  try {
    await git(repo, ['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    throw new Error(
      `The repository at ${repo} does not have commit ${commit}, the server's HEAD when the conversation ` +
        `started: fetch the branch the server worked on (git fetch REMOTE BRANCH) and replay again, or give ` +
        `--workspace a clone that has it.`,
    );
  }
  // The folder given stands for the server's working folder: the copy is that folder of the commit.
  const tree = prefix ? `${commit}:${prefix}` : commit;
  // (`commit:path^{tree}` would read the suffix as part of the path: ask the object's type.)
  const type = await git(repo, ['cat-file', '-t', tree]).catch(() => '');
  if (type.trim() !== 'tree' && type.trim() !== 'commit') {
    throw new Error(
      `Commit ${commit.slice(0, 12)} has no folder ${prefix}, the folder of ${repo} the replay was asked in: run it ` +
        "in the folder of the clone that is the server's working folder (or give it with --workspace).",
    );
  }
  return { commit, materialize: (target) => checkoutInto(repo, tree, target) };
}

/**
 * What a replay of remote conversation `dir` takes from its base (the CLI's `replay --workspace`
 * and the editor's Replay Conversation): the copy starts as the base commit's files from the clone
 * at `workspace`, the server's working folder stands for the copy's, results compare across agents.
 */
export async function remoteReplayRequest(
  dir: string,
  origin: RemoteOrigin,
  workspace: string,
): Promise<Pick<ReplayRequest, 'recordedWorkspace' | 'start' | 'crossAgent' | 'materialize'>> {
  const base = await remoteReplayBase(dir, origin, workspace);
  return {
    // The server's working folder is the one the remote recording's paths name.
    recordedWorkspace: origin.working_dir,
    start: base.commit,
    crossAgent: true,
    materialize: (_checkpoint, target) => base.materialize(target),
  };
}

function rawBaseCommit(dir: string): unknown {
  try {
    return (JSON.parse(readFileSync(join(dir, REMOTE_ORIGIN_FILE), 'utf8')) as { base_commit?: unknown })
      .base_commit;
  } catch {
    return undefined;
  }
}

/** The repository's top folder, and where `workspace` is in it (no trailing slash; '' at the top). */
async function gitRepoAt(workspace: string): Promise<{ repo: string; prefix: string }> {
  try {
    const [repo = '', prefix = ''] = (
      await git(workspace, ['rev-parse', '--show-toplevel', '--show-prefix'])
    ).split('\n');
    return { repo, prefix: prefix.replace(/\/$/, '') };
  } catch {
    throw new Error(
      `${workspace} is not a git repository: a remote conversation replays on the files of the commit it ` +
        'started from, taken from a clone of the repository the server worked in (--workspace DIR).',
    );
  }
}

/** The tree's files into `target`, through an index of the replay's own (the user's is left as it is). */
async function checkoutInto(repo: string, tree: string, target: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'logbook-replay-index-'));
  const env = { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await git(repo, ['read-tree', tree], env);
    await git(repo, ['checkout-index', '--all', '--force', `--prefix=${target}/`], env);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  // promisify here, not at load: the editor's bundle requires child_process on first use.
  const { stdout } = await promisify(execFile)('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}
