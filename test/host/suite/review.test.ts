import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import fc from 'fast-check';
import * as vscode from 'vscode';
import { acceptIntoBaseline, computeHunks, revertInCurrent } from '../../../src/host/vscode/review/hunks';
import { WorkspaceFilePort } from '../../../src/host/vscode/ports/workspace-file-port';
import { pathToUri } from '../../../src/host/vscode/ports/workspace-paths';
import { registerReview, ReviewingFilePort, type ReviewController } from '../../../src/host/vscode/review';
import { notPendingText } from '../../../src/host/vscode/review/proposals';
import { proposedUri } from '../../../src/host/vscode/review/virtual-documents';

// Its own command prefix, so this controller never collides with the extension's.
const PREFIX = 'logbook.test.review';
const workspaceRoot = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const files = new WorkspaceFilePort({ confirmOutside: async () => false });

async function diskBytes(p: string): Promise<Buffer | undefined> {
  try {
    return Buffer.from(await vscode.workspace.fs.readFile(pathToUri(p)));
  } catch {
    return undefined;
  }
}

async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  ms = 4000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The document, or a failure saying VS Code could not open it (it may wait or reject). */
async function openWithin(uri: vscode.Uri, ms = 5000): Promise<vscode.TextDocument> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${uri.toString()} did not open within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(vscode.workspace.openTextDocument(uri)), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function lenses(file: string): Promise<vscode.CodeLens[]> {
  const all = await vscode.commands.executeCommand<vscode.CodeLens[]>(
    'vscode.executeCodeLensProvider',
    pathToUri(file),
  );
  return all.filter((l) => l.command?.command.startsWith(PREFIX));
}

async function runLens(lens: vscode.CodeLens): Promise<unknown> {
  return vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
}

describe('review: inline diff review of agent edits', function () {
  this.timeout(30_000);
  let context: { subscriptions: vscode.Disposable[] };
  let review: ReviewController;
  let dir: string;
  let conversation: string;

  const start = () => {
    context = { subscriptions: [] };
    review = registerReview(context, { commandPrefix: PREFIX });
  };
  const stop = () => {
    for (const d of context.subscriptions) d.dispose();
  };

  async function seed(name: string, text: string): Promise<string> {
    const file = path.join(dir, name);
    await vscode.workspace.fs.writeFile(pathToUri(file), Buffer.from(text, 'utf8'));
    return file;
  }

  // Agent writes go through the reviewing port, as the extension wires it.
  async function agentWrite(file: string, after: string, conversationId = conversation): Promise<void> {
    await new ReviewingFilePort(files, review, { conversationId, actionId: () => randomUUID() }).writeText(
      file,
      after,
    );
  }

  before(start);
  after(stop);
  beforeEach(async () => {
    conversation = `conv-${randomUUID().slice(0, 8)}`;
    dir = path.join(workspaceRoot(), `review-test-${randomUUID().slice(0, 8)}`);
    await vscode.workspace.fs.createDirectory(pathToUri(dir));
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(pathToUri(dir), { recursive: true, useTrash: false });
  });

  it('decorates added and removed lines and provides CodeLenses per hunk and per file', async () => {
    const file = await seed('shapes.txt', 'one\ntwo\nthree\nfour\nfive\n');
    await agentWrite(file, 'one\nTWO\nthree\nfive\nsix\n');
    const editor = await vscode.window.showTextDocument(pathToUri(file));

    const applied = await eventually(() => review.decorationsOf(editor.document.uri), 'decorations');
    assert.deepEqual(
      applied.added.map((r) => [r.start.line, r.end.line]),
      [
        [1, 1],
        [4, 4],
      ],
    );
    // "two" replaced on line 1; "four" removed where "five" (line 3) now starts: each removal is
    // marked on the line it stood above, not drawn after a line where it would read as code.
    assert.deepEqual(
      applied.removed.map((r) => r.start.line),
      [1, 3],
    );

    const found = await lenses(file);
    const titles = found.map((l) => `${l.range.start.line}:${l.command!.title}`);
    assert.ok(titles.includes('0:$(check-all) Accept All (3 changes)'), titles.join(', '));
    assert.ok(titles.includes('0:$(discard) Reject All'));
    for (const line of [1, 3, 4]) {
      assert.ok(
        titles.includes(`${line}:$(check) Accept`),
        `accept lens on line ${line}: ${titles.join(', ')}`,
      );
      assert.ok(titles.includes(`${line}:$(close) Reject`), `reject lens on line ${line}`);
    }
    // The removed text is named in the row above where it was, with all of it in the tooltip.
    assert.ok(titles.includes('1:$(diff-removed) removed: two'), titles.join(', '));
    assert.ok(titles.includes('3:$(diff-removed) removed: four'), titles.join(', '));
    const removedFour = found.find((l) => l.command!.title.endsWith('removed: four'))!;
    assert.match(String(removedFour.command!.tooltip), /four/);
    for (const lens of found) assert.ok(lens.command!.tooltip, `a tooltip on "${lens.command!.title}"`);
  });

  it('clears its marks in every editor showing the file once the changes are accepted', async () => {
    const file = await seed('twice.txt', 'a\nb\nc\n');
    await agentWrite(file, 'a\nB\nc\nd\n');
    await vscode.window.showTextDocument(pathToUri(file), { viewColumn: vscode.ViewColumn.One });
    await vscode.window.showTextDocument(pathToUri(file), { viewColumn: vscode.ViewColumn.Two });
    await eventually(
      () => review.decorationsIn(pathToUri(file)).length === 2 || undefined,
      'both editors marked',
    );

    for (const accept of (await lenses(file)).filter((l) => l.command!.title === '$(check) Accept')) {
      assert.equal(await runLens(accept), true);
    }
    assert.deepEqual(review.hunks(file), []);
    assert.deepEqual(review.decorationsIn(pathToUri(file)), [], 'no editor keeps a mark');

    // Marks come back when the file changes again (a restore, an undo) and go with the change.
    await agentWrite(file, 'a\nB\nc\n');
    await eventually(() => review.decorationsIn(pathToUri(file)).length === 2 || undefined, 'marked again');
    await vscode.commands.executeCommand(`${PREFIX}.rejectFile`, {
      conversationId: conversation,
      path: file,
    });
    assert.deepEqual(review.decorationsIn(pathToUri(file)), [], 'no editor keeps a mark after a reject');
  });

  it('rejects each hunk of a CRLF file without a final newline back to the exact bytes', async () => {
    const original = 'a\r\nb\r\nc\r\nd\r\ne';
    const file = await seed('crlf.txt', original);
    await agentWrite(file, 'top\r\na\r\nB\r\nc\r\nd\r\nnew\r\ne!');
    await vscode.window.showTextDocument(pathToUri(file));
    assert.equal((await lenses(file)).filter((l) => l.command!.title.includes('Reject')).length, 4);

    for (let i = 0; i < 3; i++) {
      const reject = (await lenses(file)).find((l) => l.command!.title === '$(close) Reject');
      assert.ok(reject, `hunk ${i} has a reject lens`);
      assert.equal(await runLens(reject), true);
    }
    assert.deepEqual(await diskBytes(file), Buffer.from(original, 'utf8'));
    assert.equal((await lenses(file)).length, 0, 'no lens once every hunk is rejected');
    const doc = await vscode.workspace.openTextDocument(pathToUri(file));
    assert.equal(doc.isDirty, false);
    assert.deepEqual(review.decorationsOf(doc.uri), undefined);
  });

  it('restores a missing or an added final newline exactly', async () => {
    const noNewline = await seed('no-newline.txt', 'x\ny');
    await agentWrite(noNewline, 'x\ny\nz\n');
    assert.equal(review.hunks(noNewline).length, 1);
    await vscode.commands.executeCommand(`${PREFIX}.rejectHunk`, {
      conversationId: conversation,
      path: noNewline,
      ...review.hunks(noNewline)[0]!,
    });
    assert.deepEqual(await diskBytes(noNewline), Buffer.from('x\ny'));

    const withNewline = await seed('with-newline.txt', 'p\nq\n');
    await agentWrite(withNewline, 'p\nq');
    const [hunk] = review.hunks(withNewline);
    assert.ok(hunk);
    assert.equal(await review.rejectHunk({ conversationId: conversation, path: withNewline, ...hunk }), true);
    assert.deepEqual(await diskBytes(withNewline), Buffer.from('p\nq\n'));
  });

  it('keeps an accepted hunk and folds it into the baseline served by logbook-baseline', async () => {
    const file = await seed('accept.txt', 'l1\nl2\nl3\nl4\n');
    await agentWrite(file, 'L1\nl2\nl3\nL4\n');
    const baseline = await vscode.workspace.openTextDocument(review.baselineUri(conversation, file));
    assert.equal(baseline.getText(), 'l1\nl2\nl3\nl4\n');

    await vscode.window.showTextDocument(pathToUri(file));
    const accept = (await lenses(file)).find(
      (l) => l.command!.title === '$(check) Accept' && l.range.start.line === 0,
    );
    assert.ok(accept);
    assert.equal(await runLens(accept), true);
    assert.deepEqual(
      await diskBytes(file),
      Buffer.from('L1\nl2\nl3\nL4\n'),
      'accepting does not touch the file',
    );
    assert.equal(review.baselineText(conversation, file), 'L1\nl2\nl3\nl4\n');
    await eventually(() => baseline.getText() === 'L1\nl2\nl3\nl4\n', 'the baseline document to update');
    assert.equal(review.hunks(file).length, 1);

    const reject = (await lenses(file)).find((l) => l.command!.title === '$(close) Reject');
    assert.ok(reject);
    await runLens(reject);
    assert.deepEqual(await diskBytes(file), Buffer.from('L1\nl2\nl3\nl4\n'));
  });

  it('rejectAll restores and deletes created files; acceptAll keeps, per conversation', async () => {
    const edited = await seed('edited.txt', 'keep me\n');
    const created = path.join(dir, 'nested', 'created.txt');
    await agentWrite(edited, 'changed\n');
    await agentWrite(created, 'brand new\n');
    const other = `other-${conversation}`;
    const otherFile = await seed('other.txt', 'before\n');
    await agentWrite(otherFile, 'after\n', other);

    await vscode.commands.executeCommand(`${PREFIX}.rejectAll`, conversation);
    assert.deepEqual(await diskBytes(edited), Buffer.from('keep me\n'));
    assert.equal(await diskBytes(created), undefined, 'the created file is deleted');
    assert.deepEqual(await diskBytes(otherFile), Buffer.from('after\n'), 'another conversation is untouched');
    assert.deepEqual(review.changedFiles(conversation), []);

    await vscode.commands.executeCommand(`${PREFIX}.acceptAll`, other);
    assert.deepEqual(await diskBytes(otherFile), Buffer.from('after\n'));
    assert.deepEqual(review.hunks(otherFile, other), []);
    assert.equal(review.baselineText(other, otherFile), undefined, 'an accepted file leaves the review');

    // Per-file commands from the CodeLens at the top of the file.
    await agentWrite(otherFile, 'after, again\n', other);
    await vscode.window.showTextDocument(pathToUri(otherFile));
    const rejectAll = (await lenses(otherFile)).find((l) => l.command!.title === '$(discard) Reject All');
    assert.ok(rejectAll);
    await runLens(rejectAll);
    assert.deepEqual(await diskBytes(otherFile), Buffer.from('after\n'));
  });

  it('records edits given by the caller, and forgets a creation the agent deleted itself', async () => {
    const file = await seed('manual.txt', 'old\n');
    await files.writeText(file, 'new\n');
    review.recordEdit({
      conversationId: conversation,
      actionId: 'a1',
      path: file,
      before: 'old\n',
      after: 'new\n',
    });
    review.recordEdit({
      conversationId: conversation,
      actionId: 'a2',
      path: file,
      before: 'new\n',
      after: 'new\n',
    });
    assert.equal(review.baselineText(conversation, file), 'old\n', 'the first edit sets the baseline');
    const saved = review.snapshot(conversation).conversations[conversation]!;
    assert.deepEqual(
      saved.map((f) => f.actionIds),
      [['a1', 'a2']],
    );

    const created = path.join(dir, 'scratch.txt');
    const port = new ReviewingFilePort(files, review, { conversationId: conversation, actionId: () => 'a3' });
    await port.writeText(created, 'temp\n');
    assert.equal(review.baselineText(conversation, created), null);
    await port.delete(created);
    assert.equal(review.baselineText(conversation, created), undefined);
    assert.deepEqual(review.takeUserEdits(conversation), []);
  });

  it('reports files the user changed since the agent last wrote them, once', async () => {
    const file = await seed('user.txt', 'alpha\nbeta\n');
    await agentWrite(file, 'alpha\nBETA\n');
    assert.deepEqual(review.takeUserEdits(conversation), []);

    const editor = await vscode.window.showTextDocument(pathToUri(file));
    await editor.edit((b) => b.insert(new vscode.Position(2, 0), 'gamma (user)\n'));
    const [note, ...rest] = review.takeUserEdits(conversation);
    assert.deepEqual(rest, []);
    assert.ok(note?.includes(path.relative(workspaceRoot(), file)), note);
    assert.match(note!, /\+gamma \(user\)/);
    assert.deepEqual(review.takeUserEdits(conversation), [], 'reported once');
    // The user's line is also a change against the baseline, so it is reviewed like the agent's.
    assert.equal(review.hunks(file).length, 1);

    await review.rejectFile({ conversationId: conversation, path: file });
    const [rejected] = review.takeUserEdits(conversation);
    assert.match(rejected!, /rejected all your changes/);
  });

  it('holds user-edit reports while the agent’s own changes are still being recorded', async () => {
    const file = await seed('held.txt', 'one\n');
    await agentWrite(file, 'two\n');
    // A command of the agent's changed the file again; its files are still read from the checkpoint.
    let recorded!: () => void;
    const held = review.recordWhile(conversation, new Promise<void>((r) => (recorded = r)));
    const doc = await vscode.workspace.openTextDocument(pathToUri(file));
    const byCommand = new vscode.WorkspaceEdit();
    byCommand.replace(doc.uri, new vscode.Range(0, 0, 1, 0), 'three\n');
    assert.ok(await vscode.workspace.applyEdit(byCommand));
    assert.deepEqual(review.takeUserEdits(conversation), [], 'not the user’s');
    review.recordEdit({
      conversationId: conversation,
      actionId: 'command',
      path: file,
      before: 'two\n',
      after: 'three\n',
    });
    recorded();
    await held;
    assert.deepEqual(review.takeUserEdits(conversation), [], 'recorded as the agent’s');
    // What the user changes after that is theirs.
    const byUser = new vscode.WorkspaceEdit();
    byUser.insert(doc.uri, new vscode.Position(1, 0), 'four (user)\n');
    assert.ok(await vscode.workspace.applyEdit(byUser));
    const [note, ...rest] = review.takeUserEdits(conversation);
    assert.deepEqual(rest, []);
    assert.match(note ?? '', /\+four \(user\)/);
    assert.doesNotMatch(note ?? '', /\+three/);
  });

  it('opens the changes of a conversation against its baselines', async () => {
    const a = await seed('a.txt', 'a\n');
    const b = await seed('b.txt', 'b\n');
    await agentWrite(a, 'A\n');
    await agentWrite(b, 'B\n');
    await vscode.commands.executeCommand(`${PREFIX}.showChanges`, conversation);
    const tab = await eventually(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /Logbook/.test(t.label)),
      'a changes tab',
    );
    assert.ok(tab.label.includes('Logbook'), tab.label);
  });

  it('shows a proposed edit as a diff and resolves with the decision', async () => {
    const file = await seed('proposal.txt', 'now\n');
    const decided = review.proposeEdit(file, 'proposed\n', { id: 'action-1', conversationId: conversation });
    const tab = await eventually(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find(
            (t) =>
              t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'logbook-proposed',
          ),
      'a proposal diff',
    );
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'proposed\n');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'now\n');
    assert.deepEqual(await diskBytes(file), Buffer.from('now\n'), 'nothing is written before the decision');

    await review.closeProposal('action-1', 'confirm');
    assert.equal(await decided, 'confirm');
    const stillOpen = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .some(
        (t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'logbook-proposed',
      );
    assert.equal(stillOpen, false);

    const second = review.proposeEdit(file, 'other\n', { id: 'action-2' });
    await eventually(
      () => vscode.window.activeTextEditor?.document.uri.scheme === 'logbook-proposed',
      'the diff',
    );
    await vscode.commands.executeCommand(
      `${PREFIX}.rejectProposal`,
      vscode.window.activeTextEditor!.document.uri,
    );
    assert.equal(await second, 'reject');
  });

  it('answers a proposed-edit document after its decision, and one from an earlier window', async () => {
    const file = await seed('decided.txt', 'was\n');
    // Its decision is checked above; here only the documents count.
    void review.proposeEdit(file, 'became\n', { id: 'action-decided' });
    const modified = proposedUri('action-decided', file, 'after');
    const isShown = (uri: vscode.Uri) => (d: vscode.TextDocument) => d.uri.toString() === uri.toString();
    await eventually(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .some(
            (t) =>
              t.input instanceof vscode.TabInputTextDiff &&
              t.input.modified.toString() === modified.toString(),
          ) && vscode.workspace.textDocuments.some(isShown(modified)),
      'the proposal diff',
    );
    await review.closeProposal('action-decided', 'confirm');
    // Closing the diff lets VS Code drop the document; reopening it (Reopen Closed Editor) asks again.
    await eventually(
      () => !vscode.workspace.textDocuments.some(isShown(modified)),
      'the decided document to be dropped',
      10_000,
    );
    assert.equal((await openWithin(modified)).getText(), 'became\n');
    assert.equal((await openWithin(proposedUri('action-decided', file, 'before'))).getText(), 'was\n');

    // A diff restored from before a reload names a proposal this window never made.
    const restored = proposedUri('action-of-an-earlier-window', file, 'after');
    const doc = await openWithin(restored);
    assert.equal(doc.getText(), notPendingText());
    // The conversation proposes it again (still awaiting confirmation): the document follows.
    await review.showProposal({ id: 'action-of-an-earlier-window', path: file, newText: 'again\n' });
    await eventually(() => doc.getText() === 'again\n', 'the restored document to show the proposal');
    await review.closeProposal('action-of-an-earlier-window', 'reject');
  });

  it('serializes its state and restores it in a new controller after a reload', async () => {
    const file = await seed('restore.txt', 'r1\r\nr2\r\nr3');
    await agentWrite(file, 'r1\r\nR2\r\nr3\r\nr4');
    const snapshot: unknown = JSON.parse(JSON.stringify(review.toJSON()));
    const hunksBefore = review.hunks(file);
    assert.equal(hunksBefore.length, 1);

    stop(); // the window reloads: providers and commands go away
    start();
    assert.deepEqual(review.hunks(file), []);
    assert.throws(() => review.fromJSON({ version: 2 }));
    review.fromJSON(snapshot);
    assert.deepEqual(review.hunks(file), hunksBefore);
    assert.equal(
      (await vscode.workspace.openTextDocument(review.baselineUri(conversation, file))).getText(),
      'r1\r\nr2\r\nr3',
    );
    await vscode.window.showTextDocument(pathToUri(file));
    const reject = (await lenses(file)).find((l) => l.command!.title === '$(close) Reject');
    assert.ok(reject, 'lenses come back');
    await runLens(reject);
    assert.deepEqual(await diskBytes(file), Buffer.from('r1\r\nr2\r\nr3'));
  });
});

describe('review: hunks (pure)', () => {
  const lines = fc
    .array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'dd', ''), fc.constantFrom('\n', '\r\n')), {
      maxLength: 12,
    })
    .chain((ls) =>
      fc.boolean().map((finalNewline) => {
        const text = ls.map(([l, eol]) => l + eol).join('');
        return finalNewline ? text : text.replace(/\r?\n$/, '');
      }),
    );

  it('rejecting every hunk gives the baseline back and accepting every hunk gives the current text', () => {
    fc.assert(
      fc.property(lines, lines, (baseline, current) => {
        const hunks = computeHunks(baseline, current);
        assert.equal(hunks.length === 0, baseline === current);
        // Later hunks first, so earlier offsets stay valid.
        const reverted = [...hunks].reverse().reduce((text, h) => revertInCurrent(text, h), current);
        assert.equal(reverted, baseline);
        const accepted = [...hunks].reverse().reduce((text, h) => acceptIntoBaseline(text, h), baseline);
        assert.equal(accepted, current);
      }),
    );
  });

  it('rejecting any single hunk leaves the other hunks in place', () => {
    fc.assert(
      fc.property(lines, lines, fc.nat(), (baseline, current, pick) => {
        const hunks = computeHunks(baseline, current);
        if (hunks.length === 0) return;
        const chosen = hunks[pick % hunks.length]!;
        const after = revertInCurrent(current, chosen);
        // The other hunks are untouched: only their offsets after the chosen one move.
        const delta = chosen.oldText.length - chosen.newText.length;
        const rest = hunks
          .filter((h) => h !== chosen)
          .map((h) => (h.newStart > chosen.newStart ? { ...h, newStart: h.newStart + delta } : h));
        const backToBaseline = rest.reverse().reduce((text, h) => revertInCurrent(text, h), after);
        assert.equal(backToBaseline, baseline);
      }),
    );
  });
});
