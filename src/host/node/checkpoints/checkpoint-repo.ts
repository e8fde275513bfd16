// The checkpoint store's own git repository, outside the workspace: its object store and refs
// (one chain of checkpoints per conversation, one of after-states), and its index, a stat cache of
// the workspace's files. The user's .git is never read for commands nor written.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CheckpointChange, CheckpointNotHeldError } from '../../../core/checkpoints/types';
import { TMP_SUFFIX, removeStaleTempFilesOnce } from '../../../core/log/durable-file';
import { GitError, runGit, splitNul, type GitPaths } from './git-process';
import { isMultiFolderCheckpoint } from './store-contract';
import { ensureStoreRepository } from './store-init';

const REF_PREFIX = 'refs/logbook/conversations/';
/** Where a store keeps its conversations' refs (loose files, never packed: see readRef). */
export const CHECKPOINT_REFS_DIR = join('git', REF_PREFIX);
const AFTER_REF_PREFIX = 'refs/logbook/after/';
export function refOf(conversationId: string): string {
  return REF_PREFIX + checkedId(conversationId);
}

/** The chain of a conversation's after-states (the files as each file-changing action left them). */
export function afterRefOf(conversationId: string): string {
  return AFTER_REF_PREFIX + checkedId(conversationId);
}

function checkedId(conversationId: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(conversationId) || conversationId.includes('..')) {
    throw new Error(`"${conversationId}" cannot name a conversation's checkpoints.`);
  }
  return conversationId;
}

/** Never recorded: the conversations' own logs when they live in the workspace. */
const ALWAYS_EXCLUDED = ['/.logbook/'];
/** The same, as `ls-files -o -i --directory` names them. */
export const ALWAYS_EXCLUDED_ENTRIES = ['.logbook/'];

export class CheckpointRepo {
  private initialized = false;
  /** The ignored entries the last survey left out, as patterns (unknown before the first). */
  lastLeftOut: readonly string[] | undefined;

  constructor(
    readonly paths: GitPaths,
    readonly storeDir: string,
    readonly workspace: string,
    private readonly exclude: () => readonly string[],
  ) {}

  async diffTrees(from: string, to: string, renames = false): Promise<CheckpointChange[]> {
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

  async treeOf(checkpoint: string): Promise<string> {
    await this.init();
    if (isMultiFolderCheckpoint(checkpoint))
      throw new Error(
        'This checkpoint holds the files of several folders (recorded in a multi-root window): open that workspace again to restore it.',
      );
    if (!/^[0-9a-f]{40,64}$/.test(checkpoint)) throw new Error(`"${checkpoint}" is not a checkpoint id.`);
    // Only the object store is read: the workspace may be gone (a replay of a moved recording).
    const r = await runGit(this.paths, ['rev-parse', '-q', '--verify', `${checkpoint}^{tree}`], {
      okCodes: [1, 128],
      bare: true,
    });
    const tree = r.stdout.toString().trim();
    if (r.code !== 0 || !tree) {
      throw new CheckpointNotHeldError(
        `Checkpoint ${checkpoint.slice(0, 12)} is not in the store ${this.storeDir} (released or never recorded here).`,
      );
    }
    return tree;
  }

  async readRef(ref: string): Promise<string | undefined> {
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
  writeRef(ref: string, commit: string): void {
    const file = join(this.paths.gitDir, ref);
    mkdirSync(dirname(file), { recursive: true });
    // Other conversations' writers put their refs in this folder too: only old temp files go (a
    // leftover one would be taken by git as a ref of its own).
    removeStaleTempFilesOnce(dirname(file), (name) => name.endsWith(TMP_SUFFIX));
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, commit + '\n');
    renameSync(tmp, file);
  }

  /** Entries in the store's index (its header says), i.e. files the last tree holds. */
  indexEntries(): number {
    try {
      const fd = readFileSync(this.paths.indexFile);
      return fd.length >= 12 ? fd.readUInt32BE(8) : 0;
    } catch {
      return 0;
    }
  }

  /** Runs git on the index, retrying while another process holds its lock. */
  async git(
    args: readonly string[],
    input?: string,
    config: readonly string[] = [],
  ): Promise<{ stdout: Buffer }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await runGit(this.paths, args, { ...(input === undefined ? {} : { input }), config });
      } catch (err) {
        if (!(err instanceof GitError) || !lockTaken(err, args) || attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  async init(): Promise<void> {
    if (this.initialized) return;
    await ensureStoreRepository(this.paths);
    this.initialized = true;
  }

  /** Whether the setting adds patterns of its own (else only Logbook's own folder is excluded). */
  hasExcludeSetting(): boolean {
    return this.exclude().some((p) => p.trim() !== '' && !p.trimStart().startsWith('#'));
  }

  /** Where the store keeps the patterns of what it leaves out, as files git reads. */
  excludeFiles(): { excluded: string; ignored: string; exclude: string; overBudget: string } {
    const info = join(this.paths.gitDir, 'info');
    return {
      excluded: join(info, 'excluded'),
      ignored: join(info, 'ignored'),
      exclude: join(info, 'exclude'),
      overBudget: join(info, 'over-budget'),
    };
  }

  /**
   * The store's pattern files: `excluded`, what is never recorded (Logbook's own folder and the
   * setting); `ignored`, the workspace repository's info/exclude (a copy, read as data: held like
   * .gitignore'd files, within the budget); `exclude`, what the listing of files to record leaves
   * out: the excluded and `leftOut` (ignored entries over the budget).
   */
  writeExcludes(leftOut: readonly string[] = []): void {
    const files = this.excludeFiles();
    const excluded = ['# Written by Logbook at each checkpoint.', ...ALWAYS_EXCLUDED, ...this.exclude()];
    let ignored = '';
    const repoExclude = join(this.workspace, '.git', 'info', 'exclude');
    try {
      if (statSync(repoExclude).isFile()) ignored = readFileSync(repoExclude, 'utf8');
    } catch {
      // No repository, or no exclude file.
    }
    writeIfChanged(files.excluded, excluded.join('\n') + '\n');
    writeIfChanged(files.ignored, ignored);
    writeIfChanged(files.exclude, [...excluded, ...leftOut].join('\n') + '\n');
  }
}

/**
 * Whether git failed because another process holds the index's lock. `update-index -q` says
 * nothing then: it exits 128 without a word.
 */
function lockTaken(err: GitError, args: readonly string[]): boolean {
  if (/index\.lock/.test(err.stderr)) return true;
  return args[0] === 'update-index' && args.includes('-q') && err.code === 128 && err.stderr === '';
}

function writeIfChanged(file: string, text: string): void {
  let old: string | undefined;
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    old = undefined;
  }
  if (old !== text) writeFileSync(file, text);
}
