// Logbook: Import Conversation brings an OpenHands V0 trajectory file into the workspace's
// conversations and shows it in the chat. The open dialog is bypassed by passing the file's URI.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import trajectory from '../../unit/events/fixtures/openhands-v0-trajectory.json';
import { importV0Trajectory } from '../../../src/core/events';
import type { VerifyOutcome } from '../../../src/host/vscode/signing/verify';
import { logbook } from './helpers';

describe('Logbook: Import Conversation', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('imports an OpenHands V0 trajectory file given as a URI and opens it in the chat', async () => {
    const { service } = await logbook();
    dir = mkdtempSync(join(tmpdir(), 'logbook-v0-'));
    const file = join(dir, 'trajectory.json');
    writeFileSync(file, JSON.stringify(trajectory));
    const before = service.list().length;

    const id = await vscode.commands.executeCommand<string>(
      'logbook.importConversation',
      vscode.Uri.file(file),
    );
    assert.equal(typeof id, 'string', 'the command resolves to the new conversation id');
    assert.equal(service.activeId, id, 'the chat shows the imported conversation');
    assert.equal(service.list().length, before + 1);
    const entry = service.list().find((e) => e.id === id);
    assert.ok(entry, 'listed in the Conversations view');

    const session = await service.session(id);
    const events = await session.conversation.events();
    // Every V0 record, in order, as the core maps it (opening may add a state update after them).
    const expected = importV0Trajectory(trajectory as unknown[]);
    assert.deepEqual(
      events.slice(0, expected.length).map((e) => `${e.kind} ${e.id}`),
      expected.map((e) => `${e.kind} ${e.id}`),
    );
    const kinds = new Set<string>(events.map((e) => e.kind));
    for (const kind of ['SystemPromptEvent', 'MessageEvent', 'ActionEvent', 'ObservationEvent'])
      assert.ok(kinds.has(kind), `${kind} among ${[...kinds].join(', ')}`);
    const first = events.find((e) => e.kind === 'MessageEvent' && e.source === 'user');
    assert.ok(first, 'the user message of the trajectory');
    assert.ok((await service.eventCount(id)) >= expected.length);
    // The import is recorded as an event, and everything from it on is signed by this window's key.
    assert.ok(events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'imported_from'));
    const check = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
    assert.equal(check.result.status, 'verified', check.message);
    assert.equal(check.result.imported, expected.length);
    assert.match(
      check.message,
      new RegExp(`^${expected.length} imported unsigned events, then \\d+ verified`),
    );
  });

  it('refuses a file that is no trajectory and creates no conversation', async () => {
    const { service } = await logbook();
    dir = mkdtempSync(join(tmpdir(), 'logbook-v0-'));
    const file = join(dir, 'notes.json');
    writeFileSync(file, '{"notes": "not a trajectory"}');
    const before = service.list().length;
    const id = await vscode.commands.executeCommand<string | undefined>('logbook.importConversation', file);
    assert.equal(id, undefined);
    assert.equal(service.list().length, before);
  });
});
