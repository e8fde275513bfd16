// What someone who can write a conversation's folder can try against `logbook verify`, and what it
// says and exits with for each: a cut-off tail, a chain re-signed with a fresh key, events spliced
// in from another conversation signed by the same key, and edited `l`/`i` marker lines.
import * as assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encodeRecord } from '../../../src/core/log/record-format';
import { SegmentEventStore } from '../../../src/core/log';
import {
  SIGNATURES_FILE,
  type SigningIdentity,
  identityFromPem,
  newSigningKeyPem,
  openSignedStore,
} from '../../../src/core/signing';
import { cliHeadFile } from '../../../src/host/node/config-dir';
import {
  SESSION_FILE,
  newSessionInfo,
  readSessionInfo,
  writeSessionInfo,
} from '../../../src/host/node/cli/session-file';
import { cleanupTmp, ev, segmentPath, tmpDir } from '../log/helpers';
import { printed, runCli, testConfigDir, testSigningKey } from './cli-runner';

const env = (): { XDG_CONFIG_HOME: string } => ({ XDG_CONFIG_HOME: testConfigDir() });
const you = (): SigningIdentity => identityFromPem(fs.readFileSync(testSigningKey(), 'utf8'));

/**
 * A conversation as the CLI writes one: signed with the CLI's key, its head kept in the config
 * folder; a flush after every `groupEvery` events makes a signature line there.
 */
async function conversation(
  n: number,
  opts: { dir?: string; identity?: SigningIdentity; id?: string; groupEvery?: number; text?: string } = {},
): Promise<string> {
  const dir = opts.dir ?? tmpDir('conv');
  const id = opts.id ?? crypto.randomUUID();
  fs.mkdirSync(dir, { recursive: true });
  writeSessionInfo(
    dir,
    newSessionInfo({ id, workspace: dir, confirmation: 'never', max_iterations: null, model: null }),
  );
  const store = await openSignedStore(dir, {
    identity: opts.identity ?? you(),
    conversationId: id,
    headFile: cliHeadFile(env(), dir),
  });
  for (let i = 0; i < n; i++) {
    await store.append(ev(`e${i}`, { text: `${opts.text ?? 'event number'} ${i}` }));
    if (opts.groupEvery && (i + 1) % opts.groupEvery === 0) await store.flush();
  }
  await store.close();
  return dir;
}

function recordJsons(dir: string): string[] {
  return fs
    .readFileSync(segmentPath(dir), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split(' ').slice(3).join(' '));
}

/** Leaves only the records, the chain and session.json: the store's indexes and meta.json are rebuilt. */
function keepOnlyLogAndChain(dir: string): void {
  for (const name of fs.readdirSync(dir))
    if (!['segments', SIGNATURES_FILE, SESSION_FILE].includes(name))
      fs.rmSync(path.join(dir, name), { recursive: true });
}

const idOf = (dir: string): string => readSessionInfo(dir)!.id;

/** Cuts the log and signatures.log back to the first `count` events, at the signature over them. */
function cutBack(dir: string, count: number): void {
  const jsons = recordJsons(dir).slice(0, count);
  fs.writeFileSync(segmentPath(dir), Buffer.concat(jsons.map((j, i) => encodeRecord(i, j))));
  const file = path.join(dir, SIGNATURES_FILE);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith(`s ${count} `));
  assert.ok(at > 0, `a signature covers exactly ${count} events`);
  fs.writeFileSync(file, lines.slice(0, at + 1).join('\n') + '\n');
  keepOnlyLogAndChain(dir);
}

/** Puts `from`'s records and chain in place of `to`'s, as an attacker copying files would. */
function replaceLogAndChain(from: string, to: string): void {
  fs.rmSync(path.join(to, 'segments'), { recursive: true });
  fs.cpSync(path.join(from, 'segments'), path.join(to, 'segments'), { recursive: true });
  fs.copyFileSync(path.join(from, SIGNATURES_FILE), path.join(to, SIGNATURES_FILE));
  keepOnlyLogAndChain(to);
}

function copyFolder(dir: string): string {
  const copy = tmpDir('copy');
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

describe('logbook verify: tampering by someone who can write the conversation folder', function () {
  this.timeout(60_000);
  after(cleanupTmp);

  it('an intact conversation: verified, signed by you, none missing (exit 0)', async () => {
    const dir = await conversation(12, { groupEvery: 4 });
    const r = await runCli(['verify', dir], { env: env() });
    assert.equal(r.code, 0, printed(r));
    assert.equal(
      r.stdout,
      '12 events verified, signed by you; none missing (checked against the head kept outside the folder)\n',
    );
  });

  it('a cut tail (log and signatures.log cut back, indexes deleted): truncated (exit 4)', async () => {
    const dir = await conversation(52, { groupEvery: 10 });
    cutBack(dir, 20);
    const r = await runCli(['verify', dir], { env: env() });
    assert.equal(r.code, 4, printed(r));
    assert.equal(
      r.stdout,
      '20 events verified, signed by you; truncated: 32 events missing after event 19\n',
    );
    assert.match(r.stderr, /says 52 events were signed; the log and signatures\.log now end after 20\./);
    const json = JSON.parse((await runCli(['verify', dir, '--json'], { env: env() })).stdout) as {
      verdict: string;
      completeness: { state: string; missing: number };
    };
    assert.equal(json.verdict, 'truncated');
    assert.deepEqual([json.completeness.state, json.completeness.missing], ['truncated', 32]);
  });

  it('a writer does not launder a cut tail: the head kept outside stays, verify still says truncated', async () => {
    const dir = await conversation(30, { groupEvery: 10 });
    cutBack(dir, 20);
    // The user opens the cut conversation and goes on writing to it.
    const store = await openSignedStore(dir, {
      identity: you(),
      conversationId: idOf(dir),
      headFile: cliHeadFile(env(), dir),
    });
    await store.append(ev('later'));
    await store.close();
    const r = await runCli(['verify', dir], { env: env() });
    assert.equal(r.code, 4, printed(r));
    assert.match(
      r.stdout,
      /^21 events verified, signed by you; truncated: 9 events missing after event 20\n$/,
    );
  });

  it('a copied folder has no head outside it: verified, saying completeness cannot be proven (exit 0)', async () => {
    const copy = copyFolder(await conversation(5));
    const r = await runCli(['verify', copy], { env: env() });
    assert.equal(r.code, 0, printed(r));
    assert.equal(
      r.stdout,
      '5 events verified, signed by you; completeness cannot be proven: no head of this conversation is recorded outside its folder (a copied or imported folder); it vouches for these 5 events, not that none followed them\n',
    );
  });

  it('a chain re-signed with a fresh key: rewritten where a head is kept (exit 1), unknown signer where not (exit 5)', async () => {
    const dir = await conversation(6);
    const mallory = identityFromPem(newSigningKeyPem());
    // The events rewritten and the whole chain signed again, bound to the same conversation id.
    const forged = await conversation(6, {
      identity: mallory,
      id: idOf(dir),
      text: 'rewritten',
      dir: path.join(tmpDir('forge'), 'x'),
    });
    const copy = copyFolder(dir); // a copy made before the rewrite has no head: only the signer shows it
    replaceLogAndChain(forged, dir);
    replaceLogAndChain(forged, copy);
    const r = await runCli(['verify', dir], { env: env() });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stdout, /^6 events, broken at event 0 \(e0\): rewritten\n$/);
    assert.match(r.stderr, /the log was rewritten and signed again/);

    const c = await runCli(['verify', copy], { env: env() });
    assert.equal(c.code, 5, printed(c));
    assert.match(c.stdout, new RegExp(`^6 events verified, signed by ${mallory.did} \\(unknown signer\\);`));
    assert.match(c.stderr, /is neither your signing key nor on your trust list/);

    // Once the user says they know that key, it is named, and verifies.
    const added = await runCli(['trust', 'add', mallory.did, '--name', 'Mallory'], { env: env() });
    assert.equal(added.code, 0, printed(added));
    const known = await runCli(['verify', copy], { env: env() });
    assert.equal(known.code, 0, printed(known));
    assert.match(known.stdout, new RegExp(`^6 events verified, signed by Mallory \\(${mallory.did}\\);`));
    assert.equal((await runCli(['trust', 'remove', mallory.did], { env: env() })).code, 0);
    assert.equal((await runCli(['verify', copy], { env: env() })).code, 5);
  });

  it('events spliced from another conversation signed by the same key fail (exit 1)', async () => {
    // Two conversations whose first events are byte for byte the same (as a fork's copies are).
    const a = await conversation(4, { groupEvery: 2 });
    const b = await conversation(6, { groupEvery: 2 });
    // Version 1 chains start from zeros, so B's signature at 2 holds over A's first 2 events: B's
    // later events, chained on A's, verified as A's. Version 2 binds each chain to its conversation.
    const spliced = copyFolder(a);
    const jsons = [...recordJsons(a).slice(0, 2), ...recordJsons(b).slice(2)];
    fs.writeFileSync(segmentPath(spliced), Buffer.concat(jsons.map((j, i) => encodeRecord(i, j))));
    const aLines = fs.readFileSync(path.join(a, SIGNATURES_FILE), 'utf8').split('\n');
    const bLines = fs.readFileSync(path.join(b, SIGNATURES_FILE), 'utf8').split('\n');
    const afterTwo = (ls: string[]): number => ls.findIndex((l) => l.startsWith('s 2 ')) + 1;
    fs.writeFileSync(
      path.join(spliced, SIGNATURES_FILE),
      [...aLines.slice(0, afterTwo(aLines)), ...bLines.slice(afterTwo(bLines))].join('\n'),
    );
    keepOnlyLogAndChain(spliced);
    const r = await runCli(['verify', spliced], { env: env() });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stdout, /^6 events, broken at event 2 \(e2\): signature invalid\n$/);

    // B's whole log and chain put in A's folder (its session.json kept): the chain names B.
    replaceLogAndChain(b, a);
    const swapped = await runCli(['verify', a], { env: env() });
    assert.equal(swapped.code, 1, printed(swapped));
    assert.match(swapped.stdout, /^6 events, broken at event 0 \(e0\): (spliced|rewritten)\n$/);
    const copyOfA = copyFolder(a); // no head: only the binding tells
    const bare = await runCli(['verify', copyOfA], { env: env() });
    assert.equal(bare.code, 1, printed(bare));
    assert.match(bare.stdout, /^6 events, broken at event 0 \(e0\): spliced\n$/);
    assert.match(bare.stderr, new RegExp(`bound to conversation ${idOf(b)}, not to this conversation`));
  });

  describe('the l and i marker lines are signed (version 2): each edit breaks the signature (exit 1)', () => {
    /** Two events written unsigned, then a signed writer: `<kind> 0 1` before their hashes. */
    async function withMarker(kind: 'late' | 'imported'): Promise<string> {
      const dir = tmpDir('marker');
      const plain = await SegmentEventStore.open(dir);
      await plain.append(ev('old0'));
      await plain.append(ev('old1'));
      await plain.close();
      const store = await openSignedStore(dir, {
        identity: you(),
        unchainedAre: kind,
        conversationId: path.basename(dir),
      });
      await store.append(ev('new2'));
      await store.close();
      return dir;
    }
    const edit = (dir: string, from: RegExp, to: string): void => {
      const file = path.join(dir, SIGNATURES_FILE);
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, from);
      fs.writeFileSync(file, text.replace(from, to));
    };
    const cases: { name: string; kind: 'late' | 'imported'; from: RegExp; to: string; untouched: number }[] =
      [
        {
          name: 'l turned into i (late shown as imported)',
          kind: 'late',
          from: /^l 0 1$/m,
          to: 'i 0 1',
          untouched: 3,
        },
        { name: 'i turned into l', kind: 'imported', from: /^i 0 1$/m, to: 'l 0 1', untouched: 0 },
        { name: 'a range shortened', kind: 'late', from: /^l 0 1$/m, to: 'l 0 0', untouched: 3 },
        { name: 'an l line deleted', kind: 'late', from: /^l 0 1\n/m, to: '', untouched: 3 },
        { name: 'an i line deleted', kind: 'imported', from: /^i 0 1\n/m, to: '', untouched: 0 },
        { name: 'an l line added', kind: 'imported', from: /^(h 2 )/m, to: 'l 2 2\n$1', untouched: 0 },
      ];
    for (const c of cases) {
      it(c.name, async () => {
        const dir = await withMarker(c.kind);
        const before = await runCli(['verify', dir], { env: env() });
        assert.equal(before.code, c.untouched, printed(before));
        edit(dir, c.from, c.to);
        const r = await runCli(['verify', dir], { env: env() });
        assert.equal(r.code, 1, printed(r));
        assert.match(r.stdout, /^3 events, broken at event 0 \(old0\): signature invalid\n$/);
        assert.match(r.stderr, /does not match: the signed hashes were altered/);
      });
    }
  });
});
