// One isolated code-server instance per run: its own user data, extensions, workspace copy and
// XDG folders, bound to a free port on 127.0.0.1, killed with its whole process group on stop.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  writeFileSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { install, codeServerBin } from './install.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @param {{ workspaceTemplate?: string, settings?: Record<string, unknown>, env?: Record<string,string>,
 *           runDir?: string, port?: number, trust?: boolean, log?: (line: string) => void,
 *           installExtensions?: string[], secondFolder?: boolean, openFolder?: boolean,
 *           quietInstall?: boolean, linkExtensions?: string[],
 *           locale?: { language: string, translations: string } }} [opts]
 * `secondFolder`: the window opens a multi-root workspace of the workspace copy and an empty
 * second folder (`dirs.ws2`), through a `.code-workspace` file.
 * `openFolder`: the workspace copy is code-server's folder, so its root URL (`base`) opens it.
 * `linkExtensions`: extension folders installed by reference (their manifest and its translations,
 * l10n, dist and media linked, not copied), so a rebuild shows after a reload.
 * `locale`: the display language (`--locale`, e.g. `zh-cn`) and the core translations of a language
 * pack for it (its `main.i18n.json`), registered in the user data folder as an installed pack is:
 * without a pack VS Code falls back to English, and extensions get `vscode.env.language === 'en'`.
 */
export async function startCodeServer(opts = {}) {
  install({ quiet: opts.quietInstall });
  const runDir = opts.runDir ?? mkdtempSync(join(tmpdir(), 'logbook-cs-'));
  const dirs = {
    udd: join(runDir, 'udd'),
    extensions: join(runDir, 'extensions'),
    ws: join(runDir, 'ws'),
    xdg: join(runDir, 'xdg'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  // Extensions installed from folders (the workbench URL takes one extension under development).
  for (const folder of opts.installExtensions ?? []) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    cpSync(folder, join(dirs.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`), {
      recursive: true,
    });
  }
  for (const folder of opts.linkExtensions ?? []) linkExtension(folder, dirs.extensions);
  // Every start begins from a fresh copy of the workspace, even in a reused run folder.
  rmSync(dirs.ws, { recursive: true, force: true });
  cpSync(opts.workspaceTemplate ?? join(repoRoot, 'test', 'fixtures', 'workspace'), dirs.ws, {
    recursive: true,
  });
  const workspaceFile = opts.secondFolder ? join(runDir, 'multi-root.code-workspace') : undefined;
  if (workspaceFile) {
    dirs.ws2 = join(runDir, 'ws2');
    rmSync(dirs.ws2, { recursive: true, force: true });
    mkdirSync(dirs.ws2);
    writeFileSync(
      workspaceFile,
      JSON.stringify(
        {
          folders: [
            { path: dirs.ws, name: 'app' },
            { path: dirs.ws2, name: 'lib' },
          ],
        },
        null,
        2,
      ),
    );
  }
  mkdirSync(join(dirs.udd, 'User'), { recursive: true });
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': opts.trust ?? false,
    'terminal.integrated.shellIntegration.enabled': true,
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'chat.commandCenter.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    // A run folder inside this repository (npm start) would otherwise ask about the parent repository.
    'git.openRepositoryInParentFolders': 'never',
    ...opts.settings,
  };
  writeFileSync(join(dirs.udd, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const config = join(runDir, 'config.yaml');
  writeFileSync(config, 'auth: none\ncert: false\n');

  const args = [
    codeServerBin,
    '--config',
    config,
    '--bind-addr',
    `127.0.0.1:${opts.port ?? 0}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--user-data-dir',
    dirs.udd,
    '--extensions-dir',
    dirs.extensions,
  ];
  if (!opts.trust) args.push('--disable-workspace-trust');
  if (opts.locale) {
    args.push('--locale', opts.locale.language);
    registerLanguagePack(dirs.udd, opts.locale);
  }
  if (opts.openFolder) args.push(dirs.ws);
  const env = {
    ...process.env,
    EXTENSIONS_GALLERY: '{}',
    XDG_CONFIG_HOME: join(dirs.xdg, 'config'),
    XDG_DATA_HOME: join(dirs.xdg, 'data'),
    XDG_CACHE_HOME: join(dirs.xdg, 'cache'),
    ...runtimeDirEnv(join(dirs.xdg, 'run')),
    ...opts.env,
  };
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = opts.log ?? (() => {});
  const port = await new Promise((resolvePort, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`code-server did not start in 60 s:\n${buffered}`)),
      60_000,
    );
    const onData = (chunk) => {
      const text = chunk.toString();
      buffered += text;
      for (const line of text.split('\n')) if (line.trim()) log(line);
      const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buffered);
      if (m) {
        clearTimeout(timer);
        resolvePort(Number(m[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${code}) before listening:\n${buffered}`));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    runDir,
    dirs,
    port,
    base,
    child,
    /** Workbench URL; `payload` pairs are passed to the workbench like desktop command-line flags. */
    url(payload = []) {
      const q = new URLSearchParams(workspaceFile ? { workspace: workspaceFile } : { folder: dirs.ws });
      if (payload.length) q.set('payload', JSON.stringify(payload));
      return `${base}/?${q}`;
    },
    remoteUri(path) {
      return `vscode-remote://127.0.0.1:${port}${path}`;
    },
    async stop() {
      await killTree(child.pid);
    },
  };
}

/** Writes the user data folder's list of language packs, naming one pack for `language`. */
function registerLanguagePack(userDataDir, { language, translations }) {
  const packs = {
    [language]: {
      hash: `test-${language}`,
      extensions: [
        { extensionIdentifier: { id: `logbook-test.language-pack-${language}` }, version: '0.0.1' },
      ],
      translations: { vscode: translations },
      label: language,
    },
  };
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs, null, 2));
}

/**
 * Installs the extension at `folder` into `extensionsDir` as links to its files (no copy of
 * node_modules), but for its code: VS Code hands an extension its `vscode` API by the real path of
 * the file that imports it, and code reached through a link to the repository would get the API of
 * no extension (its notifications say "Null Extension Description", its vscode.l10n finds no
 * translation). The bundles import nothing but `vscode`, so a copy of dist/ runs on its own.
 */
function linkExtension(folder, extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  // The manifest's words (package.nls*.json) and the message bundles (l10n/) ship with it too:
  // without them every title shows as its %placeholder%.
  const nls = readdirSync(folder).filter((n) => /^package\.nls(\.[\w-]+)?\.json$/.test(n));
  for (const name of ['package.json', ...nls, 'l10n', 'media', 'README.md', 'LICENSE']) {
    if (existsSync(join(folder, name))) symlinkSync(join(folder, name), join(target, name));
  }
  cpSync(join(folder, 'dist'), join(target, 'dist'), { recursive: true });
}

/**
 * VS Code and its git extension put their IPC sockets in XDG_RUNTIME_DIR (else the system temp
 * folder, where they stay after the run). Pointed into the run folder they go away with it; but a
 * socket path must fit in 108 bytes, so a deep run folder keeps the default.
 */
function runtimeDirEnv(dir) {
  if (dir.length > 48) return {};
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { XDG_RUNTIME_DIR: dir };
}

/** Kills a detached process group and any descendant that escaped it (found through /proc). */
export async function killTree(pid) {
  if (!pid) return;
  const victims = new Set([pid, ...descendants(pid)]);
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {}
  for (const p of victims) {
    try {
      process.kill(p, 'SIGTERM');
    } catch {}
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const p of victims) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {}
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
}

export function descendants(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {}
  }
  const out = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of children.get(stack.pop()) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

export function removeRunDir(runDir) {
  rmSync(runDir, { recursive: true, force: true });
}
