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

/**
 * Actions whose shape is a valid event's and whose payload is not what their tool writes: a
 * terminal command that is a number, a fetch without a URL, an MCP call whose arguments are text.
 */
const editedActions = (): Event[] =>
  [
    ['terminal', { kind: 'TerminalAction', command: 42 }],
    ['fetch', { kind: 'FetchAction', url: null }],
    ['probe_echo', { kind: 'MCPToolAction', data: 'rm -rf ~' }],
  ].map(([tool, action], n) =>
    createEvent('ActionEvent', {
      tool_name: tool,
      tool_call_id: `call_${n}`,
      tool_call: { id: `call_${n}`, name: tool, arguments: '{}', origin: 'completion' },
      llm_response_id: 'r1',
      action,
      thought: [],
      summary: String(tool),
    } as never),
  );

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
  for (const e of editedActions()) await store.append(e as StoredConversationEvent);
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
    assert.equal(report!.corrupt_records, 3, printed(r));
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
      const slots = await session.store.slice(0, 4);
      assert.equal(slots[0]!.kind, 'MessageEvent');
      const reasons = slots.slice(1).map((s) => (isCorruptRecord(s) ? s.reason : `read as ${s.kind}`));
      assert.equal(reasons.length, 3);
      for (const [n, field] of ['action.command', 'action.url', 'action.data'].entries()) {
        assert.ok(reasons[n]!.includes(field), reasons[n]);
      }
      assert.ok(!(await session.conversation.events()).some((e) => e.kind === 'ActionEvent'));
    } finally {
      await session.close();
    }
  });
});
