// What the remote tests repeat: a git repository with a base commit, and `logbook run --remote`
// against the real agent-server with the scripted model, which must succeed; then the local
// conversation folder it made, for `logbook diff` and `apply`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentServer, startAgentServer, testRoot } from '../support/agent-server';
import { type Scenario, type ScriptedLlm, startScriptedLlm } from '../support/llm-server';
import { runCli } from '../unit/cli/cli-runner';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

/** A repository at `dir` holding `files`, committed once. */
export function repoWithFiles(dir: string, files: Record<string, string | Buffer>): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
}

/** The CLI's environment for the scripted model and the server's key. */
export const remoteEnv = (llm: ScriptedLlm, server: AgentServer): Record<string, string> => ({
  OPENAI_BASE_URL: llm.baseUrl,
  OPENAI_API_KEY: 'sk-test',
  LOGBOOK_MODEL: 'scripted-model',
  LOGBOOK_REMOTE_KEY: server.key,
});

/**
 * `logbook run --remote` of `task` in the server's `remoteDir`, confirmations off, from the local
 * folder `cwd`; the conversation's folder there.
 */
export async function runRemote(
  server: AgentServer,
  env: Record<string, string>,
  remoteDir: string,
  cwd: string,
  task: string,
): Promise<string> {
  const r = await runCli(
    ['run', '--remote', server.url, '--remote-dir', remoteDir, '--confirm', 'never', task],
    {
      env,
      cwd,
    },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr + server.output().slice(-3000));
  const conversations = join(cwd, '.logbook', 'conversations');
  return join(conversations, readdirSync(conversations)[0]!);
}

/** What a suite's one `logbook run --remote` leaves for its tests (filled in as each part starts). */
export interface RemoteRun {
  server?: AgentServer;
  llm?: ScriptedLlm;
  root?: string;
  remoteDir: string;
  convDir: string;
  env: Record<string, string>;
}

/**
 * Starts the real agent-server and the scripted model, makes the repository the run works in with
 * `makeRepo`, and runs `task` there from a local folder; the parts that started are kept in `run`
 * as they start, so that `stopRemoteRun` stops them even when a later part failed.
 */
export async function startRemoteRun(
  run: RemoteRun,
  name: string,
  makeRepo: (dir: string) => void,
  scenario: Scenario,
  task: string,
): Promise<void> {
  const server = (run.server = await startAgentServer());
  const root = (run.root = testRoot(name));
  run.remoteDir = join(root, 'remote');
  makeRepo(run.remoteDir);
  run.llm = await startScriptedLlm({ scenario });
  run.env = remoteEnv(run.llm, server);
  const runFrom = join(root, 'runner');
  mkdirSync(runFrom);
  run.convDir = await runRemote(server, run.env, run.remoteDir, runFrom, task);
}

export async function stopRemoteRun(run: RemoteRun): Promise<void> {
  await run.llm?.close();
  await run.server?.stop();
  if (run.root) rmSync(run.root, { recursive: true, force: true });
}
