// The checkpoint store of a whole workspace. A window with one folder has one GitCheckpointStore; a
// multi-root window has one per folder, behind MultiFolderCheckpointStore: a checkpoint is then the
// checkpoints of every folder taken together, under one id, and each path names its folder
// (`<folder name>/<path in it>`, as VS Code names files of a multi-root workspace).
import { isAbsolute, join } from 'node:path';
import {
  CheckpointUnavailableError,
  RestoreFailedError,
  type CheckpointChange,
  type CheckpointCoverage,
  type CheckpointRecord,
  type CheckpointRequest,
  type SkippedFile,
} from '../../../core/checkpoints/types';
import type { GitCheckpointStore } from './git-checkpoint-store';
import {
  MULTI_PREFIX,
  type RestorePlan,
  type RestoreResult,
  type WorkspaceCheckpointStore,
} from './store-contract';
import { WordedError } from '../../../core/text/l10n';

export { isMultiFolderCheckpoint, type WorkspaceCheckpointStore } from './store-contract';

/** A folder of a multi-root workspace: its name in paths, and its store. */
export interface FolderStore {
  name: string;
  store: GitCheckpointStore;
}

/**
 * A multi-root workspace's checkpoints. Ids are `multi:` + base64url of `[[folder name, id], ...]`;
 * an id without the prefix (recorded while the window had one folder) is the first folder's.
 */
export class MultiFolderCheckpointStore implements WorkspaceCheckpointStore {
  private readonly folders: FolderStore[];
  /** The newest checkpoint of all folders this store took. */
  private latest: string | undefined;

  constructor(folders: readonly FolderStore[]) {
    if (folders.length === 0) throw new Error('A workspace checkpoint store needs a folder.');
    const names = new Set<string>();
    this.folders = folders.map((f) => {
      // A name is the first segment of a path: no slashes, and each folder's its own.
      let name = f.name.replace(/[\\/]/g, '_') || 'folder';
      for (let n = 2; names.has(name); n++) name = `${f.name.replace(/[\\/]/g, '_')} (${n})`;
      names.add(name);
      return { name, store: f.store };
    });
  }

  get workspace(): string {
    return this.folders[0]!.store.workspace;
  }

  absolutePath(path: string): string {
    if (isAbsolute(path)) return path;
    const { folder, rest } = this.split(path);
    return join(folder.store.workspace, rest);
  }

  async record(req: CheckpointRequest): Promise<CheckpointRecord> {
    const started = Date.now();
    const recs: CheckpointRecord[] = [];
    // One folder after the other: each is a few git processes, and the cores are shared.
    for (const f of this.folders) {
      try {
        recs.push(await f.store.record(req));
      } catch (err) {
        if (err instanceof CheckpointUnavailableError)
          throw new CheckpointUnavailableError(`Folder "${f.name}": ${err.message}`);
        throw err;
      }
    }
    const id = encode(this.folders.map((f, i) => [f.name, recs[i]!.id]));
    if (req.reason !== 'after') this.latest = id;
    return {
      id,
      filesChanged: sum(recs.map((r) => r.filesChanged)),
      changes: recs.flatMap((r, i) => r.changes.map((c) => this.named(this.folders[i]!, c))),
      skipped: recs.flatMap((r, i) =>
        r.skipped.map((s): SkippedFile => ({ ...s, path: `${this.folders[i]!.name}/${s.path}` })),
      ),
      files: sum(recs.map((r) => r.files)),
      ms: Date.now() - started,
    };
  }

  /** Every folder's coverage; null when any folder cannot be checkpointed (its files cannot be undone). */
  async coverage(): Promise<CheckpointCoverage | null> {
    const roots: string[] = [];
    const unheld: CheckpointCoverage['unheld'][number][] = [];
    for (const f of this.folders) {
      const c = await f.store.coverage();
      if (!c) return null;
      roots.push(...c.roots);
      unheld.push(...c.unheld);
    }
    return { roots, unheld, ...(this.latest ? { latest: this.latest } : {}) };
  }

  async plan(checkpoint: string): Promise<RestorePlan> {
    return this.merged(checkpoint, (f, id) => f.store.plan(id));
  }

  async planFrom(state: string, checkpoint: string): Promise<RestorePlan> {
    const states = this.parts(state);
    return this.merged(checkpoint, (f, id) => {
      const from = states.get(f.name);
      if (!from)
        throw new WordedError((l10n) => l10n.t('The recorded state holds no files of folder "{0}".', f.name));
      return f.store.planFrom(from, id);
    });
  }

  async restore(checkpoint: string, conversationId: string): Promise<RestoreResult> {
    const parts = this.openParts(checkpoint);
    const started = Date.now();
    const results: { f: FolderStore; r: RestoreResult }[] = [];
    let failed: RestoreFailedError | undefined;
    for (const f of this.folders) {
      const id = parts.get(f.name);
      // A folder added after the checkpoint, or one after a folder whose restore failed: its
      // files are recorded (for undo) and left as they are.
      const record = async () => ({
        before: await f.store.record({ conversationId, reason: 'restore' }),
        changes: [],
      });
      let r: RestoreResult;
      try {
        r = id && !failed ? await f.store.restore(id, conversationId) : await record();
      } catch (err) {
        if (!(err instanceof RestoreFailedError)) throw err;
        failed = err;
        r = { before: err.before, changes: [] };
      }
      results.push({ f, r });
    }
    const result = this.mergedRestore(results, started);
    this.latest = result.before.id;
    if (failed) {
      throw new RestoreFailedError(
        failed.message.replace(
          /checkpoint [0-9a-f]{12}/,
          `the checkpoint of all folders recorded before the restore`,
        ),
        result.before,
      );
    }
    return result;
  }

  private mergedRestore(
    results: readonly { f: FolderStore; r: RestoreResult }[],
    started: number,
  ): RestoreResult {
    const befores = results.map(({ r }) => r.before);
    return {
      before: {
        id: encode(results.map(({ f, r }) => [f.name, r.before.id])),
        filesChanged: sum(befores.map((b) => b.filesChanged)),
        changes: results.flatMap(({ f, r }) => r.before.changes.map((c) => this.named(f, c))),
        skipped: results.flatMap(({ f, r }) =>
          r.before.skipped.map((s) => ({ ...s, path: `${f.name}/${s.path}` })),
        ),
        files: sum(befores.map((b) => b.files)),
        ms: Date.now() - started,
      },
      changes: results.flatMap(({ f, r }) => r.changes.map((c) => this.named(f, c))),
    };
  }

  async fileAt(checkpoint: string, path: string): Promise<Buffer | undefined> {
    const { folder, rest } = this.split(path);
    const id = this.parts(checkpoint).get(folder.name);
    return id ? folder.store.fileAt(id, rest) : undefined;
  }

  async held(conversationId: string): Promise<string[]> {
    // Per folder, newest first; the counts of the folders together.
    const lists = await Promise.all(this.folders.map((f) => f.store.held(conversationId)));
    return lists.flat();
  }

  async release(conversationId: string): Promise<void> {
    for (const f of this.folders) await f.store.release(conversationId);
  }

  async adopt(conversationId: string, checkpoint: string, after?: string): Promise<void> {
    const ids = this.parts(checkpoint);
    const afters = after ? this.parts(after) : new Map<string, string>();
    for (const f of this.folders) {
      const id = ids.get(f.name);
      if (id) await f.store.adopt(conversationId, id, afters.get(f.name));
    }
  }

  async changedBetween(
    pairs: readonly { from: string; to: string }[],
  ): Promise<{ paths: Set<string>; missing: string[] }> {
    const split = pairs.map((p) => ({ from: this.parts(p.from), to: this.parts(p.to), p }));
    const paths = new Set<string>();
    const missing: string[] = [];
    for (const f of this.folders) {
      const own: { from: string; to: string }[] = [];
      for (const { from, to, p } of split) {
        const a = from.get(f.name);
        const b = to.get(f.name);
        if (a && b) own.push({ from: a, to: b });
        else if (a || b) missing.push(a ? p.to : p.from); // the folder was added or removed between them
      }
      if (!own.length) continue;
      const r = await f.store.changedBetween(own);
      for (const path of r.paths) paths.add(`${f.name}/${path}`);
      missing.push(...r.missing);
    }
    return { paths, missing: [...new Set(missing)] };
  }

  /** Each folder's id in a checkpoint id of this workspace. */
  private parts(id: string): Map<string, string> {
    if (!id.startsWith(MULTI_PREFIX)) return new Map([[this.folders[0]!.name, id]]);
    let pairs: unknown;
    try {
      pairs = JSON.parse(Buffer.from(id.slice(MULTI_PREFIX.length), 'base64url').toString('utf8'));
    } catch {
      throw new Error(`"${id.slice(0, 40)}…" is not a checkpoint of this workspace.`);
    }
    if (
      !Array.isArray(pairs) ||
      !pairs.every((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string')
    )
      throw new Error(`"${id.slice(0, 40)}…" is not a checkpoint of this workspace.`);
    return new Map(pairs as [string, string][]);
  }

  /**
   * The parts of a checkpoint to restore. One that holds a folder this window does not have open is
   * refused whole: restoring the other folders alone would leave the workspace in no state it was in.
   */
  private openParts(id: string): Map<string, string> {
    const parts = this.parts(id);
    const closed = [...parts.keys()].filter((name) => !this.folders.some((f) => f.name === name));
    if (closed.length)
      throw new Error(
        `This checkpoint also holds the files of ${closed.map((n) => `"${n}"`).join(', ')}, not open in this window: add ${closed.length === 1 ? 'that folder' : 'those folders'} to the workspace again to restore it.`,
      );
    return parts;
  }

  /** The changes of every folder the checkpoint holds, named by folder. */
  private async merged(
    checkpoint: string,
    plan: (f: FolderStore, id: string) => Promise<RestorePlan>,
  ): Promise<RestorePlan> {
    const parts = this.openParts(checkpoint);
    const current: [string, string][] = [];
    const target: [string, string][] = [];
    const changes: CheckpointChange[] = [];
    for (const f of this.folders) {
      const id = parts.get(f.name);
      if (!id) continue; // added after the checkpoint: a restore leaves it as it is
      const p = await plan(f, id);
      current.push([f.name, p.current]);
      target.push([f.name, p.target]);
      changes.push(...p.changes.map((c) => this.named(f, c)));
    }
    return { current: encode(current), target: encode(target), changes };
  }

  private named(f: FolderStore, c: CheckpointChange): CheckpointChange {
    return {
      ...c,
      path: `${f.name}/${c.path}`,
      ...(c.from !== undefined ? { from: `${f.name}/${c.from}` } : {}),
    };
  }

  private split(path: string): { folder: FolderStore; rest: string } {
    const at = path.indexOf('/');
    const folder = at > 0 ? this.folders.find((f) => f.name === path.slice(0, at)) : undefined;
    if (!folder) throw new WordedError((l10n) => l10n.t('{0} is in no folder of this workspace.', path));
    return { folder, rest: path.slice(at + 1) };
  }
}

function encode(pairs: readonly (readonly [string, string])[]): string {
  return MULTI_PREFIX + Buffer.from(JSON.stringify(pairs), 'utf8').toString('base64url');
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
