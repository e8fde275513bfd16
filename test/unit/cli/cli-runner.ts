// Runs the real `logbook` CLI as a child process. The CLI is bundled once per test run with the
// same esbuild options as dist/cli.js (into a temp dir, so concurrent runs never share a file):
// starting a single bundled file is much cheaper than transpiling ~150 modules with tsx per spawn.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { newSigningKeyPem } from '../../../src/core/signing';
import { lazyBundleBuilds, lazyBundlesPlugin, REQUIRE_ON_IMPORT } from '../../../scripts/lazy-bundles.mjs';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout split into lines, without the trailing empty one. */
  lines: string[];
}

const repoRoot = join(__dirname, '..', '..', '..');
let bundled: Promise<string> | undefined;

export function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const bundleDir = mkdtempSync(join(tmpdir(), 'logbook-cli-bundle-'));
    // One bundle for every test file of the run; gone when mocha exits.
    process.once('exit', () => rmSync(bundleDir, { recursive: true, force: true }));
    const outfile = join(bundleDir, 'cli.js');
    await build({
      entryPoints: [join(repoRoot, 'src/host/node/cli.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      supported: REQUIRE_ON_IMPORT,
      sourcemap: 'inline',
      logLevel: 'silent',
      plugins: [lazyBundlesPlugin],
    });
    // The stacks the CLI loads on first use, beside it as in dist/.
    await Promise.all(lazyBundleBuilds(bundleDir, { sourcemap: 'inline', logLevel: 'silent' }).map(build));
    return outfile;
  })();
  return bundled;
}

let signingKey: string | undefined;

/** One signing key for the run's CLI children, so none writes one into the user's ~/.config. */
export function testSigningKey(): string {
  if (signingKey) return signingKey;
  const dir = mkdtempSync(join(tmpdir(), 'logbook-cli-key-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  signingKey = join(dir, 'signing-key.pem');
  writeFileSync(signingKey, newSigningKeyPem(), { mode: 0o600 });
  return signingKey;
}

let configDir: string | undefined;

/** $XDG_CONFIG_HOME for the run's CLI children: heads and the trust list never go to ~/.config. */
export function testConfigDir(): string {
  if (configDir) return configDir;
  configDir = mkdtempSync(join(tmpdir(), 'logbook-cli-config-'));
  const dir = configDir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return configDir;
}

let checkpointsDir: string | undefined;

/** The checkpoint stores' root for the run's CLI children. */
export function testCheckpointsDir(): string {
  if (checkpointsDir) return checkpointsDir;
  checkpointsDir = mkdtempSync(join(tmpdir(), 'logbook-cli-checkpoints-'));
  const dir = checkpointsDir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return checkpointsDir;
}

/**
 * Spawns the CLI (asynchronously: the scripted LLM server answers from this process's event loop).
 * `env` is added to a clean environment that carries no real OpenAI settings.
 */
export async function runCli(
  args: readonly string[],
  opts: {
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    onSpawn?: (child: ChildProcess) => void;
  } = {},
): Promise<CliResult> {
  const cli = await cliBundle();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(OPENAI_|LOGBOOK_)/.test(k)) env[k] = v;
  }
  env.LOGBOOK_SIGNING_KEY = testSigningKey();
  env.XDG_CONFIG_HOME = testConfigDir();
  // Workspace checkpoints go to a folder of the run, never to the user's ~/.local/state.
  env.LOGBOOK_CHECKPOINTS_DIR = testCheckpointsDir();
  Object.assign(env, opts.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: opts.cwd ?? repoRoot, env });
    opts.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`logbook ${args.join(' ')} timed out\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, lines: stdout.split('\n').filter((l) => l !== '') });
    });
  });
}

/** Parses --json output: one event object per line. */
export function jsonLines(r: CliResult): Record<string, unknown>[] {
  return r.lines.map((l, i) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      throw new Error(`stdout line ${i} is not JSON: ${l}\nstderr:\n${r.stderr}`);
    }
  });
}

/** Message for assertion failures: everything the CLI printed. */
export function printed(r: CliResult): string {
  return `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
}
