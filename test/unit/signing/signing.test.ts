// Signed conversations: did:key naming, the signed store's chain, and verification that names the
// first bad event and why, also when an attacker recomputes the record checksums.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { crc32, encodeRecord } from '../../../src/core/log/record-format';
import {
  SIGNATURES_FILE,
  base58Decode,
  base58Encode,
  didKeyOf,
  eventHash,
  eventProofs,
  identityFromPem,
  newSigningKeyPem,
  openSignedStore,
  publicKeyOfDid,
  signablePayload,
  verdictOf,
  verifyConversation,
} from '../../../src/core/signing';
import { SegmentEventStore } from '../../../src/core/log';
import { cleanupTmp, ev, segmentPath, tmpDir } from '../log/helpers';

const identity = identityFromPem(newSigningKeyPem());

async function signedLog(n: number, durableEvery = 0): Promise<string> {
  const dir = tmpDir('sign');
  const store = await openSignedStore(dir, { identity });
  for (let i = 0; i < n; i++) {
    await store.append(ev(`e${i}`, { text: `event number ${i}` }), {
      durable: durableEvery > 0 && i % durableEvery === 0,
    });
  }
  await store.close();
  return dir;
}

/** The JSON of each record, in order. */
function recordJsons(dir: string): string[] {
  return fs
    .readFileSync(segmentPath(dir), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split(' ').slice(3).join(' '));
}

/** Rewrites the segment from JSONs, with seq and checksum recomputed as an attacker would. */
function rewrite(dir: string, jsons: string[]): void {
  fs.writeFileSync(segmentPath(dir), Buffer.concat(jsons.map((j, i) => encodeRecord(i, j))));
}

describe('signing', () => {
  after(cleanupTmp);

  it('base58 round-trips, with leading zero bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        assert.deepEqual(base58Decode(base58Encode(bytes)), bytes);
      }),
    );
    assert.equal(base58Encode(Buffer.from('hello world')), 'StV1DL6CwTryKyV');
    assert.equal(base58Encode(Uint8Array.of(0, 0, 1)), '112');
  });

  it('names an Ed25519 key did:key:z6Mk… and gets the key back from the name', () => {
    // The did:key spec's test vector: this raw public key has this name.
    const raw = Buffer.from('2e6fcce36701dc791488e0d0b1745cc1e33a4c1c9fcc41c63bd343dbbe0970e6', 'hex');
    const key = crypto.createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
      format: 'der',
      type: 'spki',
    });
    assert.equal(didKeyOf(key), 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK');
    assert.match(identity.did, /^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/);
    const back = publicKeyOfDid(identity.did)!;
    const sig = identity.sign(Buffer.from('m'));
    assert.ok(crypto.verify(null, Buffer.from('m'), back, sig));
    assert.equal(publicKeyOfDid('did:key:zQ3s'), null);
  });

  it('refuses a key that is not Ed25519, or not a key', () => {
    const rsa = crypto
      .generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' });
    assert.throws(() => identityFromPem(rsa.toString()), /is a ec key; Logbook signs with Ed25519 keys only/);
    assert.throws(
      () => identityFromPem('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'),
      /could not be read as a PEM private key/,
    );
  });

  it('pins the signable payload and the chain: the record JSON, sha256, head over the hashes', async () => {
    const json = '{"id":"e0","kind":"TestEvent","text":"event number 0"}';
    assert.equal(signablePayload(json).toString('utf8'), json);
    assert.equal(eventHash(json).toString('hex'), crypto.createHash('sha256').update(json).digest('hex'));
    const dir = await signedLog(1);
    const lines = fs.readFileSync(path.join(dir, SIGNATURES_FILE), 'utf8').split('\n');
    // Version 2: the chain starts from a genesis bound to the conversation's id (the folder's name).
    assert.equal(lines[0], `logbook-signatures 2 ${path.basename(dir)}`);
    assert.equal(lines[1], `h 0 ${eventHash(json).toString('base64url')}`);
    const genesis = crypto
      .createHash('sha256')
      .update(`logbook-genesis 2 ${path.basename(dir)}`)
      .digest();
    const head = crypto.createHash('sha256').update(genesis).update(eventHash(json)).digest();
    const [tag, count, headText, did, sig] = lines[2]!.split(' ');
    assert.deepEqual([tag, count, headText, did], ['s', '1', head.toString('base64url'), identity.did]);
    const message = Buffer.from(`logbook-chain 1 1 ${head.toString('base64url')}`);
    assert.ok(crypto.verify(null, message, publicKeyOfDid(identity.did)!, Buffer.from(sig!, 'base64url')));
  });

  it('verifies an intact log, and gives each event its proof', async () => {
    const dir = await signedLog(50, 7);
    const r = verifyConversation(dir);
    assert.equal(r.status, 'verified');
    assert.equal(r.events, 50);
    assert.equal(r.verified, 50);
    assert.deepEqual(r.signers, [identity.did]);
    const proofs = eventProofs(dir);
    assert.equal(proofs.length, 50);
    assert.ok(proofs.every((p) => p.isSigned && p.signerDid === identity.did && p.verifySignature()));
    const jsons = recordJsons(dir);
    jsons[3] = jsons[3]!.replace('number 3', 'number 9');
    rewrite(dir, jsons);
    assert.equal(eventProofs(dir)[3]!.verifySignature(), false);
    assert.equal(eventProofs(dir)[4]!.verifySignature(), true);
  });

  it('signs a durable append within the group-commit delay, and syncs the signature soon after', async () => {
    const dir = tmpDir('sign');
    const store = await openSignedStore(dir, { identity });
    await store.append(ev('a'), { durable: true });
    const file = path.join(dir, SIGNATURES_FILE);
    await new Promise((r) => setTimeout(r, 80));
    assert.match(fs.readFileSync(file, 'utf8'), /\nh 0 [^\n]+\ns 1 /);
    assert.equal(verifyConversation(dir).status, 'verified');
    await store.close();
  });

  it('a writer opening a log whose last hashes no signature covers chains them late, never signs them as its own', async () => {
    const dir = tmpDir('sign');
    const first = await openSignedStore(dir, { identity });
    await first.append(ev('e0'));
    await first.flush();
    await first.append(ev('e1'));
    await first.append(ev('e2'));
    await first.close();
    // As if the writer stopped after writing the last hashes but before their signature.
    const file = path.join(dir, SIGNATURES_FILE);
    const text = fs.readFileSync(file, 'utf8');
    const lastSig = text.lastIndexOf('\ns ');
    fs.writeFileSync(file, text.slice(0, lastSig + 1));
    assert.match(fs.readFileSync(file, 'utf8'), /\nh 2 [^\n]+\n$/);
    const next = await openSignedStore(dir, { identity });
    await next.append(ev('e3'));
    await next.close();
    const r = verifyConversation(dir);
    assert.equal(r.status, 'unsigned');
    assert.deepEqual(r.late, [{ from: 1, to: 2 }]);
    assert.equal(r.verified, 4);
  });

  it('after a power cut lost the last signature lines (zeros where they were): unsigned, never broken', async () => {
    const dir = tmpDir('sign');
    const writer = await openSignedStore(dir, { identity });
    for (let i = 0; i < 3; i++) {
      await writer.append(ev(`e${i}`, { text: `event number ${i}` }), { durable: true });
      await writer.flush();
    }
    await writer.close();
    const file = path.join(dir, SIGNATURES_FILE);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const kept =
      lines
        .slice(
          0,
          lines.findIndex((l) => l.startsWith('h 1 ')),
        )
        .join('\n') + '\n';
    fs.writeFileSync(file, Buffer.concat([Buffer.from(kept), Buffer.alloc(300)]));
    const r = verifyConversation(dir);
    assert.equal(r.status, 'unsigned');
    assert.equal(r.firstBad?.index, 1);
    assert.equal(r.verified, 1);
    // The writer opens it again, cuts the zeros and chains the two events late.
    const store = await openSignedStore(dir, { identity });
    await store.append(ev('e3'));
    await store.close();
    assert.doesNotMatch(fs.readFileSync(file, 'latin1'), /\0/);
    const again = verifyConversation(dir);
    assert.equal(again.status, 'unsigned');
    assert.deepEqual(again.late, [{ from: 1, to: 2 }]);
    assert.equal(again.verified, 4);
  });

  it('reports an unsigned conversation as unsigned, and signs one continued later from there on', async () => {
    const dir = tmpDir('sign');
    const plain = await SegmentEventStore.open(dir);
    await plain.append(ev('old0'));
    await plain.append(ev('old1'));
    await plain.close();
    const r = verifyConversation(dir);
    assert.equal(r.status, 'unsigned');
    assert.equal(r.firstBad?.reason, 'unsigned');
    const store = await openSignedStore(dir, { identity });
    await store.append(ev('new2'));
    await store.close();
    const r2 = verifyConversation(dir);
    assert.equal(r2.status, 'unsigned');
    assert.deepEqual(r2.late, [{ from: 0, to: 1 }]);
    assert.equal(r2.verified, 3);
  });

  it('refuses to sign over an unreadable record written before signing, with the UNSIGNABLE code', async () => {
    const dir = tmpDir('sign');
    const plain = await SegmentEventStore.open(dir);
    for (let i = 0; i < 3; i++) await plain.append(ev(`old${i}`, { text: `old number ${i}` }));
    await plain.close();
    const file = segmentPath(dir);
    const buf = fs.readFileSync(file);
    buf[buf.indexOf('number 1')] = 'N'.charCodeAt(0); // the checksum no longer matches
    fs.writeFileSync(file, buf);
    await assert.rejects(openSignedStore(dir, { identity }), (err: unknown) => {
      assert.equal((err as { code?: string }).code, 'UNSIGNABLE');
      assert.match((err as Error).message, /record 1 is unreadable/);
      return true;
    });
    assert.equal(fs.existsSync(path.join(dir, SIGNATURES_FILE)), false, 'nothing signed');
  });

  it('reports a damaged record as corrupt, not as tampering', async () => {
    const dir = await signedLog(5);
    const file = segmentPath(dir);
    const buf = fs.readFileSync(file);
    const at = buf.indexOf('number 2');
    buf[at] = 'N'.charCodeAt(0); // the checksum is left as it was
    fs.writeFileSync(file, buf);
    const r = verifyConversation(dir);
    assert.equal(r.status, 'broken');
    assert.equal(r.firstBad?.reason, 'corrupt');
    assert.equal(r.firstBad?.index, 2);
  });

  it('catches a signed hash rewritten in signatures.log as an invalid signature', async () => {
    const dir = await signedLog(5);
    const file = path.join(dir, SIGNATURES_FILE);
    const jsons = recordJsons(dir);
    jsons[2] = jsons[2]!.replace('number 2', 'number 7');
    rewrite(dir, jsons);
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/^h 2 .*$/m, `h 2 ${eventHash(jsons[2]!).toString('base64url')}`);
    fs.writeFileSync(file, text);
    const r = verifyConversation(dir);
    assert.equal(r.status, 'broken');
    assert.equal(r.firstBad?.reason, 'signature invalid');
  });

  it('a writer resumes from the head its last signature states; an altered head is still caught', async () => {
    const dir = await signedLog(4);
    const store = await openSignedStore(dir, { identity });
    await store.append(ev('e4', { text: 'after reopening' }));
    await store.close();
    assert.equal(verifyConversation(dir).status, 'verified');
    // The last signature's head replaced (another valid-looking head): what is signed after it fails.
    const file = path.join(dir, SIGNATURES_FILE);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = lines.findLastIndex((l) => l.startsWith('s '));
    const f = lines[at]!.split(' ');
    f[2] = eventHash('not the head').toString('base64url');
    lines[at] = f.join(' ');
    fs.writeFileSync(file, lines.join('\n'));
    const again = await openSignedStore(dir, { identity });
    await again.append(ev('e5'));
    await again.close();
    const r = verifyConversation(dir);
    assert.equal(r.status, 'broken');
    assert.equal(r.firstBad?.reason, 'signature invalid');
  });

  it('names an untrusted signer', async () => {
    const dir = await signedLog(3);
    const r = verifyConversation(dir);
    const trust = {
      you: [],
      known: new Map([['did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'someone else']]),
    };
    assert.equal(verdictOf(r, trust), 'unknown-signer');
    assert.equal(verdictOf(r, { you: [identity.did], known: new Map() }), 'verified');
  });

  describe('properties: tampering with records (checksums recomputed) is caught at the right event', function () {
    this.timeout(60_000); // 60 runs each, with a copy of the log per run, on a shared machine
    const N = 12;
    let base: string;
    before(async () => {
      base = await signedLog(N, 4);
    });
    const copy = (): string => {
      const d = tmpDir('tamper');
      fs.cpSync(base, d, { recursive: true });
      return d;
    };

    it('any single-byte change to an event JSON', () => {
      const jsons = recordJsons(base);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: N - 1 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          (i, pos, delta) => {
            const b = Buffer.from(jsons[i]!, 'utf8');
            const at = pos % b.length;
            b[at] = (b[at]! + delta) % 256;
            if (b.includes(0x0a)) return; // a newline is no longer one record: framing, tested as corrupt
            const changed = [...jsons];
            changed[i] = b.toString('latin1');
            const d = copy();
            fs.writeFileSync(
              segmentPath(d),
              Buffer.concat(changed.map((j, k) => (k === i ? encodeRaw(k, b) : encodeRecord(k, j)))),
            );
            const r = verifyConversation(d);
            assert.equal(r.status, 'broken');
            assert.equal(r.firstBad?.index, i);
            assert.equal(r.firstBad?.reason, 'content changed');
            fs.rmSync(d, { recursive: true, force: true });
          },
        ),
        { numRuns: 60 },
      );
    });

    it('any deletion, insertion or swap of records', () => {
      const jsons = recordJsons(base);
      const op = fc.oneof(
        fc.record({ t: fc.constant('delete' as const), i: fc.integer({ min: 0, max: N - 1 }) }),
        fc.record({ t: fc.constant('insert' as const), i: fc.integer({ min: 0, max: N - 1 }) }),
        fc.record({ t: fc.constant('swap' as const), i: fc.integer({ min: 0, max: N - 2 }) }),
      );
      fc.assert(
        fc.property(op, (o) => {
          const changed = [...jsons];
          if (o.t === 'delete') changed.splice(o.i, 1);
          if (o.t === 'insert')
            changed.splice(o.i, 0, '{"id":"forged","kind":"TestEvent","text":"not signed"}');
          if (o.t === 'swap') [changed[o.i], changed[o.i + 1]] = [changed[o.i + 1]!, changed[o.i]!];
          const d = copy();
          rewrite(d, changed);
          const r = verifyConversation(d);
          assert.notEqual(r.status, 'verified');
          assert.equal(r.firstBad?.index, o.i);
          const want = { delete: 'removed', insert: 'inserted', swap: 'reordered' }[o.t];
          assert.equal(r.firstBad?.reason, want);
          if (o.t === 'insert') assert.equal(r.firstBad?.id, 'forged');
          fs.rmSync(d, { recursive: true, force: true });
        }),
        { numRuns: 60 },
      );
    });
  });
});

/** A record around bytes that may not be valid UTF-8 (encodeRecord takes a string). */
function encodeRaw(seq: number, json: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(`${seq} ${json.length} `), json]);
  const crc = (crc32(body) >>> 0).toString(16).padStart(8, '0');
  return Buffer.concat([Buffer.from(crc + ' '), body, Buffer.from('\n')]);
}

describe('signed store: head records while syncs and flushes overlap', () => {
  after(cleanupTmp);

  it('a background sync that ends after a flush recorded its heads leaves the store working', async () => {
    const dir = tmpDir('sign-overlap');
    const headFile = path.join(tmpDir('sign-heads'), 'heads.json');
    const store = await openSignedStore(dir, { identity, headFile });
    // A slow disk: each fdatasync of signatures.log takes 120 ms, longer than the 50 ms after which
    // a background sync starts, so a background sync and a flush overlap.
    const chain = (store as unknown as { chain: { sync(): Promise<void> } }).chain;
    const realSync = chain.sync.bind(chain);
    chain.sync = () => new Promise((r) => setTimeout(r, 120)).then(realSync);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await store.append(ev('e0', { text: 'first' }), { durable: true });
    await sleep(10); // signed (a 5 ms group commit)
    const flushing = store.flush(); // its sync runs until ~120 ms
    await sleep(10);
    await store.append(ev('e1', { text: 'second' }), { durable: true }); // arms a background sync
    await sleep(70); // the background sync has started, with the heads written so far
    await flushing; // the flush records every head
    await sleep(150); // the background sync ends after it
    await store.append(ev('e2', { text: 'third' }), { durable: true });
    await store.close();
    assert.equal(verifyConversation(dir).status, 'verified');
  });
});
