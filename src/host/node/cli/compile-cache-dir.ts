// Where the CLI keeps V8's code cache (compile-cache.ts): $XDG_CACHE_HOME/logbook/compile-cache
// (~/.cache/logbook/compile-cache by default). What is there runs as the CLI's own code, outside
// any sandbox, so the folder is used only where no sandboxed command can write: never in a
// temporary folder (every user's, and what a sandbox replaces with its own), never in the folder
// the CLI runs in or a workspace or writable folder it is given (commands write there); the sandbox hides it as it
// hides Logbook's other folders (secret-locations.ts). It must be the user's own and closed to
// others. LOGBOOK_NO_COMPILE_CACHE=1 turns the cache off.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** The folder the cache would use, whether or not it is usable. */
export function compileCacheDir(env: Env): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec ignores a relative value.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'logbook', 'compile-cache');
  const home = env.HOME || os.homedir();
  return home ? path.join(home, '.cache', 'logbook', 'compile-cache') : undefined;
}

/** Folders a sandboxed command, or another user, can write: the cache is never inside one. */
function unsafeRoots(workspaces: readonly string[]): string[] {
  return ['/tmp', '/var/tmp', '/dev/shm', os.tmpdir(), ...workspaces];
}

/**
 * The cache's folder, made (mode 0700) when missing, or undefined when the cache is off or the
 * folder is not safe: inside a temporary folder or one of `workspaces` (by real paths, so a link
 * does not hide it), not the user's own, or writable by others.
 */
export function usableCompileCacheDir(env: Env, workspaces: readonly string[]): string | undefined {
  if (env.LOGBOOK_NO_COMPILE_CACHE && env.LOGBOOK_NO_COMPILE_CACHE !== '0') return undefined;
  const dir = compileCacheDir(env);
  if (!dir) return undefined;
  const inside = (p: string) => (root: string) => {
    const r = realOrSame(root);
    return p === r || p.startsWith(r.endsWith(path.sep) ? r : r + path.sep);
  };
  try {
    // Judged before it is made, too: a refused place is left as it was.
    if (unsafeRoots(workspaces).some(inside(realOrSame(dir)))) return undefined;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const real = fs.realpathSync(dir);
    if (unsafeRoots(workspaces).some(inside(real))) return undefined;
    const st = fs.lstatSync(real);
    if (!st.isDirectory() || (st.mode & 0o022) !== 0) return undefined;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

/** The real path of `p`, or of its nearest existing parent with the rest of `p` after it. */
function realOrSame(p: string): string {
  const abs = path.resolve(p);
  try {
    return fs.realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(realOrSame(parent), path.basename(abs));
  }
}

/**
 * The folders a command line may let the agent write: the folder it runs in, `--workspace DIR`
 * and `--writable DIR` (either as `--flag=DIR` too), and LOGBOOK_SANDBOX_WRITABLE's (comma or space
 * separated). The file tools write into writable folders whatever the sandbox hides there; the
 * config file's `sandbox.writable` is not read here, before any command loads (the sandbox still
 * hides the cache from commands).
 */
export function workspacesOf(argv: readonly string[], cwd: string, env: Env = {}): string[] {
  const found = [cwd];
  const flags = ['--workspace', '--writable'];
  argv.forEach((arg, i) => {
    if (flags.includes(arg) && argv[i + 1]) found.push(path.resolve(cwd, argv[i + 1]!));
    const eq = flags.find((f) => arg.startsWith(`${f}=`));
    if (eq) found.push(path.resolve(cwd, arg.slice(eq.length + 1)));
  });
  for (const dir of (env.LOGBOOK_SANDBOX_WRITABLE ?? '').split(/[,\s]+/)) {
    if (dir) found.push(path.resolve(cwd, expandHome(dir, env)));
  }
  return found;
}

function expandHome(dir: string, env: Env): string {
  const home = env.HOME || os.homedir();
  return dir === '~' ? home : dir.startsWith('~/') ? path.join(home, dir.slice(2)) : dir;
}
