// A fork's first events are copies its source signed: this checks the proof the fork carries (the
// source's chain and signatures) and says who signed each copy. Used by verify.ts and by proof.ts.
import { SIGNATURES_FILE, signatureHolds, type SourceProof } from './chain';
import { ChainWalker } from './chain-head';
import type { BadEvent, VerifyResult } from './verdict';

export function addRange(out: VerifyResult['signedBy'], did: string, from: number, to: number): void {
  if (to < from) return;
  const last = out.at(-1);
  if (last && last.did === did && last.to + 1 === from) last.to = to;
  else out.push({ did, from, to });
}

/**
 * Checks a fork's proof that its first events were signed by its source: the source's signatures
 * over the source's chain, and each copy's hash found in that chain, in order, under a signature.
 */
export function checkSourceProof(
  proof: SourceProof,
  hashes: readonly string[],
  idOf: (index: number) => string | null,
): { signedBy: VerifyResult['signedBy']; signers: string[] } | { bad: BadEvent } {
  const fail = (index: number, detail: string): { bad: BadEvent } => ({
    bad: { index, id: idOf(index), reason: 'signature invalid', detail },
  });
  const walker = new ChainWalker({ ...proof, conversation: proof.source });
  for (const s of proof.signatures) {
    if (!signatureHolds(s, walker.advanceTo(s.count)))
      return fail(
        0,
        `the signature of the source conversation ${proof.source} on ${SIGNATURES_FILE} line ${s.line} does not match its chain: the copied proof was altered`,
      );
  }
  const signedBy: VerifyResult['signedBy'] = [];
  const signers = new Set<string>();
  let j = 0;
  let q = 0;
  for (let k = 0; k < Math.min(proof.copies, hashes.length); k++) {
    while (j < proof.hashes.length && proof.hashes[j] !== hashes[k]) j++;
    while (q < proof.signatures.length && proof.signatures[q]!.count <= j) q++;
    if (j >= proof.hashes.length || q >= proof.signatures.length)
      return fail(k, `event ${k} is a copy, but its source ${proof.source} did not sign it`);
    const did = proof.signatures[q]!.did;
    signers.add(did);
    addRange(signedBy, did, k, k);
    j++;
  }
  return { signedBy, signers: [...signers] };
}
