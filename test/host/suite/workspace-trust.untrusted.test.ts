import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';

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

  it('starts no MCP server, even one in the user settings', async () => {
    await vscode.workspace.getConfiguration('logbook').update(
      'mcp.servers',
      {
        // A working server: only the trust check keeps it from starting.
        faults: {
          command: process.execPath,
          args: [
            join(
              vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
              'test',
              'support',
              'mcp-fault-server.mjs',
            ),
          ],
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    try {
      await llm?.close();
      llm = await scriptedModel({ name: 'untrusted-mcp', turns: [{ reply: { content: 'Hello.' } }] });
      const { service } = await logbook();
      await service.mcp.settled();
      const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Say hello');
      assert.equal(await (await service.session(id)).settled(), 'finished');
      assert.deepEqual(service.mcp.running(), []);
      const offered = JSON.stringify(llm.completionBodies()[0]?.['tools'] ?? []);
      assert.doesNotMatch(offered, /shout/);
    } finally {
      await vscode.workspace
        .getConfiguration('logbook')
        .update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
