// A conversation whose process was killed during a terminal command, seen by a window that opens
// afterwards. The extension host that runs these tests cannot be killed and reloaded from inside
// them, so the killed writer is a real `logbook` CLI process (the same core, log and lock) that runs
// the conversation in this window's storage and is killed with SIGKILL while its command runs;
// the index entry it would have kept up to date says `running`, and the window reloads its list.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { openEventStore } from '../../../src/core/log';
import {
  ConversationIndexFile,
  entryFromState,
  RECOVERY_KEY,
  stateFromStore,
  upsertEntry,
} from '../../../src/core/state';
import type { ConversationService } from '../../../src/host/vscode/conversations/conversation-service';
import { ConversationsTree } from '../../../src/host/vscode/conversations/conversations-tree';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, spawnCli, until, workspaceRoot } from './helpers';

describe('A conversation whose process was killed during a terminal command', () => {
  let llm: ScriptedLlm | undefined;
  let scratch: string | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  /**
   * A conversation in this window's storage whose writer was killed while its command ran, and the
   * index entry that writer kept: running. `nextTurn` is the model's reply after the decision.
   */
  async function killedWriter(nextTurn: { toolResultIncludes: string; content: string }) {
    const { service } = await logbook();
    const ws = join(workspaceRoot(), `killed-writer-${randomUUID().slice(0, 8)}`);
    scratch = ws;
    mkdirSync(ws);
    writeFileSync(join(ws, 'delay'), '30\n');
    const command = `echo run >> ${ws}/runs.log; echo $$ > ${ws}/shell.pid; sleep $(cat ${ws}/delay)`;
    llm = await scriptedModel({
      name: 'host-killed-writer',
      turns: [
        {
          match: { lastContentIncludes: 'long command' },
          reply: {
            toolCalls: [
              {
                id: 'call_long',
                name: 'terminal',
                arguments: { command, security_risk: 'LOW', summary: 'the long command' },
              },
            ],
          },
        },
        { match: { toolResultIncludes: nextTurn.toolResultIncludes }, reply: { content: nextTurn.content } },
      ],
    });

    const id = randomUUID();
    const dir = join(service.root, id);
    const child = spawnCli(
      ['run', '--workspace', ws, '--store', dir, '--confirm', 'never', '--task', 'run the long command'],
      llm,
      // The test stops what the dead writer left by the shell's pid, which only means something
      // outside a PID namespace (in the sandbox, bwrap's --die-with-parent ends it with the CLI).
      { LOGBOOK_SANDBOX: 'off' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await until(() => existsSync(join(ws, 'shell.pid')), 'the command to start', 20_000);
    child.kill('SIGKILL');
    await exited;
    // What the dead writer left running is stopped, as a user would.
    killGroup(Number(readFileSync(join(ws, 'shell.pid'), 'utf8')));

    const store = await openEventStore<StoredConversationEvent>(dir, {
      codec: conversationEventCodec,
      readOnly: true,
    });
    const { state } = await stateFromStore(store, { id }).finally(() => store.close());
    assert.equal(state.status, 'running', 'the log itself says running');
    assert.equal(state.inDoubt.length, 1);
    const indexFile = new ConversationIndexFile(join(service.root, 'index.json'));
    const stored = await indexFile.read();
    assert.ok(stored.ok);
    await indexFile.save(upsertEntry(stored.index, entryFromState(id, state)));
    return { service, id, ws };
  }

  /** Opens it for writing: the recovery is recorded, the command is in doubt and not run again. */
  async function openRecovered(service: ConversationService, id: string, ws: string) {
    const session = await service.session(id);
    assert.equal(session.readOnly, false);
    assert.equal(session.header().status, 'paused');
    const events = await session.conversation.events();
    assert.ok(events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === RECOVERY_KEY));
    const action = events.find((e) => e.kind === 'ActionEvent')!;
    assert.deepEqual(session.header().pendingActionIds, [action.id], 'the user is asked about it');
    await until(() => service.list().find((e) => e.id === id)?.interrupted === undefined, 'the list', 5_000);
    assert.equal(service.list().find((e) => e.id === id)?.status, 'paused');
    assert.equal(readFileSync(join(ws, 'runs.log'), 'utf8'), 'run\n', 'not run again on open');
    return { session, action };
  }

  it('shows as interrupted, not running, after a reload; opened, its command runs again only when approved', async () => {
    const { service, id, ws } = await killedWriter({
      toolResultIncludes: 'exit code 0',
      content: 'It ran again.',
    });
    // Reload: the list is read from the index again.
    await service.initialize();
    const listed = service.list().find((e) => e.id === id);
    assert.equal(listed?.status, 'paused');
    assert.match(listed?.interrupted ?? '', /the process that ran it is gone/);
    const item = new ConversationsTree(service).getTreeItem(listed);
    // Time and status lead the row (a narrow sidebar cuts its end), the title after them.
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    assert.match(label, /^(\S+ )?\d\d:\d\d · paused, interrupted · /);
    assert.doesNotMatch(label, /running/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'debug-pause');

    const { session } = await openRecovered(service, id, ws);
    try {
      // The user decides to run it again (Approve Pending); the agent then goes on.
      writeFileSync(join(ws, 'delay'), '0\n');
      await vscode.commands.executeCommand('logbook.approvePending', id);
      assert.equal(await session.settled(), 'finished');
      assert.equal(readFileSync(join(ws, 'runs.log'), 'utf8'), 'run\nrun\n', 'run again once');
    } finally {
      await service.delete(id);
    }
  });

  it('opened after a reload, its command is skipped when the user rejects it, and the agent goes on', async () => {
    const { service, id, ws } = await killedWriter({
      toolResultIncludes: 'already ran before the crash',
      content: 'Skipped it.',
    });
    await service.initialize();
    const { session, action } = await openRecovered(service, id, ws);
    try {
      await vscode.commands.executeCommand('logbook.rejectPending', id, 'already ran before the crash');
      assert.equal(await session.settled(), 'finished');
      assert.equal(readFileSync(join(ws, 'runs.log'), 'utf8'), 'run\n', 'never run again');
      const events = await session.conversation.events();
      assert.ok(events.some((e) => e.kind === 'UserRejectObservation' && e.action_id === action.id));
    } finally {
      await service.delete(id);
    }
  });
});

function killGroup(pid: number): void {
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
