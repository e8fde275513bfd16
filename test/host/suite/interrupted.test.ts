// A conversation whose process was killed during a terminal command, seen by a window that opens
// afterwards. The extension host that runs these tests cannot be killed and reloaded from inside
// them, so the killed writer is a real `logbook` CLI process (the same core, log and lock) that runs
// the conversation in this window's storage and is killed with SIGKILL while its command runs;
// the index entry it would have kept up to date says `running`, and the window reloads its list.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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
import { ConversationsTree } from '../../../src/host/vscode/conversations-tree';
import type { ScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, workspaceRoot } from './helpers';

describe('A conversation whose process was killed during a terminal command', () => {
  let llm: ScriptedLlm | undefined;
  let scratch: string | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('shows as interrupted, not running, after a reload; opened, it is recovered and its command runs again only when approved', async () => {
    const { service } = await logbook();
    scratch = join(workspaceRoot(), `killed-writer-${randomUUID().slice(0, 8)}`);
    mkdirSync(scratch);
    writeFileSync(join(scratch, 'delay'), '30\n');
    const command = `echo run >> ${scratch}/runs.log; echo $$ > ${scratch}/shell.pid; sleep $(cat ${scratch}/delay)`;
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
        { match: { toolResultIncludes: 'exit code 0' }, reply: { content: 'It ran again.' } },
      ],
    });

    // The writer: runs the command in a conversation under this window's storage, killed mid-command.
    const id = randomUUID();
    const dir = join(service.root, id);
    const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    const child = spawn(
      process.execPath,
      [
        cli,
        'run',
        '--workspace',
        scratch,
        '--store',
        dir,
        '--confirm',
        'never',
        '--task',
        'run the long command',
      ],
      {
        env: {
          ...process.env,
          ELECTRON_RUN_AS_NODE: '1',
          OPENAI_BASE_URL: llm.baseUrl,
          OPENAI_API_KEY: 'test-key',
          LOGBOOK_MODEL: 'scripted-model',
        },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await until(() => existsSync(join(scratch!, 'shell.pid')), 20_000, 'the command to start');
    child.kill('SIGKILL');
    await exited;
    // What the dead writer left running is stopped, as a user would.
    killGroup(Number(readFileSync(join(scratch, 'shell.pid'), 'utf8')));

    // Its index entry, as the killed writer kept it: running.
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

    // Reload: the list is read from the index again.
    await service.initialize();
    const listed = service.list().find((e) => e.id === id);
    assert.equal(listed?.status, 'paused');
    assert.match(listed?.interrupted ?? '', /the process that ran it is gone/);
    const item = new ConversationsTree(service).getTreeItem(listed);
    assert.match(String(item.description), /^paused, interrupted/);
    assert.doesNotMatch(String(item.description), /running/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'debug-pause');

    // Opening it for writing records the recovery; the command is in doubt and does not run again.
    const session = await service.session(id);
    try {
      assert.equal(session.readOnly, false);
      assert.equal(session.header().status, 'paused');
      const events = await session.conversation.events();
      assert.ok(events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === RECOVERY_KEY));
      const action = events.find((e) => e.kind === 'ActionEvent')!;
      assert.deepEqual(session.header().pendingActionIds, [action.id], 'the user is asked about it');
      await until(
        () => service.list().find((e) => e.id === id)?.interrupted === undefined,
        5_000,
        'the list',
      );
      assert.equal(service.list().find((e) => e.id === id)?.status, 'paused');
      assert.equal(readFileSync(join(scratch, 'runs.log'), 'utf8'), 'run\n', 'not run again on open');

      // The user decides to run it again (Approve Pending); the agent then goes on.
      writeFileSync(join(scratch, 'delay'), '0\n');
      await vscode.commands.executeCommand('logbook.approvePending', id);
      assert.equal(await session.settled(), 'finished');
      assert.equal(readFileSync(join(scratch, 'runs.log'), 'utf8'), 'run\nrun\n', 'run again once');
    } finally {
      await service.delete(id);
    }
  });
});

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function killGroup(pid: number): void {
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
