// "Restore files to here" in the real extension host: a terminal command of the agent changed,
// created and deleted files; the user has an unsaved edit open. The restore previews the files
// (the unsaved one marked), saves it when told, puts the files back (the editor follows), and the
// undo brings back the state before, the user's saved edit included.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type {
  PreviewFile,
  RestorePreview,
  RestoreUi,
} from '../../../src/host/vscode/checkpoints/restore-files';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, until, workspaceRoot } from './helpers';

const FILES = [
  'restore-a.txt',
  'restore-gone.txt',
  'restore-new.txt',
  'restore-user.txt',
  'restore-fork-user.txt',
];

/** Answers the restore's questions as a user would, and keeps what it was shown. */
class ScriptedUi implements RestoreUi {
  shown: RestorePreview | undefined;
  askedToSave: string[] = [];
  undo: (() => Promise<void>) | undefined;
  messages: string[] = [];
  constructor(
    private readonly choice: 'restore' | 'fork' | undefined,
    private readonly save: boolean,
    /** the files whose diff (checkpoint ↔ now) the user opens from the preview */
    private readonly diffs = ['restore-a.txt'],
  ) {}
  async preview(p: RestorePreview, showDiff: (f: PreviewFile) => Promise<void>) {
    this.shown = p;
    for (const name of this.diffs) {
      const f = p.files.find((x) => x.path === name);
      if (!f) continue;
      await showDiff(f);
      // Kept open as a user does with a double click (a preview tab gives way to the next diff).
      if (this.diffs.length > 1) await vscode.commands.executeCommand('workbench.action.keepEditor');
    }
    return this.choice;
  }
  async saveUnsaved(paths: string[]) {
    this.askedToSave = paths;
    return this.save;
  }
  done(message: string, undo: () => Promise<void>) {
    this.messages.push(message);
    this.undo = undo;
  }
  info(message: string) {
    this.messages.push(message);
  }
}

/** The "now" side of the open diff `<path> (checkpoint ↔ now)`, as the editor shows it. */
async function nowSide(path: string): Promise<string | undefined> {
  const tab = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.label === `${path} (checkpoint ↔ now)`);
  if (!(tab?.input instanceof vscode.TabInputTextDiff)) return undefined;
  // The document the diff editor shows (opened once, shared with the editor).
  return (await vscode.workspace.openTextDocument(tab.input.modified)).getText();
}

describe('Restore files to here', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  const path = (p: string) => join(workspaceRoot(), p);
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of FILES) rmSync(path(f), { force: true });
  });

  async function agentRun(): Promise<{ id: string; actionId: string }> {
    writeFileSync(path('restore-a.txt'), 'original\n');
    writeFileSync(path('restore-gone.txt'), 'will be deleted\n');
    llm = await scriptedModel({
      name: 'host-restore-files',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_change',
                name: 'terminal',
                arguments: {
                  command: 'echo agent > restore-a.txt && rm restore-gone.txt && echo new > restore-new.txt',
                  security_risk: 'LOW',
                  summary: 'change files',
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Changed them.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Change the files');
    const session = await service.session(id);
    // `rm` asks first in the default mode: the user approves it.
    if ((await session.settled()) === 'waiting_for_confirmation') {
      await session.approve(session.conversation.awaitingConfirmation().map((a) => a.id));
    }
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(readFileSync(path('restore-a.txt'), 'utf8'), 'agent\n');
    const events = await session.conversation.events();
    const action = events.find((e) => e.kind === 'ActionEvent');
    assert.ok(action);
    const checkpoint = events.find(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'checkpoint',
    ) as { value: { action_id: string } } | undefined;
    assert.equal(checkpoint?.value.action_id, action.id, 'a checkpoint bound to the command');
    return { id, actionId: action.id };
  }

  it('with an unsaved buffer open: previews, saves it when told, restores disk and editor; Undo goes back', async () => {
    const { id, actionId } = await agentRun();
    const { service } = await logbook();
    // The user types into restore-a.txt and does not save.
    const doc = await vscode.workspace.openTextDocument(path('restore-a.txt'));
    await until(() => doc.getText() === 'agent\n', 'the document to show the agent’s write', 10_000);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'typed by the user\n'));
    assert.ok(doc.isDirty);

    const ui = new ScriptedUi('restore', true);
    const outcome = await service.restoreFiles(id, actionId, ui);
    assert.deepEqual(
      ui.shown?.files.map((f) => `${f.status} ${f.path}${f.unsaved ? ' unsaved' : ''}`).sort(),
      ['A restore-gone.txt', 'D restore-new.txt', 'M restore-a.txt unsaved'],
    );
    assert.deepEqual(ui.askedToSave, ['restore-a.txt']);
    assert.equal(ui.shown?.editedBy, 'log', 'known from the states recorded after each action');
    assert.deepEqual(
      ui.shown?.files.filter((f) => f.editedAfter),
      [],
      'an unsaved edit is not on disk yet: no file was edited outside the agent',
    );
    assert.ok(
      vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.label.includes('restore-a.txt (checkpoint ↔ now)')),
      ),
      'the preview opened the diff of a file',
    );
    assert.equal(outcome.restored, 3);
    assert.equal(readFileSync(path('restore-a.txt'), 'utf8'), 'original\n');
    assert.equal(readFileSync(path('restore-gone.txt'), 'utf8'), 'will be deleted\n');
    assert.ok(!existsSync(path('restore-new.txt')));
    await until(() => doc.getText() === 'original\n', 'the editor to show the restored text', 10_000);
    assert.ok(!doc.isDirty);

    // Undo: the files as they were just before the restore, the user's saved text included.
    assert.ok(ui.undo, 'Undo is offered');
    await ui.undo();
    assert.equal(readFileSync(path('restore-a.txt'), 'utf8'), 'agent\ntyped by the user\n');
    assert.ok(!existsSync(path('restore-gone.txt')));
    assert.equal(readFileSync(path('restore-new.txt'), 'utf8'), 'new\n');
    await until(
      () => doc.getText() === 'agent\ntyped by the user\n',
      'the editor to show the undone text',
      10_000,
    );

    const session = await service.session(id);
    const restores = (await session.conversation.events()).filter(
      (e) =>
        e.kind === 'ConversationStateUpdateEvent' &&
        e.key === 'checkpoint' &&
        (e.value as { reason?: string }).reason === 'restore',
    );
    assert.equal(restores.length, 2, 'the restore and its undo are recorded');
  });

  it('the open diffs (checkpoint ↔ now) follow the files through the restore and its undo', async () => {
    const { id, actionId } = await agentRun();
    const { service } = await logbook();
    const ui = new ScriptedUi('restore', true, ['restore-a.txt', 'restore-gone.txt', 'restore-new.txt']);
    // The diffs as opened from the preview, before the restore: the agent's files.
    const shown = new ScriptedUi(undefined, false, ['restore-a.txt', 'restore-gone.txt', 'restore-new.txt']);
    await service.restoreFiles(id, actionId, shown);
    await until(
      () =>
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label.startsWith('restore-new.txt')),
      'the diffs to open',
      10_000,
    );
    assert.equal(await nowSide('restore-a.txt'), 'agent\n');
    assert.equal(await nowSide('restore-gone.txt'), '', 'deleted by the agent: nothing now');
    assert.equal(await nowSide('restore-new.txt'), 'new\n');

    const outcome = await service.restoreFiles(id, actionId, ui);
    assert.equal(outcome.restored, 3);
    const now = async () => [
      await nowSide('restore-a.txt'),
      await nowSide('restore-gone.txt'),
      await nowSide('restore-new.txt'),
    ];
    let seen: (string | undefined)[] = [];
    await until(
      () => (void now().then((v) => (seen = v)), seen.join('|') === 'original\n|will be deleted\n|'),
      'the "now" sides to show the restored files',
      10_000,
    ).catch((err: unknown) => assert.fail(`${String(err)}: ${JSON.stringify(seen)}`));

    assert.ok(ui.undo);
    await ui.undo();
    await until(
      () => (void now().then((v) => (seen = v)), seen.join('|') === 'agent\n||new\n'),
      'the "now" sides to show the undone files',
      10_000,
    ).catch((err: unknown) => assert.fail(`${String(err)}: ${JSON.stringify(seen)}`));
  });

  it('names a file the user edited and saved between two of the agent’s steps, not the ones the agent changed', async () => {
    writeFileSync(path('restore-a.txt'), 'original\n');
    writeFileSync(path('restore-user.txt'), 'the user’s file\n');
    const command = (id: string, cmd: string, risk: string) => ({
      id,
      name: 'terminal',
      arguments: { command: cmd, security_risk: risk, summary: id },
    });
    llm = await scriptedModel({
      name: 'host-restore-user-edit',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: { toolCalls: [command('call_one', 'echo agent > restore-a.txt', 'LOW')] },
        },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [command('call_two', 'echo new > restore-new.txt', 'HIGH')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Both done.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Two steps');
    const session = await service.session(id);
    const approveAll = () => session.approve(session.conversation.awaitingConfirmation().map((a) => a.id));
    const waiting = () => session.conversation.awaitingConfirmation()[0]?.tool_call_id;
    // The first step may ask too (a redirect writes a file): approved; the second always asks.
    let status = await session.settled();
    while (status === 'waiting_for_confirmation' && waiting() === 'call_one') {
      await approveAll();
      status = await session.settled();
    }
    assert.equal(status, 'waiting_for_confirmation', 'the second step waits');
    assert.equal(waiting(), 'call_two');
    // Between the steps the user edits a file in the editor and saves it.
    const doc = await vscode.workspace.openTextDocument(path('restore-user.txt'));
    await until(() => doc.getText() === 'the user’s file\n', 'the document to show the file', 10_000);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'typed between the steps\n'));
    assert.ok(await doc.save());
    await approveAll();
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);

    const events = await session.conversation.events();
    const first = events.find((e) => e.kind === 'ActionEvent');
    assert.ok(first);
    const ui = new ScriptedUi(undefined, false);
    const outcome = await service.restoreFiles(id, first.id, ui);
    assert.equal(outcome.restored, 0, 'the preview was dismissed');
    assert.equal(ui.shown?.editedBy, 'log');
    assert.deepEqual(
      ui.shown?.files
        .map((f) => `${f.status} ${f.path}${f.editedAfter ? ' edited outside the agent' : ''}`)
        .sort(),
      ['D restore-new.txt', 'M restore-a.txt', 'M restore-user.txt edited outside the agent'],
    );
    assert.equal(
      readFileSync(path('restore-user.txt'), 'utf8'),
      'the user’s file\ntyped between the steps\n',
    );
  });

  it('Continue from Here and Restore Files: the fork has the files of that point and still knows what the user changed', async () => {
    const { id, actionId } = await agentRun();
    const { service } = await logbook();
    const outcome = await service.restoreFiles(id, actionId, new ScriptedUi('fork', true));
    assert.equal(outcome.restored, 3);
    assert.ok(outcome.conversationId && outcome.conversationId !== id, 'restored in a new conversation');
    assert.equal(readFileSync(path('restore-a.txt'), 'utf8'), 'original\n');
    // In the fork, the user writes a file; a preview back to the same point names it, from the log.
    writeFileSync(path('restore-fork-user.txt'), 'the user, in the fork\n');
    const ui = new ScriptedUi(undefined, false);
    await service.restoreFiles(outcome.conversationId, actionId, ui);
    assert.equal(ui.shown?.editedBy, 'log');
    assert.deepEqual(
      ui.shown?.files.map((f) => `${f.status} ${f.path}${f.editedAfter ? ' edited outside the agent' : ''}`),
      ['D restore-fork-user.txt edited outside the agent'],
    );
  });

  it('Review Changes shows the files a command changed or created, against the checkpoint before it', async () => {
    const { id } = await agentRun();
    const { review } = await logbook();
    await until(() => review.changedFiles(id).length === 2, "the review to take the command's files", 10_000);
    assert.deepEqual(
      review
        .changedFiles(id)
        .map((f) => f.path)
        .sort(),
      [path('restore-a.txt'), path('restore-new.txt')],
    );
    assert.equal(
      review.baselineText(id, path('restore-a.txt')),
      'original\n',
      "the original is the checkpoint's",
    );
    assert.equal(review.baselineText(id, path('restore-new.txt')), null, 'made by the command');
    await vscode.commands.executeCommand('logbook.review.acceptAll', id);
    assert.deepEqual(review.changedFiles(id), []);
  });

  it('declining to save an unsaved buffer restores nothing and keeps the buffer', async () => {
    const { id, actionId } = await agentRun();
    const { service } = await logbook();
    const doc = await vscode.workspace.openTextDocument(path('restore-a.txt'));
    // A model of the file from an earlier test may still hold its old text until the file watcher
    // reports the command's write.
    await until(() => doc.getText() === 'agent\n', 'the document to show the agent’s write', 10_000);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved '));
    const ui = new ScriptedUi('restore', false);
    const outcome = await service.restoreFiles(id, actionId, ui);
    assert.equal(outcome.restored, 0);
    assert.ok(doc.isDirty);
    assert.equal(doc.getText(), 'unsaved agent\n');
    assert.equal(readFileSync(path('restore-a.txt'), 'utf8'), 'agent\n');
    assert.ok(existsSync(path('restore-new.txt')));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
