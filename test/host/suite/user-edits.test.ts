// Which edits the agent is told the user made: only changes made during the conversation by
// someone else. A file written just before the agent first edits it (saved by the user, written by
// another program) is the file as the conversation first saw it, not an edit of the user's.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const USER_EDIT_NOTE = 'the user edited these files themselves';

const replace = (id: string, path: string, from: string, to: string, risk = 'LOW') => ({
  id,
  name: 'file_editor',
  arguments: { command: 'str_replace', path, old_str: from, new_str: to, security_risk: risk, summary: id },
});

const observations = async (session: { conversation: { events(): Promise<{ kind: string }[]> } }) =>
  (await session.conversation.events())
    .filter((e) => e.kind === 'ObservationEvent')
    .map((e) => JSON.stringify((e as { observation?: unknown }).observation));

describe('Edits reported as the user’s', () => {
  let llm: ScriptedLlm | undefined;
  let name = 'user-edits-0.txt';
  const file = () => join(workspaceRoot(), name);
  let n = 0;
  // A file of its own per test: a document VS Code still holds of a deleted file cannot be shown.
  beforeEach(() => {
    name = `user-edits-${++n}.txt`;
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(file(), { force: true });
  });

  it('a file written just before the agent’s first edit is not reported as edited by the user', async () => {
    llm = await scriptedModel({
      name: 'host-user-edits-before',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [replace('call_first', name, 'one', 'ONE')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'ONE' },
          reply: { toolCalls: [replace('call_second', name, 'three', 'THREE')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Both edited.' } },
      ],
    });
    const { service } = await logbook();
    // Written (as a save or another program would) right before the conversation starts.
    writeFileSync(file(), 'one\ntwo\nthree\n');
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Capitalise two words');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(readFileSync(file(), 'utf8'), 'ONE\ntwo\nTHREE\n');
    const observed = await observations(session);
    assert.equal(observed.length, 2);
    for (const o of observed) assert.ok(!o.includes(USER_EDIT_NOTE), o);
  });

  it('an edit the user makes between two of the agent’s steps is reported, the agent’s own are not', async () => {
    llm = await scriptedModel({
      name: 'host-user-edits-between',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [replace('call_first', name, 'one', 'ONE')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'ONE' },
          reply: { toolCalls: [replace('call_second', name, 'three', 'THREE', 'HIGH')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Both edited.' } },
      ],
    });
    const { service } = await logbook();
    writeFileSync(file(), 'one\ntwo\nthree\n');
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Capitalise two words');
    const session = await service.session(id);
    assert.equal(
      await session.settled(),
      'waiting_for_confirmation',
      session.conversation.state.lastError?.message,
    );
    // While the second step waits, the user changes the middle line in the editor and saves.
    const doc = await vscode.workspace.openTextDocument(file());
    // (The edit's proposal diff is the active editor: the buffer is edited as typing would.)
    const typed = new vscode.WorkspaceEdit();
    typed.replace(doc.uri, new vscode.Range(1, 0, 1, 3), 'two (the user’s)');
    assert.ok(await vscode.workspace.applyEdit(typed));
    assert.ok(await doc.save());
    await session.approve(session.conversation.awaitingConfirmation().map((a) => a.id));
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(readFileSync(file(), 'utf8'), 'ONE\ntwo (the user’s)\nTHREE\n');
    const [first = '', second = ''] = await observations(session);
    assert.ok(!first.includes(USER_EDIT_NOTE), first);
    assert.ok(second.includes(USER_EDIT_NOTE), second);
    assert.ok(second.includes('+two (the user’s)'), 'the user’s line is named');
    assert.ok(!second.includes('+THREE'), 'the agent’s own edit is not');
  });
});
