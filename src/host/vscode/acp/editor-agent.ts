// An external ACP agent answering in place of the model in the chat (Logbook: Start Agent Task
// with…): the conversation names its agent in a small file beside its log, and its session gets a
// model that starts that agent, in the conversation's sandbox, at its first turn. The agent's
// writes, reads, commands and permission requests then come back as Logbook's own actions
// (external-agent.ts), so the chat's confirmations, diff review, checkpoints and terminal apply.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentEntry } from '../../node/acp/agent-launch';
import type { AgentLlm } from '../../node/acp/agent-llm';
import type { CommandSandbox } from '../../node/sandbox';
import { editorSetting } from '../settings/config';

/** Beside the conversation's log: the name of the agent of `logbook.acp.agents` it runs. */
export const AGENT_FILE = 'acp-agent.json';

export type EditorAgent = AgentLlm;

/** The agents of the user's `logbook.acp.agents` (a workspace's value never counts: guarded). */
export function editorAgents(): Record<string, AgentEntry> {
  return editorSetting<Record<string, AgentEntry>>('acp.agents') ?? {};
}

/** The agent a conversation runs, or undefined when it runs the model. */
export function boundAgent(dir: string): string | undefined {
  const file = join(dir, AGENT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' && name ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Makes a new conversation run the agent `name` (before its session opens). */
export function bindAgent(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, AGENT_FILE), JSON.stringify({ name }) + '\n');
}

/** The conversation's model: the agent, its stack (the ACP SDK) loaded now, for this conversation only. */
export async function editorAgent(
  name: string,
  cwd: string,
  sandbox: CommandSandbox,
  log: vscode.LogOutputChannel,
): Promise<EditorAgent> {
  const { AgentLlm } = await import('../../node/acp/agent-llm');
  const agent = new AgentLlm({
    name,
    cwd,
    sandbox,
    trusted: () => vscode.workspace.isTrusted,
    entries: editorAgents,
    replyTimeoutSec: () => editorSetting<number>('acp.replyTimeoutSeconds'),
    log: (line) => log.info(`Agent "${name}": ${line}`),
  });
  // Its bundle has its own copy of LlmError: the conversation knows its errors by isLlmError.
  return agent;
}
