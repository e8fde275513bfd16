// The change a remote conversation's agent made (committed there or not), in the editor, against
// the real agent-server: the chat's Open diff and Review the Server's Changes show it in one multi-file diff without writing a
// local file; Apply the Server's Changes Here writes it into the window's working tree only when
// asked, merging a file changed here too and leaving a conflict marked, opened and named.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Scenario } from '../../support/llm-server';
import type { AgentServer } from './agent-server';
import { endRemote, finishedRemote, type FinishedRemote, git, repoWithFiles } from './remote-finished';
import { logbook, until } from './helpers';

const BASE = 'line 1\nline 2\nline 3\n';

const EDIT_AND_ADD: Scenario = {
  name: 'remote-review',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        content: 'I will change a.txt and add out.txt.',
        toolCalls: [
          {
            id: 'call_edit',
            name: 'terminal',
            arguments: {
              // a.txt's change committed on the server: still the conversation's change.
              command:
                'echo server-line >> a.txt && git add a.txt && git -c user.name=A -c user.email=a@a ' +
                'commit --quiet -m agent && echo remote-ok > out.txt && chmod +x out.txt',
              security_risk: 'LOW',
              summary: 'edit and commit a.txt, add an executable out.txt',
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
};

const repoWithBase = (dir: string): void => repoWithFiles(dir, { 'a.txt': BASE });

const tabLabels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));

describe("A remote conversation's change: review and apply (the real agent-server)", function () {
  this.timeout(180_000);
  let remote: FinishedRemote | undefined;
  let server: AgentServer;
  let remoteDir: string;
  let root: string;
  let id: string;
  let view: FinishedRemote['view'];

  before(async function () {
    remote = await finishedRemote(this, {
      prefix: 'review-',
      files: { 'a.txt': BASE },
      scenario: EDIT_AND_ADD,
      task: 'edit',
    });
    ({ server, remoteDir, root, id, view } = remote);
  });
  after(() => endRemote(remote, ['.git', 'a.txt', 'out.txt']));
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of ['.git', 'a.txt', 'out.txt']) rmSync(join(root, f), { recursive: true, force: true });
  });

  it("Review the Server's Changes and the chat's Open diff show the server's files, writing nothing here", async () => {
    const n = await vscode.commands.executeCommand<number>('logbook.reviewRemoteChanges', id);
    assert.equal(n, 2);
    await until(() => tabLabels().some((l) => l.includes('Changes on')), 'the multi-file diff', 10_000);
    // Both sides are what the server sent, read-only documents of their own scheme.
    const side = (s: string, p: string) =>
      vscode.Uri.from({ scheme: 'logbook-remote', path: `/${id}/${s}/${p}` });
    assert.equal((await vscode.workspace.openTextDocument(side('head', 'a.txt'))).getText(), BASE);
    assert.equal(
      (await vscode.workspace.openTextDocument(side('now', 'a.txt'))).getText(),
      `${BASE}server-line\n`,
    );
    assert.equal((await vscode.workspace.openTextDocument(side('now', 'out.txt'))).getText(), 'remote-ok\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Open diff on the edit's card in the chat opens the same review.
    const action = view.posted
      .flatMap((m) => (m.type === 'events' && m.conversationId === id ? m.events : []))
      .find((e) => e.event.kind === 'ActionEvent');
    assert.ok(action, 'the action reached the chat');
    view.send({ type: 'openDiff', conversationId: id, actionId: action.event.id });
    await until(() => tabLabels().some((l) => l.includes('Changes on')), 'the diff from the chat', 10_000);
    assert.equal(existsSync(join(root, 'out.txt')), false, 'a review wrote a local file');
    assert.equal(existsSync(join(root, 'a.txt')), false, 'a review wrote a local file');
  });

  it('Apply writes the change into a clean working tree, uncommitted', async () => {
    repoWithBase(root);
    const r = await vscode.commands.executeCommand<{ applied: string[]; conflicts: unknown[] }>(
      'logbook.applyRemoteChanges',
      id,
    );
    assert.deepEqual(r?.applied.sort(), ['a.txt', 'out.txt']);
    assert.deepEqual(r?.conflicts, []);
    assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), `${BASE}server-line\n`);
    assert.equal(readFileSync(join(root, 'out.txt'), 'utf8'), 'remote-ok\n');
    assert.ok(
      (statSync(join(root, 'out.txt')).mode & 0o111) !== 0,
      "out.txt without the server's executable bit",
    );
    assert.equal(git(root, 'rev-list', '--count', 'HEAD').trim(), '1', 'apply committed something');
  });

  it('Apply over a change here (confirmed) merges it; a conflicting one is marked, opened and named', async () => {
    repoWithBase(root);
    writeFileSync(join(root, 'a.txt'), `line 0\n${BASE}`);
    // Not confirmed (the modal is not answered): nothing is asked of the server, nothing written.
    assert.equal(await vscode.commands.executeCommand('logbook.applyRemoteChanges', id), undefined);
    assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), `line 0\n${BASE}`);
    assert.equal(existsSync(join(root, 'out.txt')), false);
    const merged = await vscode.commands.executeCommand<{ merged: string[] }>(
      'logbook.applyRemoteChanges',
      id,
      true,
    );
    assert.deepEqual(merged?.merged, ['a.txt']);
    assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), `line 0\n${BASE}server-line\n`);
    // The same line changed here: git's markers are left, the file opened, nothing resolved.
    git(root, 'checkout', '--quiet', '--', 'a.txt');
    rmSync(join(root, 'out.txt'));
    writeFileSync(join(root, 'a.txt'), `${BASE}local-line\n`);
    const r = await vscode.commands.executeCommand<{ conflicts: { path: string }[] }>(
      'logbook.applyRemoteChanges',
      id,
      true,
    );
    assert.deepEqual(
      r?.conflicts.map((c) => c.path),
      ['a.txt'],
    );
    const text = readFileSync(join(root, 'a.txt'), 'utf8');
    assert.match(
      text,
      /<<<<<<< a\.txt \(here\)\nlocal-line\n=======\nserver-line\n>>>>>>> a\.txt \(server\)/,
    );
    await until(() => tabLabels().includes('a.txt'), 'the conflicted file opened', 10_000);
  });

  it('Continue from here forks on the server up to the event and opens the fork in the chat', async () => {
    const { service } = await logbook();
    const task = view.posted
      .flatMap((m) => (m.type === 'events' && m.conversationId === id ? m.events : []))
      .find((e) => e.event.kind === 'MessageEvent' && e.event.source === 'user');
    assert.ok(task, 'the task reached the chat');
    view.send({ type: 'forkFrom', conversationId: id, eventId: task.event.id });
    await until(
      () => service.activeId !== undefined && service.activeId !== id,
      'the fork open in the chat',
      30_000,
    );
    const forkId = service.activeId!;
    const origin = JSON.parse(readFileSync(join(service.root, forkId, 'remote.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    // The fork keeps its source's base: the commit the server's HEAD was on at the start.
    assert.match(String(origin.base_commit), /^[0-9a-f]{40}$/);
    assert.deepEqual(origin, {
      server: server.url,
      conversation_id: forkId,
      working_dir: remoteDir,
      base_commit: origin.base_commit,
    });
    // The branch up to the task, as the server copied it, each event marked as received from it.
    const fork = (await service.remote.of(forkId))!;
    const events = (await fork.eventsAfter(-1)).map((e) => e.event);
    assert.ok(
      events.some((e) => e.kind === 'MessageEvent' && e.source === 'user'),
      'the task in the fork',
    );
    assert.ok(!events.some((e) => e.kind === 'ActionEvent'), 'an event after the fork point');
    assert.ok(
      events.every(
        (e) => (e as { received_from?: { server?: string } }).received_from?.server === server.url,
      ),
    );
    assert.equal(fork.header().model?.provider, 'remote');
    assert.equal((await service.verify(forkId)).verdict, 'verified');
    await until(
      () => view.posted.some((m) => m.type === 'conversation' && m.header?.id === forkId),
      'the fork shown in the chat',
      10_000,
    );
  });
});
