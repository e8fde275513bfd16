// A fork's proof: which of its first records are copies its source chained and signed, so the
// fork's signatures.log can carry the source's hashes and signatures for them (FORMAT.md, "Forks").
import { type ChainMarker, markerLine, parseChainFile, readChainText, signatureHolds } from './chain';
import { ChainWalker, chainIdToken } from './chain-head';

/** Where a fork's copies come from: the source's folder, id, and each copy's index in its log. */
export interface CopySource {
  dir: string;
  id: string;
  indices: readonly number[];
}

/**
 * The proof lines a fork starts with, and the `l`/`i` ranges before some copies: the longest run of
 * copies from the first whose bytes hash to what the source chained at their index, under a valid
 * source signature, and not late there. Later copies are late; copies the source imported stay imported.
 * A version-2 source's proof names its bound id and carries its markers (`m`), which its heads link.
 */
export function planSourceProof(
  source: CopySource,
  hashes: readonly string[],
): { block: string; marks: Map<number, ChainMarker> } {
  const marks = new Map<number, ChainMarker>();
  const n = hashes.length;
  const lateFrom = (k: number): { block: string; marks: Map<number, ChainMarker> } => {
    if (k < n) marks.set(k, { kind: 'l', from: k, to: n - 1 });
    return { block: '', marks };
  };
  const text = readChainText(source.dir);
  if (text === null) return lateFrom(0);
  const chain = parseChainFile(text);
  if (chain.malformed) return lateFrom(0);
  // The source's signatures that hold, from the first; the chain is trusted up to the last of them.
  const valid: typeof chain.signatures = [];
  const walker = new ChainWalker(chain);
  for (const s of chain.signatures) {
    if (!signatureHolds(s, walker.advanceTo(s.count))) break;
    valid.push(s);
  }
  const signedCount = valid.at(-1)?.count ?? 0;
  const inRange = (rs: { from: number; to: number }[], i: number): boolean =>
    rs.some((r) => r.from <= i && i <= r.to);
  let k = 0;
  let prev = -1;
  for (; k < n; k++) {
    const src = source.indices[k];
    if (src === undefined || src <= prev || src >= signedCount) break;
    if (chain.hashes[src] !== hashes[k] || inRange(chain.late, src)) break;
    prev = src;
  }
  if (k === 0) return lateFrom(0);
  // Runs of copies the source had imported stay imported.
  for (let t = 0; t < k;) {
    if (!inRange(chain.imported, source.indices[t]!)) {
      t++;
      continue;
    }
    let u = t;
    while (u + 1 < k && inRange(chain.imported, source.indices[u + 1]!)) u++;
    marks.set(t, { kind: 'i', from: t, to: u });
    t = u + 1;
  }
  const cover = valid.find((s) => s.count > prev)!;
  const v2 = chain.version === 2;
  let block = v2 ? `f ${k} ${chain.conversation} 2\n` : `f ${k} ${chainIdToken(source.id)}\n`;
  const markers = v2 ? chain.markers.filter((m) => m.from < cover.count) : [];
  let m = 0;
  for (let i = 0; i < cover.count; i++) {
    for (; m < markers.length && markers[m]!.from === i; m++) block += `m ${markerLine(markers[m]!)}\n`;
    block += `p ${chain.hashes[i]}\n`;
  }
  for (const s of valid)
    if (s.count <= cover.count) block += `q ${s.count} ${s.head} ${s.did} ${s.signature}\n`;
  lateFrom(k);
  return { block, marks };
}
