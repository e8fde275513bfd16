// assembleConversation, the one place the CLI and VS Code put a conversation together: the gate
// it builds reads the confirmation settings at each decision (a change applies to an action
// already waiting), and a sandbox that is off is recorded in the log and makes every command ask.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import type { ConfirmationMode } from '../../../src/core/agent/settings';
import { OpenAiLlmClient } from '../../../src/core/llm';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import { defaultTools } from '../../../src/core/tools';
import {
  type AssembledConversation,
  assembleConversation,
} from '../../../src/host/node/session/conversation-assembly';
import { createNodePorts } from '../../../src/host/node/ports';
import { CommandSandbox } from '../../../src/host/node/sandbox';
import { startScriptedLlm, type ScriptedLlm } from '../../support/llm-server';

describe('assembleConversation', function () {
  this.timeout(30_000);
  let llm: ScriptedLlm | undefined;
  let root: string;
  let assembled: AssembledConversation | undefined;
  let ports: ReturnType<typeof createNodePorts> | undefined;
  let sandbox: CommandSandbox | undefined;

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'logbook-assembly-'));
    mkdirSync(join(root, 'ws'));
    llm = await startScriptedLlm({
      scenario: {
        name: 'one-command',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_echo',
                  name: 'terminal',
                  arguments: { command: 'echo hi', security_risk: 'LOW', summary: 'say hi' },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Done.' } },
        ],
      },
    });
  });

  afterEach(async () => {
    ports?.terminal.dispose();
    await sandbox?.dispose();
    await llm?.close();
    rmSync(root, { recursive: true, force: true });
    llm = assembled = ports = sandbox = undefined;
  });

  async function open(
    confirmation: () => { mode: ConfirmationMode },
    box?: CommandSandbox,
  ): Promise<AssembledConversation> {
    const workspace = join(root, 'ws');
    ports = createNodePorts({
      roots: [workspace],
      scratchDir: join(root, 'scratch'),
      terminal: { passEnvironment: [], secretValues: [] },
    });
    ports.terminal.startIn(workspace);
    return assembleConversation({
      id: 'c1',
      store: new MemoryEventStore<StoredConversationEvent>({ codec: conversationEventCodec }),
      llm: new OpenAiLlmClient({
        baseUrl: llm!.baseUrl,
        apiKey: 'test-key',
        model: 'scripted-model',
        maxRetries: 0,
      }),
      tools: defaultTools(),
      ports,
      cwd: workspace,
      secrets: () => [],
      confirmation,
      roots: () => [workspace],
      readableRoots: () => [join(root, 'scratch')],
      shellCwd: () => workspace,
      ...(box ? { sandbox: box } : {}),
    });
  }

  it('the gate reads the confirmation mode at each decision, for an action already waiting', async () => {
    let mode: ConfirmationMode = 'always';
    assembled = await open(() => ({ mode }));
    const c = assembled.conversation;
    await c.sendMessage('say hi');
    assert.equal(await c.run(), 'waiting_for_confirmation');
    const pending = c.awaitingConfirmation();
    assert.equal(pending.length, 1);
    assert.equal(assembled.gate.decide(pending)[0]!.confirm, true, "'always' asks");
    mode = 'never';
    assert.equal(assembled.gate.decide(pending)[0]!.confirm, false, "'never' no longer asks");
  });

  it('a sandbox that is off is recorded before the first request, and every command asks', async () => {
    sandbox = new CommandSandbox({ setting: 'off', allowedHosts: () => [] });
    assembled = await open(() => ({ mode: 'risky' }), sandbox);
    const c = assembled.conversation;
    await c.sendMessage('say hi');
    assert.equal(await c.run(), 'waiting_for_confirmation', 'a LOW command asks without a sandbox');
    assert.equal(c.state.sandbox?.state, 'off');
    const [decision] = assembled.gate.decide(c.awaitingConfirmation());
    assert.equal(decision!.confirm, true);
    assert.match(decision!.reasons.join(' '), /sandbox/i);
  });
});
