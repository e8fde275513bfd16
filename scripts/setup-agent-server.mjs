#!/usr/bin/env node
// Prepares the OpenHands agent-server the remote tests run against, without changing the system:
// Python ≥ 3.12 and the server's Python dependencies come from Debian's unstable packages, fetched
// by apt-get under a private configuration (its own sources list, state and cache in
// .agent-server/apt) and unpacked with dpkg-deb into .agent-server/root. That root's own dynamic
// loader runs its Python, so the system's libc and Python stay as they are. Packages Debian does
// not ship and the server only imports are stood in for by test/support/agent-server-shims.
//
// Idempotent: a stamp naming the package list skips everything when nothing changed. Prints the
// time each step took. The server's source: $LOGBOOK_AGENT_SERVER_SRC, else the vendored copy
// beside the project (../shared/vendor/openhands-software-agent-sdk-611629e6).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const home = join(root, '.agent-server');
const aptDir = join(home, 'apt');
const sysroot = join(home, 'root');
const stampFile = join(home, 'ready.json');

const SUITE = 'sid';
const MIRROR = process.env.LOGBOOK_DEBIAN_MIRROR || 'http://deb.debian.org/debian';
const KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

// What the server, the SDK and its tools import when a conversation runs, as Debian names them.
const PACKAGES = [
  'python3.14',
  'python3-pydantic',
  'python3-fastapi',
  'python3-uvicorn',
  'python3-websockets',
  'python3-wsproto',
  'python3-sqlalchemy',
  'python3-aiosqlite',
  'python3-alembic',
  'python3-docker',
  'python3-openai',
  'python3-mcp',
  'python3-httpx',
  'python3-socksio',
  'python3-jsonschema',
  'python3-filelock',
  'python3-tenacity',
  'python3-pythonjsonlogger',
  'python3-deprecation',
  'python3-pil',
  'python3-joserfc',
  'python3-fakeredis',
  'python3-binaryornot',
  'python3-cachetools',
  'python3-libtmux',
  'python3-yaml',
  'python3-aiohttp',
  'python3-authlib',
  'python3-cryptography',
  'python3-charset-normalizer',
  'python3-dotenv',
  'python3-jinja2',
  'python3-rich',
  'python3-packaging',
];

/** Where the server's source is, or a clear error naming both places looked at. */
export function agentServerSource() {
  const fromEnv = process.env.LOGBOOK_AGENT_SERVER_SRC;
  const candidates = fromEnv
    ? [resolve(fromEnv)]
    : [resolve(root, '..', 'shared', 'vendor', 'openhands-software-agent-sdk-611629e6')];
  for (const c of candidates) {
    if (existsSync(join(c, 'openhands-agent-server', 'openhands', 'agent_server'))) return c;
  }
  throw new Error(
    `agent-server source not found at ${candidates.join(', ')}: set LOGBOOK_AGENT_SERVER_SRC to the software-agent-sdk checkout`,
  );
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (res.error) {
    throw new Error(
      `${cmd} could not run (${res.error.message}): the setup needs Debian's apt-get and dpkg-deb`,
    );
  }
  if (res.status !== 0) {
    throw new Error(
      `${cmd} ${args.slice(0, 3).join(' ')}… failed (${res.status}):\n${res.stderr || res.stdout}`,
    );
  }
  return res.stdout;
}

/** apt-get's options that point every file it reads or writes into .agent-server/apt. */
function privateApt() {
  const etc = join(aptDir, 'etc');
  const state = join(aptDir, 'state');
  const cache = join(aptDir, 'cache');
  for (const d of [
    join(etc, 'apt.conf.d'),
    join(etc, 'preferences.d'),
    join(etc, 'sources.list.d'),
    join(state, 'lists', 'partial'),
    join(cache, 'archives', 'partial'),
  ]) {
    mkdirSync(d, { recursive: true });
  }
  writeFileSync(join(etc, 'sources.list'), `deb [signed-by=${KEYRING}] ${MIRROR} ${SUITE} main\n`);
  // An empty status: apt resolves every dependency down to libc, as the unpacked root needs.
  writeFileSync(join(state, 'status'), '');
  const o = (k, v) => ['-o', `${k}=${v}`];
  return [
    ...o('Dir::Etc', etc),
    ...o('Dir::Etc::SourceList', join(etc, 'sources.list')),
    ...o('Dir::Etc::SourceParts', join(etc, 'sources.list.d')),
    ...o('Dir::Etc::Parts', join(etc, 'apt.conf.d')),
    ...o('Dir::Etc::PreferencesParts', join(etc, 'preferences.d')),
    ...o('Dir::State', state),
    ...o('Dir::State::status', join(state, 'status')),
    ...o('Dir::Cache', cache),
    ...o('Debug::NoLocking', '1'),
    ...o('APT::Architecture', 'amd64'),
    ...o('Acquire::Languages', 'none'),
  ];
}

function timed(label, fn) {
  const t0 = Date.now();
  const out = fn();
  console.log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

const SOURCE_PACKAGES = ['openhands-sdk', 'openhands-tools', 'openhands-workspace', 'openhands-agent-server'];

/**
 * Package metadata for the four source folders (the server asks importlib.metadata for its own
 * version), as an installer would write it.
 */
function writeMetadata(src) {
  const dir = join(home, 'metadata');
  for (const name of SOURCE_PACKAGES) {
    const pyproject = readFileSync(join(src, name, 'pyproject.toml'), 'utf8');
    const version = /^version\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1] ?? '0';
    const info = join(dir, `${name.replace(/-/g, '_')}-${version}.dist-info`);
    mkdirSync(info, { recursive: true });
    writeFileSync(join(info, 'METADATA'), `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`);
  }
  return dir;
}

/** The shell launcher that runs the unpacked Python through the root's own loader. */
function writeLauncher(src) {
  const lib = join(sysroot, 'usr', 'lib', 'x86_64-linux-gnu');
  const paths = [
    join(root, 'test', 'support', 'agent-server-shims'),
    writeMetadata(src),
    join(src, 'openhands-sdk'),
    join(src, 'openhands-tools'),
    join(src, 'openhands-workspace'),
    join(src, 'openhands-agent-server'),
    join(sysroot, 'usr', 'lib', 'python3', 'dist-packages'),
  ];
  const launcher = join(home, 'python');
  writeFileSync(
    launcher,
    [
      '#!/bin/sh',
      '# Runs the unpacked Python 3.14 with its own libc (written by scripts/setup-agent-server.mjs).',
      `export PYTHONHOME='${join(sysroot, 'usr')}'`,
      `export PYTHONPATH='${paths.join(':')}'`,
      'export PYTHONNOUSERSITE=1',
      // Compiled modules go here, not into the server's source folder (which may be shared).
      `export PYTHONPYCACHEPREFIX='${join(home, 'pycache')}'`,
      `exec '${join(lib, 'ld-linux-x86-64.so.2')}' --library-path '${lib}' '${join(sysroot, 'usr', 'bin', 'python3.14')}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(launcher, 0o755);
  return launcher;
}

export function setupAgentServer({ force = false } = {}) {
  const src = agentServerSource();
  const want = JSON.stringify({ suite: SUITE, packages: PACKAGES });
  const launcher = join(home, 'python');
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want && existsSync(launcher)) {
    writeLauncher(src);
    return launcher;
  }
  const t0 = Date.now();
  const apt = privateApt();
  timed('apt-get update (private)', () => run('apt-get', [...apt, '-qq', 'update']));
  timed('download', () =>
    run('apt-get', [
      ...apt,
      '-qq',
      '-y',
      '--download-only',
      '--no-install-recommends',
      'install',
      ...PACKAGES,
    ]),
  );
  const archives = join(aptDir, 'cache', 'archives');
  rmSync(sysroot, { recursive: true, force: true });
  mkdirSync(sysroot, { recursive: true });
  timed('unpack', () => {
    for (const deb of readdirSync(archives).filter((f) => f.endsWith('.deb'))) {
      run('dpkg-deb', ['-x', join(archives, deb), sysroot]);
    }
  });
  writeLauncher(src);
  timed('import check', () => run(launcher, ['-c', 'import agent_server_test_main']));
  writeFileSync(stampFile, want);
  console.log(`agent-server ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${launcher}`);
  return launcher;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    setupAgentServer({ force: process.argv.includes('--force') });
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
