// The agent-server's view of the change its agent made in the working folder: the files git
// reports changed against a base on the server (`/api/git/changes`): the commit HEAD was on when
// the conversation started, so what the agent committed there is in the change too, else HEAD
// now (its uncommitted work only); each one's text at the base (`/api/git/diff`) and its bytes now
// (`/api/file/download`). The server's diff trims both texts (a final newline is lost), so the
// file as it is now is read whole; the HEAD text is what the diff gives, its final newline put back.
import { posix } from 'node:path';
import { type AgentServerTarget, call, downloadFile, RemoteError } from './agent-server-api';

/**
 * The server's git statuses; a rename comes from its git endpoints as DELETED (old path) and ADDED
 * (new path), and is made one RENAMED change where its patch names it (remote-change-set.ts).
 */
export type ServerChangeStatus = 'ADDED' | 'UPDATED' | 'DELETED' | 'RENAMED';

export interface ServerChange {
  status: ServerChangeStatus;
  /** Relative to the working folder, `/`-separated, checked to stay inside it. */
  path: string;
  /**
   * The file at the base (the start's commit, or HEAD) as the server's diff gives it (trimmed, a final newline put back); null
   * when it was added, or deleted (the server sends no text for a file that is gone).
   */
  original: string | null;
  /** The file's bytes now on the server; null when deleted. */
  modified: Buffer | null;
  /** Whether the server's file is executable; absent when not known (remote-change-set.ts). */
  executable?: boolean;
  /** RENAMED: the file's path at the base (checked as `path` is). */
  from?: string;
  /** The target of a symlink the server has at `path` (`modified` holds it too): never downloaded. */
  symlink?: string;
  /** DELETED or changed: the path was a symlink at the base. */
  wasSymlink?: boolean;
  /**
   * UPDATED: the path changed kind, a file that became a symlink (`symlink` set) or a symlink that
   * became a file (`wasSymlink` set); `original` is what it was (a file's text, a link's target).
   */
  typeChanged?: boolean;
}

/** One file as `/api/git/changes` lists it (or as its list is read from the patch). */
export interface ListedChange {
  status: unknown;
  path: unknown;
}

const STATUSES: readonly string[] = ['ADDED', 'UPDATED', 'DELETED', 'MOVED'];

/**
 * A path the server names, as a path inside the working folder, or an error: a server could
 * name `../x`, an absolute path or the repository's own `.git`, and applying its change must
 * never write there.
 */
export function safeChangePath(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '' || raw.includes('\0'))
    throw new RemoteError(
      `the agent-server named a changed file that is not a path: ${JSON.stringify(raw)}.`,
    );
  const norm = posix.normalize(raw.replace(/\\/g, '/'));
  const parts = norm.split('/');
  if (posix.isAbsolute(norm) || parts[0] === '..' || parts.some((p) => p.toLowerCase() === '.git'))
    throw new RemoteError(
      `the agent-server named a changed file outside the working folder: ${JSON.stringify(raw)}; nothing was taken.`,
    );
  return norm;
}

/** git's empty tree: the base of a repository with no commit yet, so a first commit is work too. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** A commit id as git writes one (SHA-1 or SHA-256): nothing else is sent back as a ref. */
export const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The commit HEAD is on in `workingDir` on the server (`GET /api/git/commits?limit=1`), the empty
 * tree when it has none yet; undefined when the server cannot say (no such endpoint, an odd
 * answer): the change is then taken against HEAD, as before.
 */
export async function serverHeadCommit(
  target: AgentServerTarget,
  workingDir: string,
): Promise<string | undefined> {
  try {
    const q = new URLSearchParams({ path: workingDir, limit: '1' });
    const page = (await call(target, 'GET', `/api/git/commits?${q}`)) as { commits?: { sha?: unknown }[] };
    if (!Array.isArray(page?.commits)) return undefined;
    if (page.commits.length === 0) return EMPTY_TREE;
    const sha = page.commits[0]?.sha;
    return typeof sha === 'string' && COMMIT_ID.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

/** `/api/git/changes`: the files the server's git reports changed against `ref`. */
export async function listChanges(
  target: AgentServerTarget,
  workingDir: string,
  ref: string,
): Promise<ListedChange[]> {
  const q = new URLSearchParams({ path: workingDir, ref });
  const listed = await call(target, 'GET', `/api/git/changes?${q}`);
  if (!Array.isArray(listed))
    throw new RemoteError('the agent-server answered /api/git/changes with something that is not a list.');
  return listed as ListedChange[];
}

/**
 * Every file the server's git reports changed in `workingDir` against `base` (a commit id, or HEAD
 * when none was recorded), with its text before and after.
 */
export async function serverChanges(
  target: AgentServerTarget,
  workingDir: string,
  base: string = 'HEAD',
  /**
   * Paths the server's patch names as symlinks: their bytes are not asked for (a download follows
   * the link, and fails on one that leads nowhere); their target comes from the patch.
   */
  links: ReadonlySet<string> = new Set(),
  /** The list of changed files when it is known already (read from the patch): not asked for. */
  given?: readonly ListedChange[],
): Promise<ServerChange[]> {
  const ref = COMMIT_ID.test(base) ? base : 'HEAD';
  const listed = given ?? (await listChanges(target, workingDir, ref));
  const out: ServerChange[] = [];
  for (const item of listed) {
    const status = String(item?.status);
    if (!STATUSES.includes(status))
      throw new RemoteError(
        `the agent-server named an unknown change status: ${JSON.stringify(item?.status)}.`,
      );
    const path = safeChangePath(item.path);
    if (status === 'DELETED') {
      out.push({ status, path, original: null, modified: null });
      continue;
    }
    if (links.has(path)) {
      out.push({ status: status === 'ADDED' ? 'ADDED' : 'UPDATED', path, original: null, modified: null });
      continue;
    }
    const onServer = posix.join(workingDir, path);
    let original: string | null = null;
    if (status !== 'ADDED') {
      const d = (await call(
        target,
        'GET',
        `/api/git/diff?${new URLSearchParams({ path: onServer, ref })}`,
      )) as { original?: unknown } | null;
      const text = typeof d?.original === 'string' ? d.original : '';
      original = text === '' ? '' : `${text}\n`;
    }
    const modified = await downloadFile(target, onServer);
    out.push({ status: original === null ? 'ADDED' : 'UPDATED', path, original, modified });
  }
  return out;
}
