// Shared by the suites that run the small test agent (test/support/acp-write-agent.cjs) under
// `logbook run --agent writer`: its environment, one run of it, and the conversation that run made.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { type CliResult, runCli, testCheckpointsDir, testConfigDir, testSigningKey } from '../cli/cli-runner';

export const AGENT = join(__dirname, '..', '..', 'support', 'acp-write-agent.cjs');

export function agentEnv(): Record<string, string> {
  return {
    LOGBOOK_SIGNING_KEY: testSigningKey(),
    XDG_CONFIG_HOME: testConfigDir(),
    LOGBOOK_CHECKPOINTS_DIR: testCheckpointsDir(),
    LOGBOOK_ACP_AGENTS: JSON.stringify({ writer: { command: process.execPath, args: [AGENT] } }),
  };
}

/** The conversation `run` made (the agent here keeps no log of its own). */
export function conversationDir(ws: string, stdout: string): string {
  const m = /conversation: (\S+)/.exec(stdout);
  assert.ok(m, stdout);
  assert.ok(m[1]!.startsWith(join(ws, '.logbook', 'conversations')));
  return m[1]!;
}

/**
 * `logbook run --agent writer` in `ws`, the agent told what to do by `ask` (its task, as JSON);
 * `env` adds to agentEnv() (a HOME of the test's own, say).
 */
export function runTestAgent(
  ws: string,
  mode: 'act' | 'plan',
  ask: unknown,
  extra: string[] = [],
  timeoutMs = 60_000,
  env: Record<string, string> = {},
): Promise<CliResult> {
  return runCli(
    ['run', '--workspace', ws, '--agent', 'writer', '--mode', mode, '--task', JSON.stringify(ask), ...extra],
    { env: { ...agentEnv(), ...env }, timeoutMs },
  );
}
