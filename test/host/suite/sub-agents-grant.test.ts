// A workspace's agent definition that asks for more than the conversation allows gains nothing in
// the editor either: a child whose definition says `confirmation: never` still asks before a
// MEDIUM command (the user's mode is risky), its card says what it did not get, and a handoff's
// tools stay within those of the agent handing over.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

type Header = Extract<HostMessage, { type: 'header' }>['header'];

function define(defs: Record<string, string>): void {
  const dir = join(workspaceRoot(), '.logbook', 'agents');
  mkdirSync(dir, { recursive: true });
  for (const [name, front] of Object.entries(defs))
    writeFileSync(
      join(dir, `${name}.md`),
      `---\nname: ${name}\ndescription: The ${name}.\n${front}\n---\nDo it.\n`,
    );
}

describe('Sub-agents: a definition gets no more than its parent (editor)', () => {
  let llm: ScriptedLlm | undefined;
  const marker = () => join(workspaceRoot(), 'made-unasked');
  const planted = () => join(workspaceRoot(), 'planted.txt');
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    rmSync(marker(), { force: true });
    rmSync(planted(), { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a child asking for confirmation never still asks; its card says so', async () => {
    define({
      greedy: 'tools: [terminal, think]\nmode: act\nconfirmation: never\nmax_iterations: 5000',
    });
    llm = await scriptedModel({
      name: 'host-greedy-child',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'let greedy' },
          reply: {
            toolCalls: [
              {
                name: 'delegate',
                arguments: {
                  command: 'delegate',
                  ids: ['g'],
                  agent_types: ['greedy'],
                  tasks: { g: 'make the marker' },
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'make the marker' },
          reply: {
            toolCalls: [
              {
                name: 'terminal',
                // HIGH: a MEDIUM `touch` is contained (sandbox and checkpoint) and would run unasked.
                arguments: { command: 'touch made-unasked', security_risk: 'HIGH', summary: 'make a file' },
              },
            ],
          },
        },
      ],
    });
    const { view, controller, session, headers } = await chatTask('Please let greedy do it.');
    try {
      const waiting = (): Header | undefined =>
        headers().find((h) => h.children?.some((c) => c.pendingActionIds.length > 0));
      await until(() => waiting() !== undefined, 'the child asks before its MEDIUM command');
      assert.ok(!existsSync(marker()), 'the command ran unasked');
      const child = waiting()!.children![0]!;
      assert.ok(
        child.narrowed?.some((n) => n.includes('asked for confirmation "never"')),
        JSON.stringify(child.narrowed),
      );
      const start = (await session.conversation.events()).find(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_start',
      ) as { value?: { grant?: { confirmation?: string; maxIterations?: number } } } | undefined;
      assert.equal(start?.value?.grant?.confirmation, 'risky');
      assert.ok((start?.value?.grant?.maxIterations ?? 0) < 5000);
      view.send({
        type: 'reject',
        conversationId: session.id,
        actionIds: child.pendingActionIds,
        reason: 'no',
      });
      await until(() => session.conversation.status !== 'waiting_for_confirmation', 'the rejection lands');
    } finally {
      controller.dispose();
    }
  });

  it('a handoff gets only the tools of the agent handing over', async () => {
    define({ reader: 'tools: [grep, think]\nmode: act', writer: 'tools: [file_editor, think]\nmode: act' });
    llm = await scriptedModel({
      name: 'host-handoff-chain',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'read then write' },
          reply: { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'reader' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the reader agent' },
          reply: { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'writer' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'now handled by the writer agent' },
          reply: {
            toolCalls: [
              {
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'planted.txt',
                  file_text: 'x\n',
                  security_risk: 'LOW',
                  summary: 'plant',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Could not write.' } },
      ],
    });
    const { controller, session } = await chatTask('Please read then write.');
    try {
      await until(() => llm!.remainingTurns() === 0, 'the writer answered');
      await session.settled();
      assert.ok(!existsSync(planted()), 'the writer used a tool the reader did not have');
      const offered =
        (llm!.completionBodies()[2] as { tools?: { function: { name: string } }[] }).tools ?? [];
      assert.deepEqual(offered.map((t) => t.function.name).sort(), ['finish', 'think', 'transfer_to_agent']);
    } finally {
      controller.dispose();
    }
  });
});
