// A writer opening a long signed conversation reads signatures.log from its end (chain-tail.ts):
// what it continues is what the whole read gave, and what it no longer looks at on open,
// `logbook verify` still catches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  SIGNATURES_FILE,
  identityFromPem,
  newSigningKeyPem,
  openSignedStore,
  parseChainFile,
  verifyConversation,
} from '../../../src/core/signing';
import { TAIL_READ_MIN_BYTES, readChainTail } from '../../../src/core/signing/chain-tail';
import { readHeadRecord } from '../../../src/core/signing/head-record';
import { cleanupTmp, ev, tmpDir } from '../log/helpers';

const identity = identityFromPem(newSigningKeyPem());
/** Enough events for a signatures.log over the size read from its end (about 52 bytes a hash). */
const LONG = Math.ceil(TAIL_READ_MIN_BYTES / 50);

async function signedLog(n: number, headFile?: string): Promise<string> {
  const dir = tmpDir('chain-tail');
  const store = await openSignedStore(dir, { identity, ...(headFile ? { headFile } : {}) });
  for (let i = 0; i < n; i++) {
    await store.append(ev(`e${i}`, { text: `event number ${i}` }));
    // A signature every 2,000 events, as a long conversation has them.
    if (i % 2000 === 1999) await store.flush();
  }
  await store.close();
  return dir;
}

let appended = 0;
async function appendMore(dir: string, n: number, headFile?: string): Promise<void> {
  const store = await openSignedStore(dir, { identity, ...(headFile ? { headFile } : {}) });
  for (let i = 0; i < n; i++) await store.append(ev(`more${appended++}`));
  await store.close();
}

const chainFile = (dir: string) => path.join(dir, SIGNATURES_FILE);

describe('signing: a long chain opened from its end', function () {
  this.timeout(20_000);
  let long: string;
  before(async () => {
    long = await signedLog(LONG);
  });
  after(cleanupTmp);

  function copyOfLong(): string {
    const dir = tmpDir('chain-tail');
    fs.cpSync(long, dir, { recursive: true });
    return dir;
  }

  it('reads only the end of a long chain, agreeing with the whole read', () => {
    const file = chainFile(long);
    assert.ok(fs.statSync(file).size >= TAIL_READ_MIN_BYTES);
    const tail = readChainTail(file);
    assert.ok(tail, 'read from its end');
    const whole = parseChainFile(fs.readFileSync(file, 'utf8'));
    assert.equal(tail.parsed.hashes.length, whole.hashes.length);
    assert.equal(tail.parsed.version, whole.version);
    assert.equal(tail.parsed.conversation, whole.conversation);
    assert.deepEqual({ ...tail.parsed.signatures.at(-1), line: 0 }, { ...whole.signatures.at(-1), line: 0 });
    assert.ok(tail.parsed.signatures.length < whole.signatures.length, 'only the last signatures');
    const read = Object.keys(tail.parsed.hashes).map(Number);
    assert.ok(read.length < whole.hashes.length / 4, `${read.length} hashes read`);
    for (const i of read) assert.equal(tail.parsed.hashes[i], whole.hashes[i]);
    assert.equal(tail.keep, fs.statSync(file).size);
  });

  it('continues a long chain so that the whole conversation verifies', async () => {
    const dir = copyOfLong();
    await appendMore(dir, 5);
    const r = verifyConversation(dir);
    assert.equal(r.status, 'verified');
    assert.equal(r.verified, LONG + 5);
  });

  it('cuts hashes no signature covers and chains them late, as the whole read does', async () => {
    const dir = copyOfLong();
    const file = chainFile(dir);
    const text = fs.readFileSync(file, 'utf8');
    // As if the writer stopped after writing the last hashes but before their signature.
    const lastSig = text.lastIndexOf('\ns ');
    const signedCount = Number(text.slice(lastSig + 3).split(' ')[0]);
    const kept = text.slice(0, lastSig + 1) + text.slice(lastSig + 1).replace(/^s [^\n]*\n/, '');
    fs.writeFileSync(file, kept);
    const stillSigned = Number(kept.slice(kept.lastIndexOf('\ns ') + 3).split(' ')[0]);
    assert.ok(stillSigned < signedCount);
    const tail = readChainTail(file);
    assert.ok(tail);
    assert.equal(tail.parsed.hashes.length, stillSigned, 'the unsigned hashes are cut');
    assert.equal(tail.keep, kept.indexOf(`\nh ${stillSigned} `) + 1);
    await appendMore(dir, 1);
    const r = verifyConversation(dir);
    assert.equal(r.status, 'unsigned');
    assert.deepEqual(r.late, [{ from: stillSigned, to: LONG - 1 }]);
    assert.equal(r.verified, LONG + 1);
  });

  it('after a power cut left zeros at the end: the zeros cut, the chain continued', async () => {
    const dir = copyOfLong();
    const file = chainFile(dir);
    fs.appendFileSync(file, Buffer.alloc(300));
    const tail = readChainTail(file);
    assert.ok(tail);
    assert.equal(tail.keep, fs.statSync(file).size - 300);
    await appendMore(dir, 2);
    assert.doesNotMatch(fs.readFileSync(file, 'latin1'), /\0/);
    assert.equal(verifyConversation(dir).status, 'verified');
  });

  it('leaves a malformed line near the end to the whole read, which refuses to append', async () => {
    const dir = copyOfLong();
    const file = chainFile(dir);
    fs.appendFileSync(file, 'h 12 not-a-hash\n');
    assert.equal(readChainTail(file), null);
    await assert.rejects(openSignedStore(dir, { identity }), /is not a valid signature line/);
  });

  it('does not look at lines before the end on open; verify still names the altered one', async () => {
    const dir = copyOfLong();
    const file = chainFile(dir);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('h 10 '));
    lines[at] = 'h 10 this line was altered';
    fs.writeFileSync(file, lines.join('\n'));
    await appendMore(dir, 1);
    const r = verifyConversation(dir);
    assert.notEqual(r.status, 'verified');
    assert.match(JSON.stringify(r), /line \d+|signature|malformed|altered/i);
  });

  it('keeps the head recorded outside the folder moving, and reads the whole file for an older one', async () => {
    const heads = tmpDir('chain-tail-heads');
    const headFile = path.join(heads, 'head.json');
    const dir = tmpDir('chain-tail');
    fs.cpSync(long, dir, { recursive: true });
    await appendMore(dir, 1, headFile);
    const rec = readHeadRecord(headFile);
    assert.ok(rec && rec !== 'unreadable');
    assert.equal(rec.count, LONG + 1);
    await appendMore(dir, 1, headFile);
    const again = readHeadRecord(headFile);
    assert.ok(again && again !== 'unreadable');
    assert.equal(again.count, LONG + 2, 'not pinned: the chain extends what was recorded');
    assert.equal(verifyConversation(dir, { headFile }).status, 'verified');
  });

  it('reads a short chain whole, and a fork whole', () => {
    const dir = tmpDir('chain-tail');
    fs.writeFileSync(chainFile(dir), 'logbook-signatures 2 x\nh 0 ' + 'a'.repeat(43) + '\n');
    assert.equal(readChainTail(chainFile(dir)), null);
    const fork = 'logbook-signatures 2 x\nf 1 source 2\n' + 'x'.repeat(TAIL_READ_MIN_BYTES) + '\n';
    fs.writeFileSync(chainFile(dir), fork);
    assert.equal(readChainTail(chainFile(dir)), null);
  });
});
