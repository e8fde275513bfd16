// The chat's timeline and Replay Conversation in the real extension host. An agent run against the
// scripted model changes files in two commands; the timeline (through the chat controller, as the
// webview asks) gives the state and the files changed at an event between them and at the end,
// opens their diffs, and opens the files at that point as read-only virtual documents; a path it
// did not list is refused. "Logbook: Replay Conversation" replays the run on a fresh copy and
// says "no divergence" in the chat, also for commands whose shell read the user's startup files (their
// chatter is no divergence); a run whose command prints something new each time (the clock's
// nanoseconds) diverges.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage, ReplayReport, TimelinePoint } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { logbook, recordingWebview, scriptedModel, until, workspaceRoot } from './helpers';

const FILES = ['tl-a.txt', 'tl-b.txt', 'tl-shell.txt'];
const CHATTER = "pyenv: cannot rehash: the shims folder isn't writable";

function commands(name: string, list: string[]): Scenario {
  return {
    name,
    turns: [
      ...list.map((command, i) => ({
        match: { lastRole: i === 0 ? ('user' as const) : ('tool' as const) },
        reply: {
          toolCalls: [
            {
              id: `call_${i}`,
              name: 'terminal',
              arguments: { command, security_risk: 'LOW', summary: `step ${i + 1}` },
            },
          ],
        },
      })),
      { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
    ],
  };
}

const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

describe('Timeline and Replay Conversation', function () {
  this.timeout(180_000);
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  const path = (p: string) => join(workspaceRoot(), p);
  const warnings: string[] = [];
  const log = {
    info: () => undefined,
    warn: (m: string) => void warnings.push(m),
    error: (m: string) => void warnings.push(m),
  };

  afterEach(async () => {
    controller?.dispose();
    controller = undefined;
    await llm?.close();
    llm = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of FILES) rmSync(path(f), { force: true });
    warnings.length = 0;
  });

  /** Runs the agent on `scenario`; returns the conversation's id once it finished. */
  async function run(scenario: Scenario, task: string): Promise<string> {
    llm = await scriptedModel(scenario);
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', task);
    const session = await service.session(id);
    // A command the rules hold for approval is approved, as the user would.
    while ((await session.settled()) === 'waiting_for_confirmation')
      await session.approve(session.conversation.awaitingConfirmation().map((a) => a.id));
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    await llm.close();
    llm = undefined;
    return id;
  }

  /** A controller bound to the service, as the chat view is, holding the conversation shown. */
  async function chat(id: string) {
    const { service } = await logbook();
    await service.setActive(id);
    const view = recordingWebview();
    controller = new ChatController(view.port, service, log);
    view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    await until(() => view.posted.some((m) => m.type === 'conversation' && m.header?.id === id), 'the view');
    let requestId = 0;
    const seek = async (seq: number): Promise<Extract<HostMessage, { type: 'timelinePoint' }>> => {
      const asked = ++requestId;
      view.send({ type: 'timelineSeek', conversationId: id, requestId: asked, seq });
      await until(
        () => view.posted.some((m) => m.type === 'timelinePoint' && m.requestId === asked),
        `the point at ${seq}`,
      );
      return view.posted.find(
        (m): m is Extract<HostMessage, { type: 'timelinePoint' }> =>
          m.type === 'timelinePoint' && m.requestId === asked,
      )!;
    };
    return { view, seek };
  }

  it('shows the state and the changed files at an event, their diffs, and the files read-only', async () => {
    writeFileSync(path('tl-a.txt'), 'start\n');
    const id = await run(
      commands('host-timeline', ['echo one > tl-a.txt', 'echo two > tl-a.txt && echo bee > tl-b.txt']),
      'Change the files twice',
    );
    const { service } = await logbook();
    const session = await service.session(id);
    const events = await session.readableEvents(0);
    const secondAction = events.find(
      (e) =>
        e.event.kind === 'ActionEvent' &&
        (e.event as { tool_call?: { id?: string } }).tool_call?.id === 'call_1',
    );
    assert.ok(secondAction);
    const between = secondAction.seq - 1;
    const { view, seek } = await chat(id);

    const mid = (await seek(between)).point as TimelinePoint;
    assert.ok(mid, 'a point');
    assert.equal(mid.seq, between);
    // Only this suite's files: a suite before it may still be writing its own in the workspace.
    const own = (p: TimelinePoint) =>
      p.files.filter((f) => f.path.startsWith('tl-')).map((f) => `${f.status} ${f.path}`);
    assert.deepEqual(own(mid), ['M tl-a.txt']);
    assert.ok(mid.promptTokens > 0, 'the model was called by then');
    assert.equal(mid.mode, 'act');
    const last = session.eventCount - 1;
    const end = (await seek(last)).point as TimelinePoint;
    assert.equal(end.status, 'finished');
    assert.deepEqual(own(end).sort(), ['A tl-b.txt', 'M tl-a.txt']);
    assert.ok(end.promptTokens > mid.promptTokens);
    assert.equal(end.lastSeq, last);

    // Beyond the log: an error in words, no point.
    const beyond = await seek(last + 5);
    assert.equal(beyond.point, null);
    assert.match(beyond.error ?? '', /no event/);

    // The diffs of a changed file: start to the event, the event to now.
    view.send({ type: 'timelineDiff', conversationId: id, seq: between, path: 'tl-a.txt', against: 'start' });
    const startLabel = `tl-a.txt (start ↔ event ${between + 1})`;
    await until(() => tabs().some((t) => t.label === startLabel), 'the start diff');
    const startTab = tabs().find((t) => t.label === startLabel)!.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(startTab.original)).getText(), 'start\n');
    assert.equal((await vscode.workspace.openTextDocument(startTab.modified)).getText(), 'one\n');
    view.send({ type: 'timelineDiff', conversationId: id, seq: between, path: 'tl-a.txt', against: 'now' });
    const nowLabel = `tl-a.txt (event ${between + 1} ↔ now)`;
    await until(() => tabs().some((t) => t.label === nowLabel), 'the now diff');
    const nowTab = tabs().find((t) => t.label === nowLabel)!.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(nowTab.original)).getText(), 'one\n');
    assert.equal((await vscode.workspace.openTextDocument(nowTab.modified)).getText(), 'two\n');

    // A path the point does not list is refused: nothing opens, the log says why.
    const before = tabs().length;
    warnings.length = 0;
    view.send({
      type: 'timelineDiff',
      conversationId: id,
      seq: between,
      path: '../../etc/passwd',
      against: 'now',
    });
    view.send({ type: 'timelineDiff', conversationId: id, seq: between, path: 'tl-b.txt', against: 'start' });
    await until(() => warnings.length >= 2, 'the refusals');
    assert.ok(
      warnings.every((w) => /not a file this conversation changed/.test(w)),
      warnings.join('\n'),
    );
    assert.equal(tabs().length, before);

    // Open files at this point: the event's versions, as read-only virtual documents.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const opened = await service.timeline.openFiles(id, last);
    // Named for the point they show, so no tab reads like the live file's.
    const atEnd = (f: string) => `${f} (at event ${last + 1}, read-only)`;
    assert.deepEqual(opened.map((u) => u.path).sort(), [`/${atEnd('tl-a.txt')}`, `/${atEnd('tl-b.txt')}`]);
    assert.ok(opened.every((u) => u.scheme === 'logbook-checkpoint'));
    await until(
      () => [atEnd('tl-a.txt'), atEnd('tl-b.txt')].every((l) => tabs().some((t) => t.label === l)),
      'the tabs named for the point',
    );
    assert.ok(!tabs().some((t) => t.label === 'tl-a.txt'), 'no tab named like the live file');
    const a = await vscode.workspace.openTextDocument(
      opened.find((u) => u.path === `/${atEnd('tl-a.txt')}`)!,
    );
    assert.equal(a.getText(), 'two\n');
    // The user types into it: the editor is read-only, nothing changes.
    await vscode.window.showTextDocument(a, { preserveFocus: false });
    await vscode.commands.executeCommand('type', { text: 'typed ' });
    assert.equal(a.getText(), 'two\n', 'a checkpoint document takes no typing');
    assert.ok(!a.isDirty);
    assert.equal(readFileSync(path('tl-a.txt'), 'utf8'), 'two\n', 'the file on disk is untouched');
    // Through the chat too.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    view.send({ type: 'timelineOpenFiles', conversationId: id, seq: between });
    await until(
      () => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'logbook-checkpoint'),
      'the files at the event',
    );
    const shown = vscode.window.visibleTextEditors.find(
      (e) => e.document.uri.scheme === 'logbook-checkpoint',
    )!;
    assert.equal(shown.document.getText(), 'one\n');
    assert.ok(tabs().some((t) => t.label === `tl-a.txt (at event ${between + 1}, read-only)`));
  });

  it('Replay Conversation replays a run identically, and shows it in the chat', async () => {
    writeFileSync(path('tl-a.txt'), 'start\n');
    // File edits, not commands: the editor's terminal loads the user's shell startup files, whose
    // chatter (a tool manager's warning) a replay's plain shell would not print.
    const edit = (id: string, args: Record<string, unknown>) => ({
      id,
      name: 'file_editor',
      arguments: { ...args, security_risk: 'LOW', summary: id },
    });
    const id = await run(
      {
        name: 'host-replay-same',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: {
              toolCalls: [
                edit('call_0', {
                  command: 'str_replace',
                  path: 'tl-a.txt',
                  old_str: 'start',
                  new_str: 'one',
                }),
              ],
            },
          },
          {
            match: { lastRole: 'tool' },
            reply: { toolCalls: [edit('call_1', { command: 'view', path: 'tl-a.txt' })] },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      },
      'Write one',
    );
    const { view } = await chat(id);
    const before = readFileSync(path('tl-a.txt'), 'utf8');
    // The workspace changes after the run: the replay works on its own copy of the first checkpoint.
    writeFileSync(path('tl-a.txt'), 'changed since\n');
    const report = await vscode.commands.executeCommand<ReplayReport>('logbook.replayConversation', id, {
      confirmed: true,
    });
    assert.deepEqual(report, { outcome: 'same', actions: 2 });
    assert.equal(readFileSync(path('tl-a.txt'), 'utf8'), 'changed since\n', 'the workspace is left alone');
    assert.equal(before, 'one\n');
    const cards = view.posted.filter((m) => m.type === 'replay');
    assert.deepEqual(cards, [
      { type: 'replay', conversationId: id },
      { type: 'replay', conversationId: id, report: { outcome: 'same', actions: 2 } },
    ]);
  });

  it('Replay Conversation runs commands in the kind of shell the recording used: its startup chatter is no divergence', async () => {
    // The user's startup files print a tool manager's warning and set a variable. The editor's
    // terminal (here its fallback, a login shell, which keeps the warning out of the commands'
    // output) reads them; the replay's shell must too, and take the warning for what it is.
    const home = mkdtempSync(join(tmpdir(), 'logbook-home-'));
    writeFileSync(join(home, '.profile'), '. "$HOME/.bashrc"\n');
    writeFileSync(join(home, '.bashrc'), `export RC_GREETING=from-rc\necho "${CHATTER}" >&2\n`);
    const realHome = process.env['HOME'];
    const terminal = vscode.workspace.getConfiguration('terminal.integrated');
    const logbookSettings = vscode.workspace.getConfiguration('logbook');
    process.env['HOME'] = home;
    await terminal.update('shellIntegration.enabled', false, vscode.ConfigurationTarget.Global);
    await logbookSettings.update('sandbox.mode', 'off', vscode.ConfigurationTarget.Global);
    try {
      const id = await run(
        commands('host-replay-startup', ['echo "[$RC_GREETING]" > tl-shell.txt', 'cat tl-shell.txt']),
        'Greet from the startup file',
      );
      const { service } = await logbook();
      const recorded = (await (await service.session(id)).readableEvents(0)).map((r) => r.event);
      const first = recorded.find((e) => e.kind === 'ObservationEvent' && e.tool_call_id === 'call_0');
      assert.ok(first, 'the first command was recorded');
      assert.doesNotMatch(JSON.stringify(first), /cannot rehash/, 'the startup chatter is in no output');
      assert.ok(
        recorded.some(
          (e) =>
            e.kind === 'ConversationStateUpdateEvent' &&
            e.key === 'shell' &&
            JSON.stringify(e.value) === '{"startup":"user"}',
        ),
        "the log says the shell read the user's startup files",
      );
      assert.equal(readFileSync(path('tl-shell.txt'), 'utf8'), '[from-rc]\n');
      const report = await vscode.commands.executeCommand<ReplayReport>('logbook.replayConversation', id, {
        confirmed: true,
      });
      assert.deepEqual(report, { outcome: 'same', actions: 2 }, JSON.stringify(report, null, 1));
    } finally {
      process.env['HOME'] = realHome;
      await terminal.update('shellIntegration.enabled', undefined, vscode.ConfigurationTarget.Global);
      await logbookSettings.update('sandbox.mode', undefined, vscode.ConfigurationTarget.Global);
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('Replay Conversation shows the first divergence', async () => {
    const id = await run(
      commands('host-replay-diverged', ['date +%N > tl-a.txt && cat tl-a.txt']),
      'Write a random number',
    );
    const { view } = await chat(id);
    const report = await vscode.commands.executeCommand<ReplayReport>('logbook.replayConversation', id, {
      confirmed: true,
    });
    assert.equal(report.outcome, 'diverged');
    assert.ok(report.outcome === 'diverged');
    assert.equal(report.ordinal, 1);
    assert.equal(report.tool, 'terminal');
    assert.match(report.what, /date/);
    assert.ok(report.diff.some((l) => l.startsWith('+ ')) && report.diff.some((l) => l.startsWith('- ')));
    assert.ok(report.seq !== undefined && report.seq > 0);
    const card = view.posted.filter((m) => m.type === 'replay').at(-1);
    assert.deepEqual(card, { type: 'replay', conversationId: id, report });
  });
});
