// Keeps Logbook's secrets out of the environment of the CLI process that does the work, the
// parent of the agent's shell and MCP servers. /proc/<pid>/environ (what `ps e` prints) shows the
// environment a process was started with for its whole life, whatever is later deleted from
// process.env, and every process of the same user can read it. So a CLI started with a secret in
// its environment starts itself again without it and hands the values over a pipe on fd 3, which
// the new process reads and closes at once (its own children never inherit it). The first
// process, the launcher, only passes signals on and exits as the relaunched one does; its own
// environment stays as it was given (only an exec could replace it, which Node 20 lacks).
import { spawn } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
// Only these small modules: the launcher loads nothing else of the CLI.
import { LLM_VARIABLES } from '../../../core/llm/environment-names';
import { urlSecrets } from '../../../core/secrets/url-secrets';
import { STOP_SIGNALS } from './io';

/** Set in the relaunched CLI, which reads fd 3 and never relaunches. Not a secret itself. */
export const HANDOFF_ENV = 'LOGBOOK_SECRETS_ON_FD3';
const HANDOFF_FD = 3;

type Env = Record<string, string | undefined>;

/** The variables of `env` holding a Logbook secret: the key, and the base URL when it carries credentials. */
export function secretVariables(env: Readonly<Env>): string[] {
  const names: string[] = LLM_VARIABLES.apiKey.filter((name) => env[name]);
  for (const name of LLM_VARIABLES.baseUrl) {
    const url = env[name];
    if (url && urlSecrets(url, '').length > 0) names.push(name);
  }
  return names;
}

/**
 * In a relaunched CLI: reads the handed-over values into `env` (this process's memory only) and
 * closes fd 3. False, touching nothing, in a CLI that was not relaunched.
 */
export function receiveSecrets(env: Env = process.env): boolean {
  if (env[HANDOFF_ENV] !== '1') return false;
  // Gone before anything starts: a `logbook` the agent runs must not go looking for fd 3.
  delete env[HANDOFF_ENV];
  let values: unknown;
  try {
    values = JSON.parse(readFileSync(HANDOFF_FD, 'utf8'));
  } catch (err) {
    throw new Error(`${HANDOFF_ENV} is set, but no secrets came on fd 3 (${(err as Error).message}).`);
  } finally {
    closeQuietly(HANDOFF_FD);
  }
  if (values === null || typeof values !== 'object')
    throw new Error('the secrets on fd 3 are not an object.');
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string') env[name] = value;
  // The launcher is what the user and scripts see: killed outright, it leaves no half of itself.
  process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  return true;
}

/**
 * Commands that start no agent shell, MCP server or model call, and read no secret: they run in the
 * first process, its secret variables deleted from process.env so nothing it starts inherits them.
 * A relaunch would add a second Node start and protect nothing more: the launcher's own
 * /proc/<pid>/environ keeps them either way.
 */
const NEEDS_NO_SECRET = new Set(['show', 'verify', '--version', '-v', '--help', '-h', 'help']);

/** For a command in NEEDS_NO_SECRET: drops its secret variables and says true (run here, no relaunch). */
export function dropSecretsFor(command: string | undefined, env: Env = process.env): boolean {
  if (command === undefined || !NEEDS_NO_SECRET.has(command)) return false;
  for (const name of secretVariables(env)) delete env[name];
  return true;
}

/**
 * Starts this CLI again with its secret variables moved from the environment to fd 3; false when
 * there are none (or on Windows, which has no inheritable fd 3 to hand them over on).
 */
export function relaunchWithoutSecrets(): boolean {
  const names = secretVariables(process.env);
  if (names.length === 0 || process.platform === 'win32') return false;
  const env: Env = { ...process.env, [HANDOFF_ENV]: '1' };
  const secrets: Record<string, string> = {};
  for (const name of names) {
    secrets[name] = env[name]!;
    delete env[name];
  }
  // fd 4, an IPC channel, only tells the relaunched CLI when this one is gone.
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env,
    stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'ipc'],
  });
  const handoff = child.stdio[HANDOFF_FD] as Writable;
  handoff.on('error', () => undefined); // a child that died at once says so by its exit
  handoff.end(JSON.stringify(secrets));
  // A terminal's Ctrl+C reaches both processes (the relaunched one takes it once: see io.ts); a
  // signal sent to this process alone must reach the one doing the work.
  const forward = (signal: NodeJS.Signals) => void child.kill(signal);
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  child.on('error', (err) => {
    process.stderr.write(`logbook: could not start: ${err.message}\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    for (const s of STOP_SIGNALS) process.off(s, forward);
    // Ended by a signal: end the same way, so whoever started `logbook` sees what happened.
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
  return true;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Not open: there is nothing to keep from the children.
  }
}
