// Workspace checkpoints in a git object store of Logbook's own (one per workspace, outside it): a
// checkpoint is a commit of the workspace's files, chained per conversation under
// refs/logbook/conversations/<id>, so identical files are stored once across checkpoints and
// conversations, and deleting a conversation's ref releases what only it used. Its index is a stat
// cache: a later checkpoint hashes only the files whose stat changed. The user's .git (index,
// refs, HEAD, config, hooks) is never read for commands nor written; see DESIGN.md.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import {
  CHANGES_SHOWN,
  RestoreFailedError,
  type CheckpointChange,
  type CheckpointCoverage,
  type CheckpointRecord,
  type CheckpointRequest,
} from '../../../core/checkpoints/types';
import { type CheckpointLimits, DEFAULT_LIMITS } from './checkpoint-limits';
import { afterRefOf, CheckpointRepo, refOf } from './checkpoint-repo';
import { scanWorkspace } from './workspace-scan';
import { unheldPaths } from './coverage-scan';
import { applyChanges } from './checkpoint-restore';
import { runGit, type GitPaths } from './git-process';
import { binaryAsOneLine, failureReason, splitLines } from './git-text';
import { type RestorePlan, type RestoreResult, type WorkspaceCheckpointStore } from './store-contract';

export type { RestorePlan, RestoreResult } from './store-contract';
export { type CheckpointLimits, DEFAULT_LIMITS } from './checkpoint-limits';

export interface GitCheckpointStoreOptions {
  /** The workspace folder whose files are recorded. */
  workspace: string;
  /** Where this workspace's store lives (created on first use); see `storeDirFor`. */
  storeDir: string;
  /** gitignore patterns left out besides the workspace's own .gitignore files (read at each checkpoint). */
  exclude?: readonly string[] | (() => readonly string[]);
  limits?: Partial<CheckpointLimits>;
}

/** One store per workspace, named by the workspace's real path, under `root`. */
export function storeDirFor(root: string, workspace: string): string {
  let real = resolve(workspace);
  try {
    real = realpathSync.native(real);
  } catch {
    // A workspace that does not exist yet keeps its resolved name.
  }
  return join(root, createHash('sha256').update(real).digest('hex').slice(0, 24));
}

/** Serializes the store's git calls within this process (index.lock guards across processes). */
const queues = new Map<string, Promise<unknown>>();

export class GitCheckpointStore implements WorkspaceCheckpointStore {
  readonly workspace: string;
  readonly storeDir: string;
  readonly limits: CheckpointLimits;
  private readonly paths: GitPaths;
  private readonly repo: CheckpointRepo;
  /** Each ref's commit and its tree, as this object last wrote or read them. */
  private readonly heads = new Map<string, { commit: string; tree: string }>();

  constructor(opts: GitCheckpointStoreOptions) {
    this.workspace = resolve(opts.workspace);
    this.storeDir = resolve(opts.storeDir);
    const exclude = opts.exclude ?? [];
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.paths = {
      gitDir: join(this.storeDir, 'git'),
      workTree: this.workspace,
      indexFile: join(this.storeDir, 'index'),
    };
    this.repo = new CheckpointRepo(
      this.paths,
      this.storeDir,
      this.workspace,
      typeof exclude === 'function' ? exclude : () => exclude,
    );
    const inside = this.storeDir + sep;
    if ((this.workspace + sep).startsWith(inside) || inside.startsWith(this.workspace + sep)) {
      // A store inside the workspace would record itself; one around it would be inside its own tree.
      throw new Error(
        `The checkpoint store ${this.storeDir} must be outside the workspace ${this.workspace}.`,
      );
    }
  }

  /** Where a path of a checkpoint's changes is on disk. */
  absolutePath(path: string): string {
    return join(this.workspace, path);
  }

  /** Records the workspace now, as the next checkpoint of the conversation. */
  record(req: CheckpointRequest): Promise<CheckpointRecord> {
    return this.serialized(() => this.recordNow(req));
  }

  /** What a checkpoint taken now would hold: the workspace but the paths it would leave out. */
  coverage(): Promise<CheckpointCoverage> {
    return this.serialized(async () => ({
      roots: [this.workspace],
      unheld: await unheldPaths(this.repo, this.paths, this.workspace, this.limits),
    }));
  }

  /** What restoring `checkpoint` would change in the workspace now. */
  plan(checkpoint: string): Promise<RestorePlan> {
    return this.serialized(async () => {
      const target = await this.repo.treeOf(checkpoint);
      const { tree } = await scanWorkspace(this.repo, this.limits);
      return { current: tree, target, changes: await this.repo.diffTrees(tree, target) };
    });
  }

  /**
   * What restoring `checkpoint` would change in the files as the checkpoint `state` holds them (a
   * plan against a recorded state instead of the files now: what an action changed, from its
   * after-state, with no scan of the workspace).
   */
  async planFrom(state: string, checkpoint: string): Promise<RestorePlan> {
    const [current, target] = await Promise.all([this.repo.treeOf(state), this.repo.treeOf(checkpoint)]);
    return { current, target, changes: await this.repo.diffTrees(current, target) };
  }

  /**
   * Puts the workspace's files back as `checkpoint` recorded them: writes what differs (content and
   * mode), deletes what it did not hold. Files it never recorded (ignored, excluded, over the size
   * cap) stay as they are. The state before is recorded first, so the restore can be undone.
   */
  restore(checkpoint: string, conversationId: string): Promise<RestoreResult> {
    return this.serialized(async () => {
      const target = await this.repo.treeOf(checkpoint);
      const before = await this.recordNow({ conversationId, reason: 'restore' });
      const changes = await this.repo.diffTrees(await this.repo.treeOf(before.id), target);
      try {
        await applyChanges(this.repo, target, changes);
      } catch (err) {
        throw new RestoreFailedError(
          `The files could not all be put back: ${failureReason(err)}. ` +
            `The files as they were just before are kept in checkpoint ${before.id.slice(0, 12)}: restore it to go back to them.`,
          before,
        );
      }
      return { before, changes };
    });
  }

  /**
   * The changes from checkpoint `from` to `to` (either undefined: the workspace's files now): `changes` by name, and `patch`, a unified diff as git prints it. Every file is
   * compared as text (the store marks all files binary so that nothing converts them); a file with
   * a NUL byte, which git itself would call binary, shows as one "Binary files differ" line.
   */
  diff(
    from: string | undefined,
    to: string | undefined,
  ): Promise<{ changes: CheckpointChange[]; patch: string }> {
    return this.serialized(async () => {
      const now =
        from === undefined || to === undefined ? (await scanWorkspace(this.repo, this.limits)).tree : '';
      const a = from === undefined ? now : await this.repo.treeOf(from);
      const b = to === undefined ? now : await this.repo.treeOf(to);
      const changes = await this.repo.diffTrees(a, b, true);
      if (!changes.length) return { changes, patch: '' };
      const out = await this.repo.git([
        'diff-tree',
        '-r',
        '-p',
        '-M',
        '--text',
        '--no-color',
        '--full-index',
        a,
        b,
      ]);
      return { changes, patch: binaryAsOneLine(out.stdout.toString('utf8')) };
    });
  }

  /**
   * Writes the files `checkpoint` holds into `target` (an empty folder elsewhere), modes and links
   * as recorded, through an index of its own: the workspace and the store's index stay untouched.
   */
  async materialize(checkpoint: string, target: string): Promise<void> {
    const tree = await this.repo.treeOf(checkpoint);
    const indexFile = join(this.storeDir, `materialize-${process.pid}-${Date.now()}.index`);
    const paths: GitPaths = { gitDir: this.paths.gitDir, workTree: resolve(target), indexFile };
    try {
      await runGit(paths, ['read-tree', tree]);
      await runGit(paths, ['checkout-index', '-a', '-f']);
    } finally {
      rmSync(indexFile, { force: true });
    }
  }

  /** A file's bytes as `checkpoint` recorded it; undefined when it did not hold the file. */
  async fileAt(checkpoint: string, path: string): Promise<Buffer | undefined> {
    await this.repo.init();
    const r = await runGit(this.paths, ['cat-file', 'blob', `${checkpoint}:${path}`], { okCodes: [128] });
    return r.code === 0 ? r.stdout : undefined;
  }

  /** The checkpoints still held for a conversation, newest first. */
  async held(conversationId: string): Promise<string[]> {
    if (!existsSync(this.paths.gitDir)) return [];
    const head = await this.repo.readRef(refOf(conversationId));
    if (!head) return [];
    return splitLines((await runGit(this.paths, ['rev-list', '--first-parent', head])).stdout);
  }

  /**
   * Lets go of a conversation's checkpoints (the conversation was deleted). What other
   * conversations' checkpoints share stays; the rest is pruned.
   */
  release(conversationId: string): Promise<void> {
    return this.serialized(async () => {
      if (!existsSync(this.paths.gitDir)) return;
      await this.repo.init();
      await runGit(this.paths, ['update-ref', '-d', refOf(conversationId)]);
      await runGit(this.paths, ['update-ref', '-d', afterRefOf(conversationId)]);
      // Objects younger than an hour stay: a checkpoint in another process may be about to name them.
      await runGit(this.paths, ['prune', '--expire=1.hour.ago']);
    });
  }

  /**
   * Makes `conversationId` hold `checkpoint` too (a fork starts from its parent's checkpoints), and
   * `after`, the newest after-state among the events it copied, with the after-states before it.
   */
  adopt(conversationId: string, checkpoint: string, after?: string): Promise<void> {
    return this.serialized(async () => {
      await this.repo.init();
      for (const [ref, commit] of [
        [refOf(conversationId), checkpoint],
        [afterRefOf(conversationId), after],
      ] as const) {
        if (!commit || (await this.repo.readRef(ref))) continue;
        await runGit(this.paths, ['update-ref', ref, commit]);
      }
    });
  }

  /**
   * The paths that differ between the two states of each pair (checkpoint ids or trees), all pairs
   * in one `diff-tree --stdin`. `missing`: ids the store no longer holds (released), whose pairs
   * could not be compared.
   */
  async changedBetween(
    pairs: readonly { from: string; to: string }[],
  ): Promise<{ paths: Set<string>; missing: string[] }> {
    await this.repo.init();
    const paths = new Set<string>();
    const all = [...new Set(pairs.flatMap((p) => [p.from, p.to]))];
    // Ids come from the log: one that names no object (edited by hand) counts as not held.
    const ids = all.filter((id) => /^[0-9a-f]{40,64}$/.test(id));
    const missing = all.filter((id) => !ids.includes(id));
    if (!ids.length) return { paths, missing };
    // diff-tree --stdin compares two trees on a line (two commit ids would mean commit and parent).
    const check = await runGit(this.paths, ['cat-file', '--batch-check'], {
      input: ids.map((id) => `${id}^{tree}\n`).join(''),
    });
    const trees = new Map<string, string>();
    splitLines(check.stdout).forEach((line, i) => {
      const m = /^([0-9a-f]{40,64}) tree /.exec(line);
      if (m) trees.set(ids[i]!, m[1]!);
      else missing.push(ids[i]!);
    });
    const lines = pairs
      .map((p) => [trees.get(p.from), trees.get(p.to)])
      .filter((t): t is [string, string] => !!t[0] && !!t[1] && t[0] !== t[1])
      .map(([a, b]) => `${a} ${b}`);
    if (!lines.length) return { paths, missing };
    const out = await runGit(
      this.paths,
      ['diff-tree', '--stdin', '-r', '-z', '--name-only', '--no-renames', '--no-commit-id'],
      { input: lines.map((l) => l + '\n').join('') },
    );
    // Each pair's output starts with its input line echoed, then its paths, each NUL-terminated.
    const text = out.stdout.toString('utf8');
    let at = 0;
    let next = 0;
    while (at < text.length) {
      const header = next < lines.length ? lines[next]! + '\n' : undefined;
      if (header && text.startsWith(header, at)) {
        at += header.length;
        next++;
        continue;
      }
      const end = text.indexOf('\0', at);
      if (end < 0) break;
      paths.add(text.slice(at, end));
      at = end + 1;
    }
    return { paths, missing };
  }

  // --- recording ---------------------------------------------------------------------------

  private async recordNow(req: CheckpointRequest): Promise<CheckpointRecord> {
    const started = performance.now();
    const { tree, skipped } = await scanWorkspace(this.repo, this.limits);
    const main = refOf(req.conversationId);
    // Another process may have moved a ref: the cache is used only while it still matches.
    const prev = await this.headAt(main);
    // An after-state goes on a chain of its own (so the checkpoints' chain and what each lists stay
    // as they were), and counts its changes from the checkpoint taken before its action.
    const after = req.reason === 'after';
    const chainRef = after ? afterRefOf(req.conversationId) : main;
    const parent = after ? await this.headAt(chainRef) : prev;
    let id: string;
    let changes: CheckpointChange[] = [];
    let filesChanged: number;
    if (prev && prev.tree === tree) {
      id = prev.commit; // nothing changed: the previous checkpoint again
      filesChanged = 0;
    } else {
      const message = `${req.reason}${req.actionId ? ` ${req.actionId}` : ''}\n`;
      const commitArgs = ['commit-tree', tree, ...(parent ? ['-p', parent.commit] : [])];
      // The commit and the list of changes do not wait for each other.
      const [commit, diff] = await Promise.all([
        runGit(this.paths, commitArgs, { input: message }),
        prev ? this.repo.diffTrees(prev.tree, tree, true) : Promise.resolve(undefined),
      ]);
      id = commit.stdout.toString().trim();
      this.repo.writeRef(chainRef, id);
      this.heads.set(chainRef, { commit: id, tree });
      changes = diff ?? [];
      filesChanged = diff ? diff.length : this.repo.indexEntries();
    }
    return {
      id,
      filesChanged,
      changes: changes.slice(0, CHANGES_SHOWN),
      skipped,
      files: this.repo.indexEntries(),
      ms: Math.round(performance.now() - started),
    };
  }

  /** The commit a ref points at and its tree (cached while the ref still names the same commit). */
  private async headAt(ref: string): Promise<{ commit: string; tree: string } | undefined> {
    const commit = await this.repo.readRef(ref);
    if (!commit) return undefined;
    const known = this.heads.get(ref);
    if (known?.commit === commit) return known;
    const head = { commit, tree: await this.repo.treeOf(commit) };
    this.heads.set(ref, head);
    return head;
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    return serializedOn(this.storeDir, work);
  }
}

/** Runs `work` after what this process already queued on the store at `storeDir`. */
function serializedOn<T>(storeDir: string, work: () => Promise<T>): Promise<T> {
  const prev = queues.get(storeDir) ?? Promise.resolve();
  const next = prev.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(storeDir, settled);
  void settled.then(() => {
    if (queues.get(storeDir) === settled) queues.delete(storeDir);
  });
  return next;
}

/**
 * `release` for the store at `storeDir` whichever workspace it records (the diagnostics' clean-up
 * walks the stores, not the workspaces). Run with the store's index, so what it names stays.
 */
export function releaseFromStore(storeDir: string, conversationId: string): Promise<void> {
  const dir = resolve(storeDir);
  const paths: GitPaths = { gitDir: join(dir, 'git'), workTree: dir, indexFile: join(dir, 'index') };
  return serializedOn(dir, async () => {
    if (!existsSync(join(paths.gitDir, 'HEAD'))) return;
    await runGit(paths, ['update-ref', '-d', refOf(conversationId)]);
    await runGit(paths, ['update-ref', '-d', afterRefOf(conversationId)]);
    await runGit(paths, ['prune', '--expire=1.hour.ago']);
  });
}

export { CHECKPOINT_REFS_DIR } from './checkpoint-repo';
