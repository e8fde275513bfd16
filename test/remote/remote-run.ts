// What the remote tests repeat: a git repository with a base commit, and `logbook run --remote`
// against the real agent-server with the scripted model, which must succeed; then the local
// conversation folder it made, for `logbook diff` and `apply`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentServer } from '../support/agent-server';
import type { ScriptedLlm } from '../support/llm-server';
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
