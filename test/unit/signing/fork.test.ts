// A fork keeps its source's signatures: the copies verify as signed by the source's did:key, the
// fork's own events by the forker's, and changing a copy afterwards is caught.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { forkInto } from '../../../src/core/agent/fork';
import { createEvent, type Event } from '../../../src/core/events';
import { encodeRecord } from '../../../src/core/log/record-format';
import { SegmentEventStore } from '../../../src/core/log';
import {
  SIGNATURES_FILE,
  chainSigners,
  eventHash,
  identityFromPem,
  newSigningKeyPem,
  openSignedStore,
  verifyConversation,
} from '../../../src/core/signing';
import { createHarness, type Harness } from '../../support/agent-harness';
import { cleanupTmp, segmentPath, tmpDir } from '../log/helpers';

const alice = identityFromPem(newSigningKeyPem());
const bob = identityFromPem(newSigningKeyPem());

const open = (dir: string, identity = alice) =>
  openSignedStore<StoredConversationEvent>(dir, { codec: conversationEventCodec, identity });

function recordJsons(dir: string): string[] {
  return fs
    .readFileSync(segmentPath(dir), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split(' ').slice(3).join(' '));
}

describe('signing: forks', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  after(cleanupTmp);

  it('copies the source events with their signatures; the fork signs only what it adds', async () => {
    h = await createHarness({
      name: 'signed-fork',
      turns: [
        { reply: { content: 'First answer.' } },
        { reply: { content: 'Second answer.' } },
        { match: { lastContentIncludes: 'instead' }, reply: { content: 'Answer on the fork.' } },
      ],
    });
    const sourceDir = tmpDir('fork-src');
    const sourceStore = await open(sourceDir, alice);
    const source = await h.open({ store: sourceStore });
    await source.sendMessage('first question');
    await source.run();
    const firstAnswer = (await source.events()).find(
      (e) => e.kind === 'MessageEvent' && e.source === 'agent',
    )!;
    await source.sendMessage('second question');
    await source.run();
    // The source is still open, its last events maybe not signed yet: fork signs them first.
    const forkDir = tmpDir('fork-dst');
    const forkStore = await open(forkDir, bob);
    await source.fork(firstAnswer.id, forkStore);
    const copied = forkStore.length;
    const fork = await h.open({ store: forkStore });
    await fork.sendMessage('ask this instead');
    assert.equal(await fork.run(), 'finished');
    const branchLength = (await source.events()).findIndex((e) => e.id === firstAnswer.id) + 1;
    await forkStore.close();
    await sourceStore.close();

    const r = verifyConversation(forkDir);
    assert.equal(r.status, 'verified', JSON.stringify(r.firstBad));
    assert.deepEqual(r.signers, [alice.did, bob.did]);
    assert.deepEqual(chainSigners(forkDir), [alice.did, bob.did]);
    // The branch up to the first answer is signed by the source's key, the rest by the fork's.
    assert.ok(branchLength > 1 && branchLength < copied);
    assert.deepEqual(r.signedBy[0], { did: alice.did, from: 0, to: branchLength - 1 });
    assert.deepEqual(r.signedBy.at(-1), { did: bob.did, from: branchLength, to: r.events - 1 });
    assert.equal(r.verified, r.events);
    assert.equal(verifyConversation(sourceDir).status, 'verified');

    // A copied event changed afterwards, its checksum recomputed: caught at that event.
    const jsons = recordJsons(forkDir);
    const at = jsons.findIndex((j) => j.includes('first question'));
    assert.ok(at >= 0 && at < branchLength);
    jsons[at] = jsons[at]!.replace('first question', 'forged question');
    fs.writeFileSync(segmentPath(forkDir), Buffer.concat(jsons.map((j, i) => encodeRecord(i, j))));
    const bad = verifyConversation(forkDir);
    assert.equal(bad.status, 'broken');
    assert.equal(bad.firstBad?.index, at);
    assert.equal(bad.firstBad?.reason, 'content changed');
  });

  it('catches a copied proof rewritten so that a copy looks signed by the source', async () => {
    const { sourceDir, forkDir } = await branchedFork();
    const file = path.join(forkDir, SIGNATURES_FILE);
    const text = fs.readFileSync(file, 'utf8');
    // A source hash in the proof replaced: the source's signature no longer holds.
    const lines = text.split('\n');
    const p = lines.findIndex((l) => l.startsWith('p '));
    lines[p] = `p ${eventHash('{"id":"forged"}').toString('base64url')}`;
    fs.writeFileSync(file, lines.join('\n'));
    const r = verifyConversation(forkDir);
    assert.equal(r.status, 'broken');
    assert.equal(r.firstBad?.reason, 'signature invalid');
    // A version-2 source's proof names the id its chain is bound to (here its folder's name).
    assert.match(r.firstBad?.detail ?? '', new RegExp(`source conversation ${path.basename(sourceDir)} `));
    assert.ok(verifyConversation(sourceDir).status === 'verified');
  });

  it('keeps the source signatures for a branch that skips the source events of another branch', async () => {
    const { forkDir, skipped } = await branchedFork();
    const r = verifyConversation(forkDir);
    assert.equal(r.status, 'verified', JSON.stringify(r.firstBad));
    const ids = recordJsons(forkDir).map((j) => (JSON.parse(j) as { id: string }).id);
    assert.ok(!ids.includes(skipped));
    assert.deepEqual(r.signedBy[0], { did: alice.did, from: 0, to: 2 });
    assert.deepEqual(r.signers, [alice.did, bob.did]);
  });

  it('marks copies from an unsigned source as late, not as signed by anyone', async () => {
    const sourceDir = tmpDir('fork-plain');
    const plain = await SegmentEventStore.open<StoredConversationEvent>(sourceDir, {
      codec: conversationEventCodec,
    });
    const events = linear(3);
    for (const e of events) await plain.append(e as StoredConversationEvent);
    await plain.close();
    const forkDir = tmpDir('fork-dst');
    const target = await open(forkDir, bob);
    await forkInto({ id: 'src', events, indices: [0, 1, 2], dir: sourceDir }, events[2]!.id, target);
    await target.close();
    const r = verifyConversation(forkDir);
    assert.equal(r.status, 'unsigned');
    assert.deepEqual(r.late, [{ from: 0, to: 2 }]);
    assert.equal(r.firstBad?.reason, 'unsigned');
  });

  async function branchedFork(): Promise<{ sourceDir: string; forkDir: string; skipped: string }> {
    // m0 <- m1 <- m2(other branch), m1 <- m3: forking at m3 copies m0 m1 m3, not m2.
    const [m0, m1] = linear(2);
    const m2 = createEvent('MessageEvent', msg('other branch', m1!.id));
    const m3 = createEvent('MessageEvent', msg('this branch', m1!.id));
    const events = [m0!, m1!, m2, m3];
    const sourceDir = tmpDir('fork-src');
    const s = await open(sourceDir, alice);
    for (const e of events) await s.append(e as StoredConversationEvent);
    await s.close();
    const forkDir = tmpDir('fork-dst');
    const target = await open(forkDir, bob);
    await forkInto({ id: 'src', events, indices: [0, 1, 2, 3], dir: sourceDir }, m3.id, target);
    await target.close();
    return { sourceDir, forkDir, skipped: m2.id };
  }
});

function msg(text: string, parent: string | null): Parameters<typeof createEvent<'MessageEvent'>>[1] {
  return {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
    parent_id: parent,
  } as Parameters<typeof createEvent<'MessageEvent'>>[1];
}

function linear(n: number): Event[] {
  const out: Event[] = [];
  for (let i = 0; i < n; i++)
    out.push(createEvent('MessageEvent', msg(`message ${i}`, out.at(-1)?.id ?? null)));
  return out;
}
