// Checkpoints in a multi-root window (the `multiroot` host profile: folders "app" and "lib"): a
// terminal command of the agent changes a file in each folder; the checkpoint before it covers both,
// the preview names each file by its folder, and restoring puts both back, with an undo.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type {
  PreviewFile,
  RestorePreview,
  RestoreUi,
} from '../../../src/host/vscode/checkpoints/restore-files';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

class RestoringUi implements RestoreUi {
  shown: RestorePreview | undefined;
  undo: (() => Promise<void>) | undefined;
  async preview(p: RestorePreview, showDiff: (f: PreviewFile) => Promise<void>) {
    this.shown = p;
    const lib = p.files.find((f) => f.path.startsWith('lib/'));
    if (lib) await showDiff(lib);
    return 'restore' as const;
  }
  async saveUnsaved() {
    return true;
  }
  done(_message: string, undo: () => Promise<void>) {
    this.undo = undo;
  }
  info() {}
}

describe('Restore files to here in a multi-root window', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('records every folder before the command, and restores both files, by folder', async () => {
    assert.deepEqual(
      folders().map((f) => f.name),
      ['app', 'lib'],
    );
    const app = join(folders()[0]!.uri.fsPath, 'multi-a.txt');
    const lib = join(folders()[1]!.uri.fsPath, 'multi-b.txt');
    writeFileSync(app, 'app before\n');
    writeFileSync(lib, 'lib before\n');
    try {
      llm = await scriptedModel({
        name: 'host-multiroot-restore',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: {
              toolCalls: [
                {
                  id: 'call_both',
                  name: 'terminal',
                  arguments: {
                    command: `echo agent > ${app} && echo agent > ${lib}`,
                    security_risk: 'LOW',
                    summary: 'change both',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Changed both.' } },
        ],
      });
      const { service } = await logbook();
      const id = await vscode.commands.executeCommand<string>(
        'logbook.startTask',
        'Change a file in each folder',
      );
      const session = await service.session(id);
      if ((await session.settled()) === 'waiting_for_confirmation') {
        await session.approve(session.conversation.awaitingConfirmation().map((a) => a.id));
      }
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      assert.equal(readFileSync(lib, 'utf8'), 'agent\n');
      const events = await session.conversation.events();
      const action = events.find((e) => e.kind === 'ActionEvent');
      assert.ok(action);
      const checkpoint = events.find(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'checkpoint',
      ) as { value: { checkpoint: string; action_id: string } } | undefined;
      assert.equal(checkpoint?.value.action_id, action.id);
      assert.match(checkpoint.value.checkpoint, /^multi:/, 'one checkpoint for both folders');

      const ui = new RestoringUi();
      const outcome = await service.restoreFiles(id, action.id, ui);
      assert.deepEqual(ui.shown?.files.map((f) => `${f.status} ${f.path}`).sort(), [
        'M app/multi-a.txt',
        'M lib/multi-b.txt',
      ]);
      assert.ok(
        vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label.includes('lib/multi-b.txt'))),
        'the diff of the second folder’s file opened',
      );
      assert.equal(outcome.restored, 2);
      assert.equal(readFileSync(app, 'utf8'), 'app before\n');
      assert.equal(readFileSync(lib, 'utf8'), 'lib before\n');
      assert.ok(ui.undo);
      await ui.undo();
      assert.equal(readFileSync(lib, 'utf8'), 'agent\n');
      await service.delete(id);
    } finally {
      rmSync(app, { force: true });
      rmSync(lib, { force: true });
    }
  });
});
