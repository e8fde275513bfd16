// "Continue from here" in the real extension host, after the agent changed a file: the fork is made
// at once, and restoring the files too is offered because they changed since that point; accepting
// restores them in the fork (recorded there, not in the conversation it came from). When nothing
// changed since the point (restored already), that file is not offered again.
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
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const FILE = 'fork-restore.txt';

/** Restores without saving anything (no buffer is open) and keeps what it was shown. */
class AcceptingUi implements RestoreUi {
  files: string[] = [];
  async preview(p: RestorePreview, _diff: (f: PreviewFile) => Promise<void>) {
    this.files = p.files.map((f) => `${f.status} ${f.path}`);
    return 'restore' as const;
  }
  async saveUnsaved() {
    return true;
  }
  done() {}
  info() {}
}

describe('Continue from here and restore files', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  const file = () => join(workspaceRoot(), FILE);
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(file(), { force: true });
  });

  it('offers the restore when the files changed since the point, and restores them in the fork', async () => {
    writeFileSync(file(), 'before the agent\n');
    llm = await scriptedModel({
      name: 'host-fork-restore',
      turns: [
        {
          match: { lastRole: 'user' },
          reply: {
            toolCalls: [
              {
                id: 'call_write',
                name: 'terminal',
                arguments: { command: `echo agent > ${FILE}`, security_risk: 'LOW', summary: 'write' },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Written.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Write the file');
    const session = await service.session(id);
    // Writing a file from the terminal asks first in the default mode: the user approves it.
    if ((await session.settled()) === 'waiting_for_confirmation') {
      await session.approve(session.conversation.awaitingConfirmation().map((a) => a.id));
    }
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(readFileSync(file(), 'utf8'), 'agent\n');
    const events = await session.conversation.events();
    const action = events.find((e) => e.kind === 'ActionEvent');
    assert.ok(action);

    const offered: string[][] = [];
    const ui = new AcceptingUi();
    const out = await service.forkFrom(id, action.id, {
      offerRestore: async (paths) => {
        offered.push(paths);
        return true;
      },
      restore: ui,
    });
    assert.notEqual(out.forkId, id);
    assert.equal(offered.length, 1);
    assert.ok(
      offered[0]!.includes(FILE),
      `the changed file is offered for restore: ${offered[0]!.join(', ')}`,
    );
    const restored = await out.offer;
    assert.equal(restored?.conversationId, out.forkId, 'the restore is recorded in the fork');
    assert.ok(ui.files.includes(`M ${FILE}`), ui.files.join(', '));
    assert.equal(readFileSync(file(), 'utf8'), 'before the agent\n');
    const restores = (s: typeof session) =>
      s.conversation
        .events()
        .then(
          (es) =>
            es.filter(
              (e) =>
                e.kind === 'ConversationStateUpdateEvent' &&
                e.key === 'checkpoint' &&
                (e.value as { reason?: string }).reason === 'restore',
            ).length,
        );
    assert.equal(await restores(await service.session(out.forkId)), 1);
    assert.equal(await restores(session), 0);

    // The files are as they were at that point now: a second "Continue from here" offers nothing.
    const again = await service.forkFrom(id, action.id, {
      offerRestore: async (paths) => {
        offered.push(paths);
        return false;
      },
    });
    assert.ok(!offered[1]?.includes(FILE), `restored already: ${offered[1]?.join(', ')}`);
    await service.delete(again.forkId);
    await service.delete(out.forkId);
    await service.delete(id);
  });
});
