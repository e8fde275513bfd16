import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

describe('untrusted workspace', () => {
  let llm: ScriptedLlm | undefined;
  after(async () => {
    await llm?.close();
  });

  it('runs in restricted mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('lets Logbook chat but runs no tool and makes no edit, and says why', async () => {
    llm = await scriptedModel({
      name: 'untrusted',
      turns: [
        {
          reply: {
            toolCalls: [
              {
                id: 'call_create',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'pwned.txt',
                  file_text: 'x',
                  security_risk: 'LOW',
                  summary: 'create',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'not trusted' },
          reply: { content: 'I cannot edit files here.' },
        },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Create pwned.txt');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');
    assert.ok(!existsSync(join(workspaceRoot(), 'pwned.txt')), 'no file was created');
    const [first] = llm.completionBodies();
    assert.equal(first?.['tools'], undefined, 'no tools are offered to the model');
    const system = (first?.['messages'] as { role: string; content: string }[])[0]!;
    assert.equal(system.role, 'system');
    assert.match(system.content, /not trusted/);
    const errors = (await session.conversation.events()).filter((e) => e.kind === 'AgentErrorEvent');
    assert.equal(errors.length, 1);
    assert.match(JSON.stringify(errors[0]), /not trusted/);
  });
});
