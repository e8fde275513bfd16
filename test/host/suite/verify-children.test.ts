// Logbook: Verify Conversation judges the whole agent tree, as `logbook verify` does: a delegated
// agent's log cut back (its head kept in the extension's storage says more events were signed)
// makes the conversation's verdict truncated and names the agent; an event added to that log
// makes it broken.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { VerifyOutcome } from '../../../src/host/vscode/signing/verify';
import type { ScriptedLlm } from '../../support/llm-server';
import { appendEvent, cutBack, earlierSignedCount } from '../../support/log-tampering';
import { logbook, scriptedModel } from './helpers';

describe("Logbook: Verify Conversation and a delegated agent's log", () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it("a child's log cut back makes the conversation truncated, naming the child; an event added to it, broken", async () => {
    const task = `Look around ${randomUUID().slice(0, 8)}`;
    llm = await scriptedModel({
      name: 'host-verify-children',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'Look around' },
          reply: {
            toolCalls: [
              {
                id: 'call_d',
                name: 'delegate',
                arguments: {
                  command: 'delegate',
                  ids: ['call_d'],
                  agent_types: ['explore'],
                  tasks: { call_d: 'find login' },
                },
              },
            ],
          },
        },
        // The child's answer comes late, so its first events are signed apart from its last.
        {
          match: { lastRole: 'user', lastContentIncludes: 'find login' },
          reply: {
            toolCalls: [{ id: 'c_1', name: 'finish', arguments: { message: 'found it' } }],
            delayMs: 300,
          },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'found it' }, reply: { content: 'Explored.' } },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', task);
    const session = await service.session(id);
    try {
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const ok = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(ok.result.verdict, 'verified', ok.message);

      const agentsDir = join(service.root, id, 'agents');
      const [childId] = readdirSync(agentsDir);
      const child = join(agentsDir, childId!);
      const keep = earlierSignedCount(child);
      assert.ok(keep, "a signature covers fewer than all of the child's events");
      cutBack(child, keep);

      const cut = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(cut.result.verdict, 'truncated', cut.message);
      assert.equal(cut.result.status, 'verified', "the conversation's own log is intact");
      assert.match(
        cut.message,
        /Delegated agent explore \(main\.explore\.1, agents\/[0-9a-f-]{36}\) fails the check/,
      );
      assert.match(cut.message, /truncated: \d+ events? missing/);
      assert.equal(service.header(id)?.signature, 'truncated', 'the header shows the tree’s verdict');

      // A worse finding in the child wins: an event added after its signed ones is tampering.
      appendEvent(child, { chainIt: false });
      const added = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(added.result.verdict, 'broken', added.message);
      assert.match(added.message, /Delegated agent explore/);
    } finally {
      await service.delete(id);
    }
  });
});
