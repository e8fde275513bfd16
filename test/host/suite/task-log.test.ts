// Decisions on a worktree task in its signed log, and a terminal's discard seen by the window
// (issue 43): `logbook review`, `apply` and `discard` run in a terminal beside a window that holds
// the task's conversation leave their record for the window, which appends it to the log it holds
// and shows it in the chat; after a discard the conversation takes no message. Apply and discard
// from the editor are recorded by the window itself. The window's folder is made a git repository
// for this suite only; the tasks live where the sandbox can reach them (not under /tmp).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import {
  EXTENSION_ID,
  logbook,
  recordingWebview,
  scriptedModel,
  until,
  workspaceRoot,
  repositoryForTasks,
} from './helpers';

const FILE = 'task-log-target.txt';

describe('task decisions in the task log, a terminal discard seen by the window', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  const llms: ScriptedLlm[] = [];
  const controllers: ChatController[] = [];
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  before(async () => {
    await logbook();
    root = workspaceRoot();
    data = repositoryForTasks('task-log-', FILE, 'line 1\nline 2\n');
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const c of controllers) c.dispose();
    for (const l of llms) await l.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    rmSync(join(root, FILE), { force: true });
    rmSync(data, { recursive: true, force: true });
  });

  /** A task named `tag` that adds `<tag>.txt` in its worktree, finished and shown in a chat. */
  async function shownTask(tag: string) {
    llms.push(
      await scriptedModel({
        name: `task-log-${tag}`,
        turns: [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: `(${tag})` },
            reply: {
              toolCalls: [
                {
                  id: 'call_add',
                  name: 'file_editor',
                  arguments: {
                    command: 'create',
                    path: `${tag}.txt`,
                    file_text: 'by the task\n',
                    security_risk: 'LOW',
                  },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool' as const },
            reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      }),
    );
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      {
        task: `add a file (${tag})`,
        name: tag,
        carry: false,
      },
    );
    assert.equal(started?.name, tag, 'the task did not start');
    const session = await service.session(started.id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    const view = recordingWebview();
    const controller = new ChatController(view.port, service, {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    });
    controllers.push(controller);
    view.send({ type: 'ready', conversationId: started.id, lastSeq: -1 });
    await until(() => view.posted.some((m) => m.type === 'conversation'), 'the chat shows the task');
    /** The decisions the chat was sent, as the webview gets them. */
    const shown = () =>
      view.posted
        .flatMap((m: HostMessage) => ('events' in m && Array.isArray(m.events) ? m.events : []))
        .map((e) => e.event as { kind?: string; key?: string; value?: { decision?: string; via?: string } })
        .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'task_decision')
        .map((e) => `${e.value?.decision} ${e.value?.via}`);
    const headers = () => view.posted.flatMap((m: HostMessage) => (m.type === 'header' ? [m.header] : []));
    return { service, session, id: started.id, shown, headers };
  }

  function cli(...args: string[]) {
    const entry = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    const r = spawnSync(process.execPath, [entry, ...args], {
      cwd: root,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', LOGBOOK_WORKTREES_DIR: data },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    return r;
  }

  /** The decisions the log holds, as the session reads its own events. */
  async function logged(session: { conversation: { events(): Promise<readonly unknown[]> } }) {
    return (await session.conversation.events())
      .map((e) => e as { kind?: string; key?: string; value?: { decision?: string; via?: string } })
      .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'task_decision')
      .map((e) => `${e.value?.decision} ${e.value?.via}`);
  }

  it('a terminal review and apply beside the window: the window records them, the chat shows them', async () => {
    const t = await shownTask('beside');
    const accepted = cli('review', 'beside', '--accept-file', 'beside.txt');
    assert.match(accepted.stderr, /the window that holds its conversation records this/);
    const review = cli('review', 'beside', '--reject-file', 'beside.txt');
    assert.match(review.stderr, /the window that holds its conversation records this/);
    cli('apply', 'beside');
    await until(() => t.shown().length === 3, 'the chat to show the three decisions', 15_000);
    assert.deepEqual(t.shown(), ['accept_file cli', 'reject_file cli', 'apply cli']);
    assert.deepEqual(await logged(t.session), ['accept_file cli', 'reject_file cli', 'apply cli']);
    const sources = (await t.session.conversation.events())
      .filter((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'task_decision')
      .map((e) => e.source);
    assert.deepEqual(sources, ['user', 'user', 'user'], 'the window did not record them as the user’s');
    assert.equal(t.session.readOnly, false, 'the window let go of the conversation');
  });

  it('a terminal discard: the chat says so, takes no message, and the task reads as discarded', async () => {
    const t = await shownTask('gone');
    const worktree = (await taskPlace()).store.get('gone').worktree;
    cli('discard', 'gone');
    assert.ok(!existsSync(worktree), 'the worktree is still there');
    await until(() => t.shown().includes('discard cli'), 'the chat to show the discard', 15_000);
    assert.deepEqual(await logged(t.session), ['discard cli']);
    // The chat's composer and resume go: the header it is sent reads the conversation as read-only.
    await until(() => t.headers().at(-1)?.readOnly === true, 'the chat to take no more messages', 15_000);
    assert.equal(t.session.header().readOnly, true);
    // …and says why, for the composer to say it where the toggles and Send were.
    assert.equal(t.headers().at(-1)?.readOnlyBecause, 'task-discarded');
    await assert.rejects(t.session.send('go on'), /discarded/);
    assert.equal((await taskPlace()).store.get('gone').status, 'discarded');
  });

  it("the editor's apply and discard are recorded in the task's log by the window", async () => {
    await shownTask('editor');
    await vscode.commands.executeCommand('logbook.tasks.apply', 'editor');
    await vscode.commands.executeCommand('logbook.tasks.discard', 'editor', true);
    const record = (await taskPlace()).store.get('editor');
    assert.equal(record.status, 'discarded');
    const shown = cli('show', record.log, '--json');
    const decisions = (JSON.parse(shown.stdout) as { task_decisions: { decision: string; via: string }[] })
      .task_decisions;
    assert.deepEqual(
      decisions.map((d) => `${d.decision} ${d.via}`),
      ['apply editor', 'discard editor'],
    );
  });
});
