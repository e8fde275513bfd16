// The editor's signature check vouches for the key of each agent a handoff gave the conversation
// to, as `logbook verify` does: a conversation handed over twice (main → reader → writer) is
// verified, not signed by an "unknown signer"; and an event appended after the signed ones is broken.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { encodeRecord } from '../../../src/core/log/record-format';
import type { VerifyOutcome } from '../../../src/host/vscode/signing/verify';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const transfer = (agent: string) => ({
  toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: agent } }],
});

describe('Logbook: Verify Conversation after handoffs', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
  });

  it('a conversation handed over twice is verified; an event appended after it is broken', async () => {
    const dir = join(workspaceRoot(), '.logbook', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'reader.md'),
      '---\nname: reader\ndescription: Reads only.\ntools: [grep, think]\nmode: plan\n---\nOnly read.\n',
    );
    writeFileSync(
      join(dir, 'writer.md'),
      '---\nname: writer\ndescription: Writes.\ntools: [think]\nmode: act\n---\nWrite.\n',
    );
    const task = `Hand it over twice ${randomUUID().slice(0, 8)}`;
    llm = await scriptedModel({
      name: 'host-verify-handoffs',
      turns: [
        { match: { lastRole: 'user', lastContentIncludes: 'Hand it over twice' }, reply: transfer('reader') },
        { match: { lastRole: 'tool', toolResultIncludes: 'in plan mode' }, reply: transfer('writer') },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'in act mode' },
          reply: { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', task);
    const session = await service.session(id);
    try {
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const ok = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(ok.result.verdict, 'verified', ok.message);
      assert.equal(new Set(ok.result.signers).size, 3, 'main, reader and writer each signed');
      assert.doesNotMatch(ok.message, /unknown signer/);

      // An event added after the signed ones, by someone who can write the folder.
      const segments = join(service.root, id, 'segments');
      const file = join(segments, readdirSync(segments).sort().at(-1)!);
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      const total = (await session.conversation.events()).length;
      const last = JSON.parse(lines.at(-1)!.split(' ').slice(3).join(' ')) as Record<string, unknown>;
      appendFileSync(file, encodeRecord(total, JSON.stringify({ ...last, id: randomUUID() })));
      const appended = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(appended.result.verdict, 'broken', appended.message);
      assert.equal(appended.result.firstBad?.reason, 'appended');
    } finally {
      await service.delete(id);
    }
  });
});
