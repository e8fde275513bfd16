// A hook runs as the user's own program: `bash -c COMMAND` in the workspace, outside the agent's
// sandbox, with the user's environment (less the model's API key), the event's JSON on stdin, and a timeout after which its
// whole process group is stopped (a hook that forks a sleeper does not hold the agent either).
import { spawn } from 'node:child_process';
import { LLM_VARIABLES } from '../../../core/llm/environment-names';
import type { HookExecPort } from '../../../core/hooks/hook-runner';
import type { HookProcessResult } from '../../../core/hooks/hook-output';

/** The environment without the model's API key: a hook checks steps, it does not talk to the model. */
function withoutApiKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of LLM_VARIABLES.apiKey) delete out[name];
  return out;
}

/** Output read per stream; more is dropped (the record keeps less still). */
const MAX_OUTPUT = 1024 * 1024;

export function nodeHookExec(env: NodeJS.ProcessEnv = process.env): HookExecPort {
  return {
    run: (command, stdin, opts) =>
      new Promise<HookProcessResult>((resolve) => {
        const started = performance.now();
        const child = spawn('bash', ['-c', command], {
          cwd: opts.cwd,
          env: { ...withoutApiKey(env), CLAUDE_PROJECT_DIR: opts.cwd, LOGBOOK_PROJECT_DIR: opts.cwd },
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
        });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        let outLen = 0;
        let errLen = 0;
        let timedOut = false;
        let spawnError: string | undefined;
        child.stdout.on('data', (b: Buffer) => {
          if (outLen < MAX_OUTPUT) out.push(b);
          outLen += b.length;
        });
        child.stderr.on('data', (b: Buffer) => {
          if (errLen < MAX_OUTPUT) err.push(b);
          errLen += b.length;
        });
        const kill = () => {
          try {
            if (child.pid) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        };
        const timer = setTimeout(() => {
          timedOut = true;
          kill();
        }, opts.timeoutMs);
        child.on('error', (e) => {
          spawnError = e.message;
        });
        // A hook that does not read its input must not fail the write.
        child.stdin.on('error', () => undefined);
        child.stdin.end(stdin);
        child.on('close', (code) => {
          clearTimeout(timer);
          // What it left running in its group goes with it.
          kill();
          resolve({
            exitCode: code,
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(err).toString('utf8'),
            timedOut,
            durationMs: performance.now() - started,
            ...(spawnError ? { spawnError } : {}),
          });
        });
      }),
  };
}
