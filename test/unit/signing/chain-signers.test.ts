// Who signed a conversation, as `logbook show` lists it: read from signatures.log without splitting
// the file into lines, and still the same answer a line-by-line reading gives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SIGNATURES_FILE, chainSigners } from '../../../src/core/signing';
import { SIGNATURES_HEADER_V2 } from '../../../src/core/signing/chain';
import { cleanupTmp, tmpDir } from '../log/helpers';

/** The signers a plain line-by-line reading finds: every `s` or `q` line's fourth field, first seen first. */
function signersByLines(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('s ') && !line.startsWith('q ')) continue;
    const did = line.split(' ')[3];
    if (did) seen.add(did);
  }
  return [...seen];
}

/** A deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('chainSigners', () => {
  after(cleanupTmp);

  const write = (text: string): string => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, SIGNATURES_FILE), text);
    return dir;
  };

  it('names nobody when there is no signatures.log', () => {
    assert.deepEqual(chainSigners(tmpDir()), []);
  });

  it("lists each signer once, in the order of its first line, a fork's copied signatures included", () => {
    const text = [
      `${SIGNATURES_HEADER_V2} 11111111-2222-3333-4444-555555555555`,
      'f 2 99999999-2222-3333-4444-555555555555 2',
      'p aaaa',
      'p bbbb',
      'q 2 headq did:key:zSource sigq',
      'h 0 aaaa',
      'h 1 bbbb',
      'h 2 cccc',
      's 3 head3 did:key:zBob sig3',
      'h 3 dddd',
      's 4 head4 did:key:zSource sig4',
      's 4 head4 did:key:zCarol sig4c',
      '',
    ].join('\n');
    assert.deepEqual(chainSigners(write(text)), ['did:key:zSource', 'did:key:zBob', 'did:key:zCarol']);
  });

  it('reads a torn last signature line as a line-by-line reading does', () => {
    const text = `${SIGNATURES_HEADER_V2} x\nh 0 aaaa\ns 1 head did:key:zTorn`;
    assert.deepEqual(chainSigners(write(text)), ['did:key:zTorn']);
  });

  it('gives what a line-by-line reading gives, on 200 generated files', () => {
    const r = rng(7);
    const dids = ['did:key:zA', 'did:key:zB', 'did:key:zC', 'did:key:zD'];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    for (let n = 0; n < 200; n++) {
      const lines = [
        pick([`${SIGNATURES_HEADER_V2} id`, 's 0 h did:key:zFirst x', 'q 0 h did:key:zFirstQ x']),
      ];
      const count = Math.floor(r() * 40);
      for (let i = 0; i < count; i++) {
        const p = r();
        if (p < 0.6) lines.push(`h ${i} ${pick(['s', 'q', 'ss q', 'abc'])}`);
        else if (p < 0.75) lines.push(`s ${i} head ${pick(dids)} sig`);
        else if (p < 0.85) lines.push(`q ${i} head ${pick(dids)} sig`);
        else if (p < 0.9) lines.push(pick(['s', 'q', 's 1', 'q 1 h']));
        else lines.push(`l ${i} ${i}`);
      }
      const text = lines.join('\n') + pick(['\n', '', '\ns 9 h did:key:zTail']);
      assert.deepEqual(chainSigners(write(text)), signersByLines(text), JSON.stringify(text));
    }
  });
});
