import * as assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { createEvent } from '../../../src/core/events';
import { encodeRecord } from '../../../src/core/log/record-format';
import { SegmentEventStore } from '../../../src/core/log/segment-store';
import { identityFromPem, newSigningKeyPem, openSignedStore } from '../../../src/core/signing';
import { SIGNING_KEY_SECRET } from '../../../src/host/vscode/signing/signing-key';
import type { VerifyOutcome } from '../../../src/host/vscode/signing/verify';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const file = join(dir, d.name);
    if (d.isDirectory()) return filesUnder(file);
    return d.isFile() ? [{ file, text: readFileSync(file, 'latin1') }] : [];
  });
}

/**
 * What an attacker with write access does: changes one letter of the first record holding `needle`
 * and writes the record's checksum again, so the log itself reads as sound. Returns the record's seq.
 */
function rewriteRecord(dir: string, needle: string): number {
  const segments = join(dir, 'segments');
  for (const name of readdirSync(segments).sort()) {
    const file = join(segments, name);
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(needle));
    if (at < 0) continue;
    const [, seq, , ...rest] = lines[at]!.split(' ');
    const json = rest.join(' ');
    const i = json.indexOf(needle);
    const changed = json.slice(0, i) + needle.replace('a', 'e') + json.slice(i + needle.length);
    assert.notEqual(changed, json);
    lines[at] = encodeRecord(Number(seq), changed).toString('utf8').replace(/\n$/, '');
    writeFileSync(file, lines.join('\n'));
    return Number(seq);
  }
  throw new Error(`no record holds ${needle}`);
}

/** A conversation as Logbook wrote them before signing: a log and no signatures.log. */
async function writeUnsigned(dir: string, messages: number): Promise<void> {
  const store = await SegmentEventStore.open<StoredConversationEvent>(dir, { codec: conversationEventCodec });
  for (let i = 0; i < messages; i++) {
    const e = createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: `unsigned message number ${i}` }] },
      parent_id: null,
    });
    await store.append(e as StoredConversationEvent);
  }
  await store.close();
}

/** A conversation signed by a key of its own (as another machine would), with `messages` messages. */
async function writeSigned(dir: string, messages: number, identity = identityFromPem(newSigningKeyPem())) {
  const store = await openSignedStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    identity,
  });
  const ids: string[] = [];
  for (let i = 0; i < messages; i++) {
    const e = createEvent('MessageEvent', {
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: `signed message number ${i}` }] },
      parent_id: ids.at(-1) ?? null,
    });
    ids.push(e.id);
    await store.append(e as StoredConversationEvent);
  }
  await store.close();
  return ids;
}

describe('Logbook: Verify Conversation', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('says a conversation written here is verified and signed, then names the event rewritten on disk', async () => {
    const task = `Say hello ${randomUUID().slice(0, 8)}`;
    llm = await scriptedModel({
      name: 'host-verify',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'Say hello' },
          reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Hello.' } }] },
        },
      ],
    });
    const { service } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', task);
    const session = await service.session(id);
    try {
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const events = await session.conversation.events();

      const ok = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(ok.result.status, 'verified', ok.message);
      assert.equal(ok.result.events, events.length);
      assert.equal(ok.result.verified, events.length);
      assert.equal(ok.result.signers.length, 1);
      assert.match(ok.result.signers[0]!, /^did:key:z6Mk/);
      assert.equal(
        ok.message,
        `${events.length} events verified, signed by you; none missing (checked against the head kept outside the folder).`,
      );
      assert.equal(ok.result.verdict, 'verified');
      assert.equal(session.header().signature, 'verified', 'the chat header shows the verified badge');
      assert.deepEqual(session.header().signerNames, ['you'], 'the badge says verified by you');
      // The head is kept in the extension's global storage, not in the conversation's folder.
      assert.ok(!existsSync(join(service.root, id, 'heads')));
      assert.ok(existsSync(service.headFile(id)), service.headFile(id));
      // Without an argument it verifies the active conversation.
      assert.equal(service.activeId, id);
      const again = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation');
      assert.equal(again.result.status, 'verified');

      const dir = join(service.root, id);
      for (const { file, text } of filesUnder(dir)) {
        assert.doesNotMatch(text, /PRIVATE KEY/, `${file} holds no private key`);
      }

      const seq = rewriteRecord(dir, task);
      const user = events[seq]!;
      assert.equal(user.kind, 'MessageEvent');
      const broken = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(broken.result.status, 'broken', broken.message);
      assert.equal(broken.result.firstBad?.index, seq);
      assert.equal(broken.result.firstBad?.id, user.id);
      assert.equal(broken.result.firstBad?.reason, 'content changed');
      assert.equal(session.header().signature, 'broken', 'the badge turns to broken');
      // The chat is told which event to reveal and mark; the Conversations view shows it too.
      assert.deepEqual(session.header().brokenAt, { seq, id: user.id, reason: 'content changed' });
      const listed = service.list().find((e) => e.id === id);
      assert.equal(listed?.verified?.status, 'broken');
      assert.ok(
        broken.message.includes(`broken at event ${seq} (${user.id}): content changed`),
        broken.message,
      );
    } finally {
      await service.delete(id);
    }
  });

  it('verifies a conversation when it opens, without being asked, and finds one changed on disk', async () => {
    const { service } = await logbook();
    const id = randomUUID();
    const dir = join(service.root, id);
    await writeSigned(dir, 6);
    rewriteRecord(dir, 'signed message number 3');
    const started = Date.now();
    const session = await service.session(id);
    try {
      assert.ok(Date.now() - started < 5_000, 'opening does not wait for the check');
      const deadline = Date.now() + 20_000;
      while (session.header().signature === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const header = session.header();
      assert.equal(header.signature, 'broken');
      assert.equal(header.brokenAt?.seq, 3);
      assert.equal(header.brokenAt?.reason, 'content changed');
      assert.equal(service.list().find((e) => e.id === id)?.verified?.firstBad?.index, 3);
    } finally {
      await service.delete(id);
    }
  });

  it('a fork keeps the signatures of the events it copies: verify names their signer and this window', async () => {
    const { service } = await logbook();
    const id = randomUUID();
    const elsewhere = identityFromPem(newSigningKeyPem());
    const ids = await writeSigned(join(service.root, id), 6, elsewhere);
    await service.session(id);
    let forkId: string | undefined;
    try {
      await service.forkFrom(id, ids[3]!);
      forkId = service.activeId;
      assert.ok(forkId && forkId !== id, 'the fork is shown');
      const out = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', forkId);
      assert.equal(out.result.status, 'verified', out.message);
      assert.equal(out.result.signers[0], elsewhere.did);
      assert.equal(out.result.signers.length, 2);
      assert.deepEqual(out.result.signedBy[0], { did: elsewhere.did, from: 0, to: 3 });
      // The source's key is not this window's, nor on the trust list: an unknown signer, named as such.
      assert.equal(out.result.verdict, 'unknown-signer');
      assert.match(
        out.message,
        new RegExp(`signed by ${elsewhere.did} \\(unknown signer\\) \\(events 0–3\\), you \\(events 4–`),
      );
      assert.equal((await service.session(forkId)).header().signature, 'unknown-signer');
    } finally {
      if (forkId && forkId !== id) await service.delete(forkId);
      await service.delete(id);
    }
  });

  it('says "unsigned", not broken, for a conversation written before signing; signs what is added to it', async () => {
    const { service } = await logbook();
    const id = randomUUID();
    await writeUnsigned(join(service.root, id), 4);
    const session = await service.session(id);
    try {
      const out = await vscode.commands.executeCommand<VerifyOutcome>('logbook.verifyConversation', id);
      assert.equal(out.result.status, 'unsigned', out.message);
      assert.equal(out.result.firstBad?.index, 0);
      assert.match(out.message, /unsigned/);
      assert.equal(session.header().signature, 'unsigned');
      assert.doesNotMatch(out.message, /broken/);
      // Opening it appended its system prompt, signed by this window's key.
      const events = await session.conversation.events();
      assert.equal(events.length, 5);
      // The four old events are chained late (intact from here on) and never count as signed when written.
      assert.deepEqual(out.result.late, [{ from: 0, to: 3 }]);
      assert.match(out.result.signers[0] ?? '', /^did:key:z6Mk/);
    } finally {
      await service.delete(id);
    }
  });

  it('a signing key of another type in secret storage: a clear error, nothing written, the key kept as it is', async () => {
    const { service } = await logbook();
    // The extension's own SecretStorage (VS Code's), reached through the service for this test only.
    const secrets = service['context'].secrets;
    const mine = await secrets.get(SIGNING_KEY_SECRET);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const before = new Set(readdirSync(service.root));
    const shown: string[] = [];
    const original = vscode.window.showErrorMessage;
    // Records what the user is told; the message still goes to VS Code.
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = (msg: string, ...rest: never[]) => {
      shown.push(msg);
      return original(msg, ...rest);
    };
    try {
      await secrets.store(SIGNING_KEY_SECRET, rsa);
      const id = await vscode.commands.executeCommand<string | undefined>(
        'logbook.startTask',
        'Sign this with the wrong key',
      );
      assert.equal(id, undefined);
      assert.ok(
        shown.some((m) =>
          /signing key in VS Code secret storage is a rsa key; Logbook signs with Ed25519/.test(m),
        ),
        shown.join('\n'),
      );
      assert.deepEqual(new Set(readdirSync(service.root)), before, 'no conversation folder was written');
      assert.equal(await secrets.get(SIGNING_KEY_SECRET), rsa, 'the stored key is not replaced');
    } finally {
      (vscode.window as { showErrorMessage: unknown }).showErrorMessage = original;
      if (mine) await secrets.store(SIGNING_KEY_SECRET, mine);
      else await secrets.delete(SIGNING_KEY_SECRET);
    }
  });
});
