#!/usr/bin/env node
// Installs code-server (a real VS Code: server + web workbench) into an ignored cache folder,
// without its install scripts, which download binaries from the internet. Idempotent: a stamp
// file records a finished install, so a second run returns at once.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  copyFileSync,
  symlinkSync,
  rmSync,
  writeFileSync,
  readFileSync,
  renameSync,
} from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSystemPackages } from './system-packages.mjs';

export const CODE_SERVER_VERSION = '4.100.3';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const installDir = join(root, '.vscode-test', 'code-server');
export const codeServerBin = join(installDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const stamp = join(installDir, '.installed');

/** Quiet: each step's output is kept and shown only when it fails (npm start prints one line). */
let quiet = false;

function run(cmd, args, cwd) {
  const line = `[code-server] ${cwd.replace(root, '.')}$ ${cmd} ${args.join(' ')}`;
  if (!quiet) console.log(line);
  try {
    execFileSync(cmd, args, {
      cwd,
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        npm_config_yes: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        ...(quiet ? { npm_config_loglevel: 'error' } : {}),
      },
    });
  } catch (err) {
    if (quiet) console.error(`${line}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    throw err;
  }
}

function say(text) {
  if (!quiet) console.log(text);
}

function which(name) {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function link(target, path) {
  rmSync(path, { force: true, recursive: true });
  symlinkSync(target, path);
}

export function isInstalled() {
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === CODE_SERVER_VERSION;
}

/** `quiet`: no output unless a step fails. */
export function install(opts = {}) {
  quiet = opts.quiet === true;
  if (isInstalled()) {
    patchWorkbench(); // an install made before a patch was added gets it too
    return;
  }
  requireSystemPackages();
  const rg = which('rg');
  mkdirSync(installDir, { recursive: true });
  writeFileSync(join(installDir, 'package.json'), '{"private":true}\n');
  run('npm', ['install', '--no-save', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], installDir);
  const vscodeDir = join(installDir, 'node_modules', 'code-server', 'lib', 'vscode');
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
  const rgDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgDir, { recursive: true });
  copyFileSync(rg, join(rgDir, 'rg'));
  run(
    'npm',
    [
      'rebuild',
      'kerberos',
      '@parcel/watcher',
      '@vscode/spdlog',
      'native-watchdog',
      'node-pty',
      '@vscode/deviceid',
    ],
    vscodeDir,
  );
  link('node_modules', join(vscodeDir, 'node_modules.asar'));
  link('code-linux.sh', join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
  link('browser-linux.sh', join(vscodeDir, 'bin', 'helpers', 'browser.sh'));
  run('npm', ['install', '--omit=dev'], join(vscodeDir, 'extensions'));
  run('npm', ['rebuild', 'argon2'], installDir);
  patchWorkbench();
  writeFileSync(stamp, CODE_SERVER_VERSION + '\n');
  say(`[code-server] installed ${CODE_SERVER_VERSION} in ${installDir}`);
}

/**
 * code-server keeps the user settings on the server, under `<user-data-dir>/User`, but its web
 * workbench names that folder `vscode-remote:/…/User`, without the window's remote authority,
 * while the server reports file changes as `vscode-remote://127.0.0.1:PORT/…`. The workbench never
 * matches a change of `User/settings.json` to its settings file, so an edit made on disk (another
 * editor, a script, the agent) applied only after a reload; the workspace's `.vscode/settings.json`
 * carries the authority and always worked. Naming the folder with the authority, as VS Code does
 * for every other remote file, makes the edit apply at once, as a change in the Settings UI does.
 * Idempotent; the file is replaced in one rename, so a window loading it meanwhile reads either.
 */
const WORKBENCH_PATCHES = [
  {
    file: join('out', 'vs', 'code', 'browser', 'workbench', 'workbench.js'),
    what: 'user settings edited on disk apply without a reload',
    from: 'get userRoamingDataHome(){return Ze(N.file(this.userDataPath).with({scheme:K.vscodeRemote}),"User")}',
    to: 'get userRoamingDataHome(){return Ze(N.file(this.userDataPath).with({scheme:K.vscodeRemote,authority:this.options.remoteAuthority}),"User")}',
  },
];

export function patchWorkbench() {
  const vscodeDir = join(installDir, 'node_modules', 'code-server', 'lib', 'vscode');
  for (const patch of WORKBENCH_PATCHES) {
    const path = join(vscodeDir, patch.file);
    const text = readFileSync(path, 'utf8');
    if (text.includes(patch.to)) continue;
    const at = text.indexOf(patch.from);
    if (at < 0 || text.indexOf(patch.from, at + 1) >= 0) {
      console.warn(
        `[code-server] cannot patch ${patch.file} (${patch.what}): the code it changes is not there once`,
      );
      continue;
    }
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, text.slice(0, at) + patch.to + text.slice(at + patch.from.length));
    renameSync(tmp, path);
    say(`[code-server] patched ${patch.file}: ${patch.what}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) install();
