import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const indexTitles = (root: string): string[] =>
  (
    JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as { entries: { title: string | null }[] }
  ).entries.map((e) => e.title ?? '');

describe('Conversations history: rename and delete', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('renames a conversation from the tree item or by id: the list, the header and the index follow', async () => {
    llm = await scriptedModel({ name: 'host-rename', turns: [{ reply: { content: 'Hello there.' } }] });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Say hello to the team');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');

    const item = service.list().find((e) => e.id === id)!;
    assert.equal(item.title, 'Say hello to the team');
    // The tree passes its item; other callers pass the id.
    await vscode.commands.executeCommand('logbook.renameConversation', item, 'Team greeting');
    assert.equal(service.list().find((e) => e.id === id)?.title, 'Team greeting');
    assert.equal(session.header().title, 'Team greeting');
    assert.ok(indexTitles(service.root).includes('Team greeting'), 'the index on disk has the new title');

    // An empty name is refused and changes nothing.
    await vscode.commands.executeCommand('logbook.renameConversation', id, '   ');
    assert.equal(service.list().find((e) => e.id === id)?.title, 'Team greeting');
    const last = (await session.conversation.events()).at(-1)!;
    assert.equal(last.kind, 'ConversationStateUpdateEvent');
    assert.equal((last as { value?: unknown }).value, 'Team greeting');
  });

  it('deletes a conversation: its log, index entry and review go; the agent edits stay in the files', async () => {
    llm = await scriptedModel({
      name: 'host-delete',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_create',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: 'notes/delete-me.txt',
                  file_text: 'written by the agent\n',
                  security_risk: 'LOW',
                  summary: 'Write a note',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Wrote the note.' } },
      ],
    });
    const { service, review } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Write a note file');
    assert.equal(await (await service.session(id)).settled(), 'finished');
    const dir = join(service.root, id);
    assert.ok(existsSync(dir));
    assert.ok(review.changedFiles(id).length > 0, 'the edit is under review');
    const count = service.list().length;

    const item = service.list().find((e) => e.id === id)!;
    await vscode.commands.executeCommand('logbook.deleteConversation', item, true);

    assert.ok(!existsSync(dir), 'the conversation folder is removed');
    assert.equal(service.list().length, count - 1);
    assert.ok(!service.list().some((e) => e.id === id));
    assert.ok(
      !indexTitles(service.root).includes('Write a note file'),
      'the index on disk no longer lists it',
    );
    assert.equal(service.activeId, undefined, 'the chat no longer shows it');
    assert.deepEqual(review.changedFiles(id), []);
    await assert.rejects(service.session(id), /deleted/);
    const note = join(workspaceRoot(), 'notes', 'delete-me.txt');
    assert.equal(readFileSync(note, 'utf8'), 'written by the agent\n', 'the file the agent wrote is kept');
    await vscode.workspace.fs.delete(vscode.Uri.file(join(workspaceRoot(), 'notes')), { recursive: true });

    // Deleting something that does not exist changes nothing.
    await vscode.commands.executeCommand('logbook.deleteConversation', 'no-such-conversation', true);
    assert.equal(service.list().length, count - 1);
  });
});
