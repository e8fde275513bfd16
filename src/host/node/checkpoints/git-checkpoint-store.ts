// Workspace checkpoints in a git object store of Logbook's own (one per workspace, outside it): a
// checkpoint is a commit of the workspace's files, chained per conversation under
// refs/logbook/conversations/<id>, so identical files are stored once across checkpoints and
// conversations, and deleting a conversation's ref releases what only it used. Its index is a stat
// cache: a later checkpoint hashes only the files whose stat changed. The user's .git (index,
// refs, HEAD, config, hooks) is never read for commands nor written; see DESIGN.md.
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import {
  CHANGES_SHOWN,
  CheckpointUnavailableError,
  RestoreFailedError,
  type CheckpointChange,
  type CheckpointRecord,
  type CheckpointRequest,
  type SkippedFile,
} from '../../../core/checkpoints/types';
import { GitError, runGit, splitNul, type GitPaths } from './git-process';
import {
  isMultiFolderCheckpoint,
  type RestorePlan,
  type RestoreResult,
  type WorkspaceCheckpointStore,
} from './store-contract';

export type { RestorePlan, RestoreResult } from './store-contract';

export interface CheckpointLimits {
  /** Files larger than this are not recorded (and reported as skipped). Default 5 MB. */
  maxFileBytes: number;
  /** A workspace with more files than this is not checkpointed. Default 100,000. */
  maxFiles: number;
  /** A checkpoint that would hash more new bytes than this is not taken. Default 1 GiB. */
  maxNewBytes: number;
}

export const DEFAULT_LIMITS: CheckpointLimits = {
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 100_000,
  maxNewBytes: 1024 * 1024 * 1024,
};

export interface GitCheckpointStoreOptions {
  /** The workspace folder whose files are recorded. */
  workspace: string;
  /** Where this workspace's store lives (created on first use); see `storeDirFor`. */
  storeDir: string;
  /** gitignore patterns left out besides the workspace's own .gitignore files (read at each checkpoint). */
  exclude?: readonly string[] | (() => readonly string[]);
  limits?: Partial<CheckpointLimits>;
}

const REF_PREFIX = 'refs/logbook/conversations/';
/** Where a store keeps its conversations' refs (loose files, never packed: see readRef). */
export const CHECKPOINT_REFS_DIR = join('git', REF_PREFIX);
const AFTER_REF_PREFIX = 'refs/logbook/after/';
/** Never recorded: the conversations' own logs when they live in the workspace. */
const ALWAYS_EXCLUDED = ['/.logbook/'];

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
  private readonly exclude: () => readonly string[];
  private readonly paths: GitPaths;
  private initialized = false;
  /** Each ref's commit and its tree, as this object last wrote or read them. */
  private readonly heads = new Map<string, { commit: string; tree: string }>();

  constructor(opts: GitCheckpointStoreOptions) {
    this.workspace = resolve(opts.workspace);
    this.storeDir = resolve(opts.storeDir);
    const exclude = opts.exclude ?? [];
    this.exclude = typeof exclude === 'function' ? exclude : () => exclude;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.paths = {
      gitDir: join(this.storeDir, 'git'),
      workTree: this.workspace,
      indexFile: join(this.storeDir, 'index'),
    };
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

  /** What restoring `checkpoint` would change in the workspace now. */
  plan(checkpoint: string): Promise<RestorePlan> {
    return this.serialized(async () => {
      const target = await this.treeOf(checkpoint);
      const { tree } = await this.scan();
      return { current: tree, target, changes: await this.diffTrees(tree, target) };
    });
  }

  /**
   * What restoring `checkpoint` would change in the files as the checkpoint `state` holds them (a
   * plan against a recorded state instead of the files now: what an action changed, from its
   * after-state, with no scan of the workspace).
   */
  async planFrom(state: string, checkpoint: string): Promise<RestorePlan> {
    const [current, target] = await Promise.all([this.treeOf(state), this.treeOf(checkpoint)]);
    return { current, target, changes: await this.diffTrees(current, target) };
  }

  /**
   * Puts the workspace's files back as `checkpoint` recorded them: writes what differs (content and
   * mode), deletes what it did not hold. Files it never recorded (ignored, excluded, over the size
   * cap) stay as they are. The state before is recorded first, so the restore can be undone.
   */
  restore(checkpoint: string, conversationId: string): Promise<RestoreResult> {
    return this.serialized(async () => {
      const target = await this.treeOf(checkpoint);
      const before = await this.recordNow({ conversationId, reason: 'restore' });
      const changes = await this.diffTrees(await this.treeOf(before.id), target);
      try {
        await this.apply(target, changes);
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
      const now = from === undefined || to === undefined ? (await this.scan()).tree : '';
      const a = from === undefined ? now : await this.treeOf(from);
      const b = to === undefined ? now : await this.treeOf(to);
      const changes = await this.diffTrees(a, b, true);
      if (!changes.length) return { changes, patch: '' };
      const out = await this.git([
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
    const tree = await this.treeOf(checkpoint);
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
    await this.init();
    const r = await runGit(this.paths, ['cat-file', 'blob', `${checkpoint}:${path}`], { okCodes: [128] });
    return r.code === 0 ? r.stdout : undefined;
  }

  /** The checkpoints still held for a conversation, newest first. */
  async held(conversationId: string): Promise<string[]> {
    if (!existsSync(this.paths.gitDir)) return [];
    const head = await this.readRef(refOf(conversationId));
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
      await this.init();
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
      await this.init();
      for (const [ref, commit] of [
        [refOf(conversationId), checkpoint],
        [afterRefOf(conversationId), after],
      ] as const) {
        if (!commit || (await this.readRef(ref))) continue;
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
    await this.init();
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
    const { tree, skipped } = await this.scan();
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
        prev ? this.diffTrees(prev.tree, tree, true) : Promise.resolve(undefined),
      ]);
      id = commit.stdout.toString().trim();
      this.writeRef(chainRef, id);
      this.heads.set(chainRef, { commit: id, tree });
      changes = diff ?? [];
      filesChanged = diff ? diff.length : this.indexEntries();
    }
    return {
      id,
      filesChanged,
      changes: changes.slice(0, CHANGES_SHOWN),
      skipped,
      files: this.indexEntries(),
      ms: Math.round(performance.now() - started),
    };
  }

  /** The commit a ref points at and its tree (cached while the ref still names the same commit). */
  private async headAt(ref: string): Promise<{ commit: string; tree: string } | undefined> {
    const commit = await this.readRef(ref);
    if (!commit) return undefined;
    const known = this.heads.get(ref);
    if (known?.commit === commit) return known;
    const head = { commit, tree: await this.treeOf(commit) };
    this.heads.set(ref, head);
    return head;
  }

  /**
   * Brings the store's index up to date with the workspace and writes its tree. Only what git
   * lists as new or changed by stat is looked at; nested repositories are walked as folders.
   */
  private async scan(): Promise<{ tree: string; skipped: SkippedFile[] }> {
    await this.init();
    this.writeExcludes();
    const listed = await this.listChanged(this.paths, '');
    const add: string[] = [];
    const drop: string[] = [];
    const skipped: SkippedFile[] = [];
    let newBytes = 0;
    let untracked = 0;
    for (const { path, tracked } of listed) {
      // A folder on the way became a link (or a file): the recorded file is gone from here, and
      // git refuses to add a path "beyond a symbolic link". The link itself is listed on its own.
      if (!this.reachable(path)) {
        if (tracked) drop.push(path);
        continue;
      }
      let st;
      try {
        st = lstatSync(join(this.workspace, path));
      } catch {
        add.push(path); // gone: update-index --remove takes it out
        continue;
      }
      if (st.isDirectory()) {
        if (tracked) drop.push(path); // a recorded file became a folder: its files are listed on their own
        continue;
      }
      if (st.isFile() && st.size > this.limits.maxFileBytes) {
        skipped.push({ path, size: st.size });
        if (tracked) drop.push(path);
        continue;
      }
      if (!tracked) untracked++;
      if (st.isFile()) newBytes += st.size;
      add.push(path);
    }
    const total = this.indexEntries() + untracked;
    if (total > this.limits.maxFiles) {
      throw new CheckpointUnavailableError(
        `The workspace has ${total} files to record, more than checkpoints take (${this.limits.maxFiles}). ` +
          'Add large generated folders to .gitignore or logbook.checkpoints.exclude.',
      );
    }
    if (newBytes > this.limits.maxNewBytes) {
      throw new CheckpointUnavailableError(
        `The workspace has ${formatBytes(newBytes)} of new or changed files to record, more than a checkpoint ` +
          `takes (${formatBytes(this.limits.maxNewBytes)}). Add large generated folders to .gitignore or ` +
          'logbook.checkpoints.exclude.',
      );
    }
    try {
      if (drop.length) await this.git(['update-index', '--force-remove', '-z', '--stdin'], nulJoin(drop));
      // The first checkpoint writes every file: stored without zlib it takes half the time (later
      // ones write few objects, compressed).
      const bulk = this.indexEntries() === 0 ? ['core.looseCompression=0'] : [];
      if (add.length) {
        await this.git(
          ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'],
          nulJoin(add),
          bulk,
        );
      }
    } catch (err) {
      throw new Error(`The workspace's files could not be recorded: ${failureReason(err)}.`);
    }
    const tree = (await this.git(['write-tree'])).stdout.toString().trim();
    skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
    return { tree, skipped };
  }

  /**
   * Paths that are new, changed or gone since the index last saw them. A nested repository (or
   * submodule) shows as one `dir/` entry; its files are listed from its own work tree, so they are
   * recorded as files, never as a link to the other repository.
   */
  private async listChanged(paths: GitPaths, prefix: string): Promise<{ path: string; tracked: boolean }[]> {
    const out: { path: string; tracked: boolean }[] = [];
    const nested = prefix !== '';
    const args = nested
      ? ['ls-files', '-z', '-o', '--exclude-standard']
      : ['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard'];
    const r = await runGit(paths, args);
    for (const entry of splitNul(r.stdout)) {
      const tracked = !nested && entry.startsWith('C ');
      const path = nested ? entry : entry.slice(2);
      if (path.endsWith('/')) {
        // A nested repository: list it with an empty index (every file is "other"); the stat cache
        // of the main index still spares re-hashing its unchanged files.
        const dir = path.slice(0, -1);
        out.push(
          ...(await this.listChanged(
            { ...paths, workTree: join(paths.workTree, dir), indexFile: join(this.storeDir, 'nested-index') },
            `${prefix}${dir}/`,
          )),
        );
        continue;
      }
      out.push({ path: prefix + path, tracked });
    }
    if (!nested) {
      // Files of nested repositories the index holds: new and changed ones came from the walk above;
      // `-m` on the main index already listed the changed and deleted ones.
      return dedupe(out);
    }
    rmSync(join(this.storeDir, 'nested-index'), { force: true });
    return out;
  }

  // --- restoring ---------------------------------------------------------------------------

  private async apply(target: string, changes: readonly CheckpointChange[]): Promise<void> {
    const gone = changes.filter((c) => c.status === 'D').map((c) => c.path);
    const write = changes.filter((c) => c.status !== 'D').map((c) => c.path);
    // checkout-index writes content, mode and links from a scratch index of the target's tree,
    // prepared before any file is touched: a store that cannot do it changes nothing.
    const scratch = { ...this.paths, indexFile: join(this.storeDir, 'restore-index') };
    try {
      if (write.length) await runGit(scratch, ['read-tree', target]);
      // Never through a link: a path behind one is not the file the checkpoint recorded.
      for (const p of gone) if (this.reachable(p)) rmSync(join(this.workspace, p), { force: true });
      this.pruneEmptyDirs(gone);
      if (write.length) {
        for (const p of write) this.clearWay(p);
        await runGit(scratch, ['checkout-index', '-f', '-z', '--stdin'], { input: nulJoin(write) });
      }
    } finally {
      rmSync(scratch.indexFile, { force: true });
    }
  }

  /**
   * Makes room for `path`: a file or link where the target has one of its folders goes (so nothing
   * is written through a link), and so does a folder where the target has the file.
   */
  private clearWay(path: string): void {
    const parts = path.split('/');
    let abs = this.workspace;
    for (const [i, part] of parts.entries()) {
      abs = join(abs, part);
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        return; // missing: checkout-index creates the rest
      }
      const last = i === parts.length - 1;
      if (last ? st.isDirectory() : !st.isDirectory()) {
        rmSync(abs, { recursive: true, force: true });
        return;
      }
    }
  }

  /** True when `path` leads to where it says: no folder on the way is a link or a file. */
  private reachable(path: string): boolean {
    const parts = path.split('/');
    let abs = this.workspace;
    for (const part of parts.slice(0, -1)) {
      abs = join(abs, part);
      try {
        if (!lstatSync(abs).isDirectory()) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  /** Folders a restore emptied go too, as they would with the files' deletion by git. */
  private pruneEmptyDirs(deleted: readonly string[]): void {
    const dirs = new Set<string>();
    for (const p of deleted) {
      for (let d = dirname(p); d !== '.' && d !== ''; d = dirname(d)) dirs.add(d);
    }
    for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(this.workspace, d));
      } catch {
        // Not empty (or not there): stays.
      }
    }
  }

  // --- git helpers ---------------------------------------------------------------------------

  private async diffTrees(from: string, to: string, renames = false): Promise<CheckpointChange[]> {
    const args = [
      'diff-tree',
      '-r',
      '-z',
      '--name-status',
      ...(renames ? ['-M'] : ['--no-renames']),
      from,
      to,
    ];
    const parts = splitNul((await this.git(args)).stdout);
    const out: CheckpointChange[] = [];
    for (let i = 0; i < parts.length;) {
      const status = parts[i++]!;
      const kind = status[0] as CheckpointChange['status'];
      if (kind === 'R') {
        const fromPath = parts[i++]!;
        out.push({ status: 'R', path: parts[i++]!, from: fromPath });
      } else {
        out.push({ status: kind === 'A' || kind === 'D' || kind === 'T' ? kind : 'M', path: parts[i++]! });
      }
    }
    return out;
  }

  private async treeOf(checkpoint: string): Promise<string> {
    await this.init();
    if (isMultiFolderCheckpoint(checkpoint))
      throw new Error(
        'This checkpoint holds the files of several folders (recorded in a multi-root window): open that workspace again to restore it.',
      );
    if (!/^[0-9a-f]{40,64}$/.test(checkpoint)) throw new Error(`"${checkpoint}" is not a checkpoint id.`);
    const r = await runGit(this.paths, ['rev-parse', '-q', '--verify', `${checkpoint}^{tree}`], {
      okCodes: [1, 128],
    });
    const tree = r.stdout.toString().trim();
    if (r.code !== 0 || !tree) {
      throw new Error(
        `Checkpoint ${checkpoint.slice(0, 12)} is not in the store ${this.storeDir} (released or never recorded here).`,
      );
    }
    return tree;
  }

  private async readRef(ref: string): Promise<string | undefined> {
    // Refs are never packed here (no gc): the loose file is the ref; git only when it is not there.
    try {
      const loose = readFileSync(join(this.paths.gitDir, ref), 'utf8').trim();
      if (/^[0-9a-f]{40,64}$/.test(loose)) return loose;
    } catch {
      if (!existsSync(join(this.paths.gitDir, 'packed-refs'))) return undefined;
    }
    const r = await runGit(this.paths, ['rev-parse', '-q', '--verify', ref], { okCodes: [1] });
    return r.code === 0 ? r.stdout.toString().trim() : undefined;
  }

  /**
   * Points a conversation's ref at `commit`. Written as a loose ref file (temp file, rename):
   * one conversation is recorded by one process at a time (its log's lock), so no other writer races
   * this ref, and it saves starting git once per checkpoint.
   */
  private writeRef(ref: string, commit: string): void {
    const file = join(this.paths.gitDir, ref);
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, commit + '\n');
    renameSync(tmp, file);
  }

  /** Entries in the store's index (its header says), i.e. files the last tree holds. */
  private indexEntries(): number {
    try {
      const fd = readFileSync(this.paths.indexFile);
      return fd.length >= 12 ? fd.readUInt32BE(8) : 0;
    } catch {
      return 0;
    }
  }

  /** Runs git on the index, retrying while another process holds its lock. */
  private async git(
    args: readonly string[],
    input?: string,
    config: readonly string[] = [],
  ): Promise<{ stdout: Buffer }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await runGit(this.paths, args, { ...(input === undefined ? {} : { input }), config });
      } catch (err) {
        if (!(err instanceof GitError) || !/index\.lock/.test(err.stderr) || attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  private async init(): Promise<void> {
    if (this.initialized) return;
    if (!existsSync(join(this.paths.gitDir, 'HEAD'))) {
      mkdirSync(this.paths.gitDir, { recursive: true });
      await runGit(this.paths, ['init', '-q', '--bare', this.paths.gitDir], { bare: true });
      await runGit(this.paths, ['config', 'core.bare', 'false'], { bare: true });
      mkdirSync(join(this.paths.gitDir, 'info'), { recursive: true });
      // Byte for byte: no end-of-line conversion, filter or encoding from the workspace's .gitattributes.
      writeFileSync(
        join(this.paths.gitDir, 'info', 'attributes'),
        '* -text -filter -ident -working-tree-encoding -diff -merge\n',
      );
    }
    this.initialized = true;
  }

  /** The store's exclude file: Logbook's own folder, the setting, and the workspace repo's info/exclude. */
  private writeExcludes(): void {
    const lines = ['# Written by Logbook at each checkpoint.', ...ALWAYS_EXCLUDED, ...this.exclude()];
    const repoExclude = join(this.workspace, '.git', 'info', 'exclude');
    try {
      if (statSync(repoExclude).isFile()) lines.push(readFileSync(repoExclude, 'utf8'));
    } catch {
      // No repository, or no exclude file.
    }
    const file = join(this.paths.gitDir, 'info', 'exclude');
    const text = lines.join('\n') + '\n';
    let old: string | undefined;
    try {
      old = readFileSync(file, 'utf8');
    } catch {
      old = undefined;
    }
    if (old !== text) writeFileSync(file, text);
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

function refOf(conversationId: string): string {
  return REF_PREFIX + checkedId(conversationId);
}

/** The chain of a conversation's after-states (the files as each file-changing action left them). */
function afterRefOf(conversationId: string): string {
  return AFTER_REF_PREFIX + checkedId(conversationId);
}

function checkedId(conversationId: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(conversationId) || conversationId.includes('..')) {
    throw new Error(`"${conversationId}" cannot name a conversation's checkpoints.`);
  }
  return conversationId;
}

function nulJoin(paths: readonly string[]): string {
  return paths.map((p) => p + '\0').join('');
}

function splitLines(buf: Buffer): string[] {
  return buf
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
}

function dedupe(list: { path: string; tracked: boolean }[]): { path: string; tracked: boolean }[] {
  const seen = new Map<string, { path: string; tracked: boolean }>();
  for (const e of list) {
    const had = seen.get(e.path);
    seen.set(e.path, { path: e.path, tracked: e.tracked || (had?.tracked ?? false) });
  }
  return [...seen.values()];
}

/** Each file section of a patch whose text has a NUL byte, cut to its header and one line. */
function binaryAsOneLine(patch: string): string {
  const sections = patch.split(/^(?=diff --git )/m);
  return sections
    .map((sec) => {
      if (!sec.includes('\0')) return sec;
      const head = sec
        .split('\n')
        .filter(
          (l) =>
            /^(diff --git|old mode|new mode|deleted file|new file|similarity|rename|index) /.test(l) ||
            /^(rename from|rename to)/.test(l),
        );
      const name = /^diff --git a\/(.*) b\/(.*)$/.exec(sec.split('\n')[0] ?? '');
      return [...head, `Binary files a/${name?.[1] ?? '?'} and b/${name?.[2] ?? '?'} differ`, ''].join('\n');
    })
    .join('');
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}

/**
 * What went wrong, in words: git's own complaint without its `error:` / `fatal:` prefixes and
 * repetitions (`'src/a.txt' is beyond a symbolic link` says which path and why).
 */
export function failureReason(err: unknown): string {
  if (!(err instanceof GitError))
    return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
  const lines = err.stderr
    .split('\n')
    .map((l) => l.replace(/^(error|fatal|warning): /, '').trim())
    .filter((l) => l !== '');
  const beyond = lines.map((l) => /^'(.+)' is beyond a symbolic link$/.exec(l)).find((m) => m);
  if (beyond) return `a folder on the way to ${beyond[1]} is now a symbolic link`;
  return lines[0] ?? `git exited with ${err.code ?? 'a signal'}`;
}
