// Shared by the suites about agent definitions the agent wrote (agent-trust, boundary-close): the
// model writes .logbook/agents/helper.md (an act-mode agent), delegates to it and is refused until
// the user accepts the definition; then a later message delegates again and the helper runs.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import type { Turn } from '../../support/llm-server/scenario';
import { type chatTask, until, workspaceRoot } from './helpers';

const HELPER =
  '---\nname: helper\ndescription: Says hello.\ntools: [think]\nmode: act\n---\nSay hello, then finish.\n';
export const NOT_ACCEPTED = 'the user has not accepted this definition yet';

export const helperFile = () => join(workspaceRoot(), '.logbook', 'agents', 'helper.md');

const delegateToHelper = (id: string) => ({
  id,
  name: 'delegate',
  arguments: {
    command: 'delegate',
    ids: [`hi_${id}`],
    agent_types: ['helper'],
    tasks: { [`hi_${id}`]: 'say hello' },
  },
});

/**
 * The model's side: on "make a helper" it writes the definition and delegates (refused), then on a
 * later message that includes `laterMessage` it delegates again and the helper says hello.
 */
export function heldHelperTurns(laterMessage: string, laterNote: string): Turn[] {
  return [
    {
      match: { lastRole: 'user', lastContentIncludes: 'make a helper' },
      reply: {
        toolCalls: [
          {
            id: 'c_make',
            name: 'file_editor',
            arguments: {
              command: 'create',
              path: '.logbook/agents/helper.md',
              file_text: HELPER,
              security_risk: 'LOW',
              summary: 'a helper agent',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: 'helper.md' },
      reply: { toolCalls: [delegateToHelper('c_held')] },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: NOT_ACCEPTED },
      reply: { content: 'The helper is not accepted yet.' },
    },
    {
      note: laterNote,
      match: { lastRole: 'user', lastContentIncludes: laterMessage },
      reply: { toolCalls: [delegateToHelper('c_ok')] },
    },
    {
      note: 'the helper runs',
      match: { lastRole: 'user', lastContentIncludes: 'say hello' },
      reply: { toolCalls: [{ id: 'c_fin', name: 'finish', arguments: { message: 'hello' } }] },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: 'hello' },
      reply: { content: 'The helper said hello.' },
    },
  ];
}

/**
 * In the default level the definition's write asks (a file that runs later) and the test says yes;
 * autopilot would refuse it. Only the hold stands between the agent and its own agent. Call inside
 * a `describe`; `llm` is closed and the workspace's .logbook removed after the suite.
 */
export function inDefaultLevel(llm: () => ScriptedLlm | undefined): void {
  before(async () => {
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'risky', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await llm()?.close();
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
}

/** The first message's run: the user approves the definition's write; the delegation is refused. */
export async function writeRefusedHelper(
  chat: Awaited<ReturnType<typeof chatTask>>,
  llm: ScriptedLlm,
): Promise<void> {
  const waiting = () => chat.session.conversation.awaitingConfirmation();
  await until(() => waiting().length > 0, 'the definition write waits for the user');
  await chat.session.approve(waiting().map((a) => a.id));
  await until(() => llm.remainingTurns() === 3, 'the refused delegation was answered');
  await chat.session.settled();
}

/** Where the helper started as a child in `events`, or -1. */
export function helperStart(events: readonly { kind: string }[]): number {
  return events.findIndex(
    (e) =>
      e.kind === 'ConversationStateUpdateEvent' &&
      (e as { key?: string }).key === 'agent_start' &&
      ((e as { value?: { agent_name?: string } }).value?.agent_name ?? '') === 'helper',
  );
}

/** A fresh .logbook with no agents folder, as a workspace before the agent writes its helper. */
export function withoutAgents(): void {
  rmSync(join(workspaceRoot(), '.logbook', 'agents'), { recursive: true, force: true });
  mkdirSync(join(workspaceRoot(), '.logbook'), { recursive: true });
}
