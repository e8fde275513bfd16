// V8's code cache for the CLI's own bundles. A `logbook` process lives for a fraction of a second,
// and parsing and compiling its command's bundle (hundreds of KB) was a large part of what it
// spent; Node 20 has no built-in compile cache, so the CLI keeps one: each bundle it loads is
// compiled with the bytecode an earlier run of the same command saved, and a run that found none
// (or one V8 turned down) saves it as the process exits successfully, when the functions the
// command ran have been compiled too.
//
// Cached bytecode is code the CLI runs, so the folder it lives in is chosen and checked by
// compile-cache-dir.ts: never where a sandboxed command could write. Each file is named by the
// hash of the bundle's text, Node's version and flags, written atomically, and carries a hash of
// its own content, checked before V8 sees it (V8 checks its header, not its bytes). Anything that
// goes wrong (a missing, corrupt or unwritable cache) only costs the compile it would have saved.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Module } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

export interface CompileCacheStats {
  /** Bundles compiled from cached bytecode. */
  used: number;
  /** Bundles compiled without: no cache yet, or one that was corrupt or that V8 turned down. */
  compiled: number;
  /** Cache files found but not used: a wrong hash, or V8 turned them down. */
  rejected: number;
  /** Cache files written at exit. */
  written: number;
}

export interface CompileCache {
  readonly stats: CompileCacheStats;
  /** Saves what this process compiled without a cache (done by itself as the process exits with 0). */
  save(): void;
  /** Puts Node's own compile back (tests). */
  uninstall(): void;
}

interface CjsModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string, ...rest: unknown[]): unknown;
}

/** The process's main module, as Node's own `require.main` reads. */
const MAIN = typeof require === 'function' ? require.main : undefined;
const MAGIC = Buffer.from('LBCC1\n');
const DIGEST = 32;
/**
 * Old entries beyond this many, or beyond this many bytes in all (an entry of a large command is a
 * few MB), are removed when one is written: earlier builds' bundles, commands not run lately.
 */
const KEEP = { entries: 64, bytes: 64 * 1024 * 1024 };

/**
 * Compiles every CommonJS file under `root` (the folder of the CLI's bundles) through the code
 * cache in `dir`, a folder compile-cache-dir.ts accepted.
 */
export function installCompileCache(opts: {
  root: string;
  dir: string;
  /**
   * What this process does (the command): an entry holds the functions the process that wrote it
   * ran, so `run --help` keeps another entry than `run`, and `show` another than `run` of the same
   * shared bundle.
   */
  variant?: string;
}): CompileCache {
  const mod = Module as unknown as {
    prototype: CjsModule;
    wrap(source: string): string;
    _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
    _cache: unknown;
    _extensions: unknown;
  };
  const original = mod.prototype._compile;
  const root = opts.root.endsWith(path.sep) ? opts.root : opts.root + path.sep;
  const stats: CompileCacheStats = { used: 0, compiled: 0, rejected: 0, written: 0 };
  const unsaved: { file: string; script: vm.Script }[] = [];
  // The cache must match the V8 that reads it (V8 turns down another's, or one made under other
  // V8 flags: that entry is then written again).
  const runtime = [process.version, process.arch, process.versions.v8, opts.variant ?? ''].join('\0');

  mod.prototype._compile = function (this: CjsModule, content: string, filename: string, ...rest: unknown[]) {
    if (!filename.startsWith(root) || !filename.endsWith('.js'))
      return original.call(this, content, filename, ...rest);
    const key = crypto.createHash('sha256').update(runtime).update('\0').update(content).digest('hex');
    const file = path.join(opts.dir, `${key.slice(0, 40)}.bin`);
    const cachedData = readEntry(file);
    if (cachedData === 'corrupt') stats.rejected++;
    const script = new vm.Script(mod.wrap(withoutHashbang(content)), {
      filename,
      ...(cachedData instanceof Buffer ? { cachedData } : {}),
      // Bundles turn `import()` into `require`; any left keeps Node's own loader.
      ...(vm.constants ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
    } as vm.ScriptOptions);
    if (cachedData instanceof Buffer && !script.cachedDataRejected) stats.used++;
    else {
      if (cachedData instanceof Buffer) stats.rejected++;
      stats.compiled++;
      unsaved.push({ file, script });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  };

  function requireFor(m: CjsModule) {
    const require = (id: string) => m.require(id);
    return Object.assign(require, {
      resolve: Object.assign(
        (request: string, options?: unknown) => mod._resolveFilename(request, m, false, options),
        {
          paths: (request: string) =>
            (
              Module as unknown as { _resolveLookupPaths(r: string, p: unknown): unknown }
            )._resolveLookupPaths(request, m),
        },
      ),
      main: MAIN,
      cache: mod._cache,
      extensions: mod._extensions,
    });
  }

  const save = () => {
    for (const { file, script } of unsaved.splice(0)) if (writeEntry(opts.dir, file, script)) stats.written++;
  };
  // Only a process that did its work saves it: one that failed early (a usage error, no model
  // key) compiled a fraction of what the command runs, and an entry once written is kept.
  const saveOnSuccess = (code: number) => {
    if (code === 0) save();
  };
  process.once('exit', saveOnSuccess);
  return {
    stats,
    save,
    uninstall: () => {
      mod.prototype._compile = original;
      process.removeListener('exit', saveOnSuccess);
    },
  };
}

/** A `#!` line is a comment at the very start of a script only: inside the wrapper it would not be. */
function withoutHashbang(content: string): string {
  return content.startsWith('#!') ? `//${content.slice(2)}` : content;
}

/** The bytecode in `file`, undefined when there is none, 'corrupt' when its hash does not match. */
function readEntry(file: string): Buffer | undefined | 'corrupt' {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const head = MAGIC.length + DIGEST;
  if (bytes.length <= head || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return 'corrupt';
  const data = bytes.subarray(head);
  const digest = crypto.createHash('sha256').update(data).digest();
  return digest.equals(bytes.subarray(MAGIC.length, head)) ? data : 'corrupt';
}

/** Writes the script's bytecode to a file of its own, then renames it into place. */
function writeEntry(dir: string, file: string, script: vm.Script): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    const data = script.createCachedData();
    const digest = crypto.createHash('sha256').update(data).digest();
    fs.writeFileSync(tmp, Buffer.concat([MAGIC, digest, data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing was written there either.
    }
    return false;
  }
  pruneOld(dir);
  return true;
}

/** Keeps the newest entries: each build of the CLI adds its own, and earlier builds' go. */
export function pruneOld(dir: string, keep = KEEP): void {
  try {
    const entries = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.bin') || n.endsWith('.tmp'))
      .map((n) => {
        const st = fs.statSync(path.join(dir, n));
        return { file: path.join(dir, n), at: st.mtimeMs, size: st.size };
      })
      .sort((a, b) => b.at - a.at);
    let bytes = 0;
    entries.forEach((entry, i) => {
      bytes += entry.size;
      // The newest one stays whatever its size: it is the one just written.
      if (i > 0 && (i >= keep.entries || bytes > keep.bytes)) fs.rmSync(entry.file, { force: true });
    });
  } catch {
    // Another process pruned at the same time; the next write tries again.
  }
}
