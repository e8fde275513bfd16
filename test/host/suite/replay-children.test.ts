// Replay Conversation follows delegated agents in the real extension host: a conversation whose
// agent handed a read to the explorer replays with the explorer fed its own recorded replies, its
// absolute path into the workspace read in the replay's copy; a read outside the workspace is
// refused in the replay, and the card names the explorer's branch.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ReplayReport } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import type { Scenario } from '../../support/llm-server/scenario';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const OUT = 'rc-out.txt';
const STAMP = 'rc-stamp.txt';

function delegation(stamp: string): Scenario {
  return {
    name: 'host-replay-children',
    turns: [
      {
        match: { lastRole: 'user', lastContentIncludes: 'stamp' },
        reply: {
          toolCalls: [
            {
              name: 'delegate',
              arguments: {
                command: 'delegate',
                ids: ['peek'],
                agent_types: ['explore'],
                tasks: { peek: `Read ${stamp} and report it.` },
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'user', lastContentIncludes: 'and report it' },
        reply: {
          toolCalls: [
            {
              name: 'file_editor',
              arguments: { command: 'view', path: stamp, security_risk: 'LOW', summary: 'read the stamp' },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: { toolCalls: [{ name: 'finish', arguments: { message: 'Read the stamp.' } }] },
      },
      {
        match: { lastRole: 'tool', toolResultIncludes: 'Read the stamp.' },
        reply: {
          toolCalls: [
            {
              name: 'file_editor',
              arguments: {
                command: 'create',
                path: OUT,
                file_text: 'seen\n',
                security_risk: 'LOW',
                summary: 'note',
              },
            },
          ],
        },
      },
      { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
    ],
  };
}

describe('Replay Conversation with delegated agents', function () {
  this.timeout(180_000);
  let llm: ScriptedLlm | undefined;
  let stampDir: string;
  beforeEach(() => (stampDir = mkdtempSync(join(tmpdir(), 'logbook-stamp-'))));
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(stampDir, { recursive: true, force: true });
    rmSync(join(workspaceRoot(), OUT), { force: true });
    rmSync(join(workspaceRoot(), STAMP), { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** Runs the delegation; the explorer's read outside the workspace is confirmed as the user would. */
  async function record(stamp: string): Promise<string> {
    llm = await scriptedModel(delegation(stamp));
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Read the stamp for me');
    const session = await service.session(id);
    while ((await session.settled()) === 'waiting_for_confirmation') {
      const h = session.header();
      const ids = [...h.pendingActionIds, ...(h.children ?? []).flatMap((c) => c.pendingActionIds)];
      if (!ids.length) await new Promise((r) => setTimeout(r, 100));
      else await session.approve(ids);
    }
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(llm.remainingTurns(), 0);
    await llm.close();
    llm = undefined;
    return id;
  }

  it('replays the child on its recorded replies, its absolute path read in the copy: no divergence', async () => {
    const stamp = join(workspaceRoot(), STAMP);
    writeFileSync(stamp, 'alpha stamp\n');
    const id = await record(stamp);
    // Changed since: the replay reads the copy's, as the first checkpoint holds it, not this one.
    writeFileSync(stamp, 'omega stamp\n');
    const report = await vscode.commands.executeCommand<ReplayReport>('logbook.replayConversation', id, {
      confirmed: true,
    });
    assert.deepEqual(report, { outcome: 'same', actions: 2 });
  });

  it("a read outside the workspace is refused in the replay: the card names the child's branch", async () => {
    const stamp = join(stampDir, 'stamp.txt');
    writeFileSync(stamp, 'alpha stamp\n');
    const id = await record(stamp);
    writeFileSync(stamp, 'omega stamp\n');
    const report = await vscode.commands.executeCommand<ReplayReport>('logbook.replayConversation', id, {
      confirmed: true,
    });
    assert.ok(report.outcome === 'diverged', JSON.stringify(report));
    assert.equal(report.branch, 'main.explore.1');
    assert.equal(report.tool, 'file_editor');
    assert.equal(report.ordinal, 1);
    assert.ok(
      report.diff.some((l) => l.includes("leads outside the replay's copy of the workspace")),
      report.diff.join('\n'),
    );
    // The index is in the child's log: no place in the parent's timeline is offered for it.
    assert.equal(report.seq, undefined);
  });
});
