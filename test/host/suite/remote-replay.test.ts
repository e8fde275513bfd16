// Replay Conversation of a conversation that ran on the real agent-server: it replays as `logbook
// replay --workspace` does, the window's folder standing for the clone. The copy holds the files of
// the server's HEAD at the start, taken from the folder's repository; the chat shows the card; the
// folder and its repository are not touched. Without the commit there it is refused in words.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { ReplayReport } from '../../../src/protocol/messages';
import { remoteEditAndCommand } from '../../support/remote-replay-scenario';
import { endRemote, finishedRemote, type FinishedRemote, git } from './remote-finished';

/** Every file under `dir` (with .git) and its bytes and mode, to see that nothing changed. */
function snapshot(dir: string, only: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, name.name);
      if (name.isDirectory()) walk(p);
      else out.set(relative(dir, p), `${statSync(p).mode} ${readFileSync(p).toString('base64')}`);
    }
  };
  for (const name of only) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else out.set(name, `${statSync(p).mode} ${readFileSync(p).toString('base64')}`);
  }
  return out;
}

describe('Replay Conversation of a remote conversation (the real agent-server)', function () {
  this.timeout(180_000);
  let remote: FinishedRemote | undefined;
  let remoteDir: string;
  let root: string;
  let id: string;
  let view: FinishedRemote['view'];
  const cleanRoot = () => {
    for (const f of ['.git', 'a.txt', 'b.txt']) rmSync(join(root, f), { recursive: true, force: true });
  };

  before(async function () {
    remote = await finishedRemote(this, {
      prefix: 'replay-',
      files: { 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n' },
      scenario: (dir) => remoteEditAndCommand(dir, 'host-remote-replay'),
      task: 'edit',
    });
    ({ remoteDir, root, id, view } = remote);
  });
  after(() => endRemote(remote, ['.git', 'a.txt', 'b.txt']));
  afterEach(() => cleanRoot());

  /** The command's outcome and the error messages it showed. */
  async function replay(): Promise<{ report: ReplayReport | undefined; errors: string[] }> {
    const errors: string[] = [];
    const original = vscode.window.showErrorMessage;
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = (msg: string) => {
      errors.push(msg);
      return Promise.resolve(undefined);
    };
    try {
      const report = await vscode.commands.executeCommand<ReplayReport | undefined>(
        'logbook.replayConversation',
        id,
        { confirmed: true },
      );
      return { report, errors };
    } finally {
      (vscode.window as { showErrorMessage: unknown }).showErrorMessage = original;
    }
  }

  it("is refused in words when the folder's repository lacks the server's start commit", async () => {
    git(root, 'init', '--quiet', '--initial-branch=main');
    const { report, errors } = await replay();
    assert.equal(report, undefined);
    const baseCommit = git(remoteDir, 'rev-parse', 'main').trim();
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, new RegExp(`does not have commit ${baseCommit}`));
    assert.ok(!view.posted.some((m) => m.type === 'replay' && m.conversationId === id), 'no card shown');
  });

  it("asks first, in words that name the server's start commit the copy holds", async () => {
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'fetch', '--quiet', remoteDir, 'main');
    const asked: { message: string; detail?: string }[] = [];
    const original = vscode.window.showWarningMessage;
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = (
      message: string,
      options: { detail?: string },
    ) => {
      asked.push({ message, ...(options?.detail ? { detail: options.detail } : {}) });
      return Promise.resolve(undefined);
    };
    let report: ReplayReport | undefined;
    try {
      report = await vscode.commands.executeCommand<ReplayReport | undefined>(
        'logbook.replayConversation',
        id,
      );
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = original;
    }
    assert.equal(report, undefined, 'the user said no: nothing ran');
    assert.equal(asked.length, 1);
    const commit = git(remoteDir, 'rev-parse', 'main').trim().slice(0, 12);
    assert.match(asked[0]!.detail ?? '', new RegExp(`files of commit ${commit}, the agent-server's HEAD`));
  });

  it("replays on the files of the server's start commit: no divergence, the folder byte-identical", async () => {
    // The window's folder is a clone that has the commit (fetched, not checked out: only its objects).
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'fetch', '--quiet', remoteDir, 'main');
    const before = snapshot(root, ['.git']);
    const { report, errors } = await replay();
    assert.deepEqual(errors, []);
    assert.ok(report, 'a report');
    assert.equal(report.outcome, 'same', JSON.stringify(report));
    // The edit, the command and the finish.
    assert.equal(report.actions, 3);
    // The chat showed the card: the replay started, then its outcome.
    const cards = view.posted.filter((m) => m.type === 'replay' && m.conversationId === id);
    assert.ok(
      cards.some((m) => m.type === 'replay' && m.report?.outcome === 'same'),
      JSON.stringify(cards),
    );
    assert.deepEqual(snapshot(root, ['.git']), before);
    assert.ok(
      !existsSync(join(root, 'a.txt')) && !existsSync(join(root, 'b.txt')),
      'nothing checked out here',
    );
  });
});
