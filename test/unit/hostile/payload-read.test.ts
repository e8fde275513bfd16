// A log whose tool payload was edited by hand (the event's shape still valid, its payload not what
// its tool writes) reads back as a corrupt record with the reason, in the CLI's readers and in a
// session opened on it: the store opens before the conversation's tools exist, and must not read
// such a record as an action. Nothing else recorded is lost.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { createEvent, type Event } from '../../../src/core/events';
import { isCorruptRecord, SegmentEventStore } from '../../../src/core/log';
import { openNodeConversation } from '../../../src/host/node/node-session';
import { jsonLines, printed, runCli } from '../cli/cli-runner';

/** A terminal action whose command is a number: the event's shape is valid, the terminal's payload is not. */
const editedAction = (): Event =>
  createEvent('ActionEvent', {
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
    llm_response_id: 'r1',
    action: { kind: 'TerminalAction', command: 42 },
    thought: [],
    summary: 'list',
  } as never);

const userMessage = (): Event =>
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'list the files' }] },
  } as never);

/** Writes the log as a hand edit would leave it: each record whole, its checksum right. */
async function editedLog(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const store = await SegmentEventStore.open<StoredConversationEvent>(dir, { codec: conversationEventCodec });
  await store.append(userMessage() as StoredConversationEvent);
  await store.append(editedAction() as StoredConversationEvent);
  await store.close();
}

describe('hostile: a hand-edited tool payload reads as a corrupt record', function () {
  this.timeout(60_000);
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'logbook-payload-read-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('logbook show counts it unreadable and keeps the rest', async () => {
    const dir = join(root, 'conversation');
    await editedLog(dir);
    const r = await runCli(['show', dir, '--json']);
    assert.equal(r.code, 0, printed(r));
    const [report] = jsonLines(r);
    assert.equal(report!.corrupt_records, 1, printed(r));
    assert.equal(report!.event_count, 1, printed(r));
  });

  it('a node session opened on it reads the record as corrupt, with the reason, and the message whole', async () => {
    const dir = join(root, 'conversation');
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    await editedLog(dir);
    const session = await openNodeConversation({
      storeDir: dir,
      workspace,
      llmSettings: {
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'test-key',
        model: 'scripted-model',
        maxRetries: 0,
      },
      confirmationMode: 'never',
      condenser: null,
    });
    try {
      const slots = await session.store.slice(0, 2);
      assert.equal(slots[0]!.kind, 'MessageEvent');
      const edited = slots[1]!;
      assert.ok(isCorruptRecord(edited), `read as ${edited.kind}`);
      assert.match(edited.reason, /action\.command/);
      assert.ok(!(await session.conversation.events()).some((e) => e.kind === 'ActionEvent'));
    } finally {
      await session.close();
    }
  });
});
