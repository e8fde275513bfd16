// The seed's per-event API over the chain: whether an event is signed, by whom, and whether it still
// verifies (its bytes hash to what the chain holds at its position, and a valid signature covers it).
import { b64, eventHash, parseChainFile, readChainText, signatureHolds } from './chain';
import { ChainWalker } from './chain-head';
import { rawRecords } from './raw-records';
import { checkSourceProof } from './source-proof-check';

export interface EventProof {
  index: number;
  /** the exact bytes the chain hashes for this event (see signablePayload) */
  json: string;
  /** a signature covers this position of the chain */
  isSigned: boolean;
  signerDid: string | null;
  verifySignature(): boolean;
}

export function eventProofs(dir: string): EventProof[] {
  const chain = parseChainFile(readChainText(dir) ?? '');
  // signer of each position, for the signatures that verify
  const signer: (string | null)[] = [];
  const valid: boolean[] = [];
  const walker = new ChainWalker(chain);
  for (const s of chain.signatures) {
    const ok = signatureHolds(s, walker.advanceTo(s.count));
    for (let i = signer.length; i < s.count; i++) {
      signer.push(s.did);
      valid.push(ok);
    }
  }
  const records = [...rawRecords(dir)].flatMap((r) => (r.ok ? [r] : []));
  if (chain.fork) {
    // A fork's copies are signed by its source, when the copied proof holds.
    const proof = checkSourceProof(chain.fork, chain.hashes, (i) => {
      try {
        const id = (JSON.parse(records[i]?.json ?? 'null') as { id?: unknown } | null)?.id;
        return typeof id === 'string' ? id : null;
      } catch {
        return null;
      }
    });
    for (let i = 0; i < chain.fork.copies && i < signer.length; i++) {
      const by = 'bad' in proof ? undefined : proof.signedBy.find((s) => s.from <= i && i <= s.to);
      signer[i] = by?.did ?? null;
      if (!by) valid[i] = false;
    }
  }
  const out: EventProof[] = [];
  for (const r of records) {
    const index = out.length;
    const json = r.json;
    const hash = b64(eventHash(r.bytes));
    out.push({
      index,
      json,
      isSigned: (signer[index] ?? null) !== null,
      signerDid: signer[index] ?? null,
      verifySignature: () => valid[index] === true && chain.hashes[index] === hash,
    });
  }
  return out;
}
