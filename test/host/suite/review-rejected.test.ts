// Rejecting an agent's change in the editor's review is recorded in its conversation, naming the
// file and the action that made the change, so the chat can mark the card (and a reload still can).
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const FILE = 'rejected-hunk.txt';

type Session = Awaited<ReturnType<Awaited<ReturnType<typeof logbook>>['service']['session']>>;

/** The review_rejected record the session's log gets, waited for a few seconds. */
async function recordedRejection(session: Session): Promise<Record<string, unknown> | undefined> {
  const end = Date.now() + 5_000;
  for (;;) {
    const found = (await session.conversation.events()).find(
      (e) => e.kind === 'ConversationStateUpdateEvent' && (e as { key?: unknown }).key === 'review_rejected',
    );
    if (found) return (found as { value?: unknown }).value as Record<string, unknown>;
    if (Date.now() > end) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('A change rejected in the editor is recorded in its conversation', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(workspaceRoot(), FILE), { force: true });
  });

  it('names the file and the action', async () => {
    writeFileSync(join(workspaceRoot(), FILE), 'one\ntwo\nthree\n');
    llm = await scriptedModel({
      name: 'review-rejected',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_edit',
                name: 'file_editor',
                arguments: {
                  command: 'str_replace',
                  path: FILE,
                  old_str: 'two',
                  new_str: 'TWO',
                  security_risk: 'LOW',
                  summary: 'Capitalize two',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    const { service, review } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Capitalize two');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');
    const path = join(workspaceRoot(), FILE);
    const [hunk] = review.hunks(path, id);
    assert.ok(hunk, 'the edit is under review');
    assert.equal(await review.rejectHunk({ conversationId: id, path, ...hunk }), true);

    const edit = (await session.conversation.events()).find(
      (e) => e.kind === 'ActionEvent' && e.tool_name === 'file_editor',
    );
    const end = Date.now() + 5_000;
    let recorded: Record<string, unknown> | undefined;
    while (!recorded && Date.now() < end) {
      const found = (await session.conversation.events()).find(
        (e) =>
          e.kind === 'ConversationStateUpdateEvent' && (e as { key?: unknown }).key === 'review_rejected',
      );
      recorded = found && ((found as { value?: unknown }).value as Record<string, unknown>);
      if (!recorded) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(recorded, { path: FILE, action_ids: [edit!.id], whole_file: false });
  });
  it('names only the action whose change the rejected hunk holds, when two edits share the file', async () => {
    writeFileSync(join(workspaceRoot(), FILE), 'one\ntwo\nthree\nfour\n');
    const edit = (id: string, oldStr: string, newStr: string) => ({
      id,
      name: 'file_editor',
      arguments: {
        command: 'str_replace',
        path: FILE,
        old_str: oldStr,
        new_str: newStr,
        security_risk: 'LOW',
        summary: `Change ${oldStr}`,
      },
    });
    llm = await scriptedModel({
      name: 'review-rejected-two-edits',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [edit('call_one', 'one', 'ONE')] } },
        {
          match: { lastRole: 'tool', lastContentIncludes: 'ONE' },
          reply: { toolCalls: [edit('call_four', 'four', 'FOUR')] },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    const { service, review } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Capitalize one and four');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished');
    const path = join(workspaceRoot(), FILE);
    const hunks = review.hunks(path, id);
    assert.equal(hunks.length, 2, 'two hunks under review');
    const last = hunks[1]!;
    assert.equal(await review.rejectHunk({ conversationId: id, path, ...last }), true);

    const edits = (await session.conversation.events()).filter(
      (e) => e.kind === 'ActionEvent' && e.tool_name === 'file_editor',
    );
    const four = edits.find((e) => JSON.stringify(e).includes('FOUR'));
    assert.ok(four && edits.length === 2, 'both edits are recorded');
    assert.deepEqual(await recordedRejection(session), {
      path: FILE,
      action_ids: [four.id],
      whole_file: false,
    });
  });
});
