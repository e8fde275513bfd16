// A file the agent created is under review although its observation does not repeat the text (it
// refers to the action's file_text): the review knows the file is new, and rejecting it deletes it.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

describe('Review of a file the agent created', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('is under review as a new file with the text the action carried; Reject All deletes it', async () => {
    const text = 'export const made = "by the agent";\n'.repeat(500); // long enough to be stored once
    llm = await scriptedModel({
      name: 'host-created-file-review',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_create_made',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'made/by-agent.ts',
                  file_text: text,
                  security_risk: 'LOW',
                  summary: 'Create by-agent.ts',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'Created' }, reply: { content: 'Created it.' } },
      ],
    });
    const { service, review } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Create by-agent.ts');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    const file = join(workspaceRoot(), 'made', 'by-agent.ts');
    assert.equal(readFileSync(file, 'utf8'), text);

    const observation = (await session.conversation.events()).find((e) => e.kind === 'ObservationEvent');
    assert.equal((observation?.observation as { new_content?: unknown }).new_content, null);
    assert.deepEqual(
      review.changedFiles(id).map((f) => f.path),
      [file],
    );
    assert.equal(review.baselineText(id, file), null, 'the review knows the agent created it');
    assert.equal(review.hunks(file, id).length, 1);

    await vscode.commands.executeCommand('logbook.review.rejectAll', id);
    assert.ok(!existsSync(file), 'rejecting the creation deletes the file');
    assert.deepEqual(review.changedFiles(id), []);
    await vscode.workspace.fs.delete(vscode.Uri.file(join(workspaceRoot(), 'made')), { recursive: true });
  });
});
