// With logbook.confirmation.mode "never", a terminal command right after a file create ran while
// the chat asked "Allow this action?" about it (2 of 4 runs): its start made it look in doubt
// until its result was recorded, and every header sent in that window listed it as pending. The
// sequence runs several times here; no header may list a pending action, and every command runs
// once, in the integrated terminal.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ConversationHeader } from '../../../src/host/vscode/chat/chat-backend';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const ROUNDS = 4;

function round(i: number): Scenario['turns'] {
  const file = `never-${i}.txt`;
  return [
    {
      match: { lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: `call_create_${i}`,
            name: 'file_editor',
            arguments: {
              command: 'create',
              path: file,
              file_text: 'one\n',
              security_risk: 'LOW',
              summary: 'a file',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: {
        toolCalls: [
          {
            id: `call_write_${i}`,
            name: 'terminal',
            arguments: {
              command: `sleep 0.3; echo two >> ${file}; cat ${file}`,
              security_risk: 'LOW',
              summary: `writes to ${file}`,
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: `call_finish_${i}`, name: 'finish', arguments: { message: 'Done.' } }] },
    },
  ];
}

describe('confirmation mode never: a command after a file create never asks', function () {
  this.timeout(180_000);
  let llm: ScriptedLlm | undefined;
  after(async () => {
    await llm?.close();
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    for (let i = 0; i < ROUNDS; i++) rmSync(join(workspaceRoot(), `never-${i}.txt`), { force: true });
  });

  it(`runs create-then-write ${ROUNDS} times without a pending action in any header`, async () => {
    llm = await scriptedModel({
      name: 'never-asks',
      turns: Array.from({ length: ROUNDS }, (_, i) => round(i)).flat(),
    });
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    const asked: string[] = [];
    const watch = service.onDidChangeHeader((h: ConversationHeader) => {
      if (h.pendingActionIds.length)
        asked.push(`${h.title}: ${h.pendingRisks?.map((r) => `${r.risk} ${r.reason}`).join(', ')}`);
    });
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const id = await vscode.commands.executeCommand<string>('logbook.startTask', `Round ${i}`);
        const session = await service.session(id);
        assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
        const file = join(workspaceRoot(), `never-${i}.txt`);
        assert.ok(existsSync(file));
        assert.equal(readFileSync(file, 'utf8'), 'one\ntwo\n', 'the command ran once');
        assert.equal(session.terminalMode, 'shell-integration');
      }
    } finally {
      watch.dispose();
    }
    assert.deepEqual(asked, [], 'a header asked for confirmation under "never"');
  });
});
