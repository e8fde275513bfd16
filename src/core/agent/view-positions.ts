/**
 * The positions of a view checkpoint's entries, stored compactly. A view that nothing condenses
 * keeps nearly every event, so its checkpoint names nearly every id in the log: written as ids in
 * every snapshot, that made snapshot bytes grow with the square of the log's length. The entries
 * are in log order at known positions, so a bitmap of those positions (deflated: the pattern of kept
 * events repeats) says the same in about a bit per event, usually far less. The ids are read back
 * from the log at those positions and checked against a crc of the ids the checkpoint named, so a
 * snapshot of another history is still refused.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { crc32 } from '../log/record-format';

export const KeptPositionsSchema = lazySchema(() =>
  z.object({
    /** Position of the first entry; bit k of the bitmap stands for position first + k. */
    first: z.number().int().nonnegative(),
    count: z.number().int().nonnegative(),
    /** Deflated bitmap, base64. */
    bits: z.string(),
    /** crc32 (hex) of the entries' ids joined by newlines. */
    idsCrc: z.string(),
  }),
);
export type KeptPositions = z.output<typeof KeptPositionsSchema>;

/** The positions as a bitmap, or null when they are not all known and increasing (then ids are kept). */
export function encodePositions(
  ids: readonly string[],
  at: readonly (number | null)[],
): KeptPositions | null {
  if (ids.length === 0 || at.length !== ids.length) return null;
  const known: number[] = [];
  for (const p of at) {
    if (p === null || (known.length > 0 && p <= known.at(-1)!)) return null;
    known.push(p);
  }
  const first = known[0]!;
  const bitmap = Buffer.alloc(((known.at(-1)! - first) >> 3) + 1);
  for (const p of known) bitmap[(p - first) >> 3]! |= 1 << ((p - first) & 7);
  return packPositions(first, known.length, bitmap, crc32(ids.join('\n')));
}

/** Positions from their bitmap (bit k: position first + k) and the crc32 of their ids joined by newlines. */
export function packPositions(first: number, count: number, bitmap: Uint8Array, crc: number): KeptPositions {
  return { first, count, bits: deflateRawSync(bitmap).toString('base64'), idsCrc: crcHex(crc) };
}

/** Positions decoded, by checkpoint: an open checks them, then reads the view at them. */
const decoded = new WeakMap<KeptPositions, number[] | null>();

/** The positions a bitmap names, in order; null when it does not decode to `count` of them. */
export function decodePositions(kept: KeptPositions): number[] | null {
  if (!decoded.has(kept)) decoded.set(kept, inflatePositions(kept));
  const positions = decoded.get(kept)!;
  return positions && [...positions];
}

function inflatePositions(kept: KeptPositions): number[] | null {
  let bitmap: Buffer;
  try {
    bitmap = inflateRawSync(Buffer.from(kept.bits, 'base64'));
  } catch {
    return null;
  }
  const out: number[] = [];
  for (let byte = 0; byte < bitmap.length; byte++) {
    const b = bitmap[byte]!;
    if (b === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (b & (1 << bit)) out.push(kept.first + byte * 8 + bit);
  }
  return out.length === kept.count ? out : null;
}

export function idsCrc(ids: readonly string[]): string {
  return crcHex(crc32(ids.join('\n')));
}

const crcHex = (crc: number): string => crc.toString(16).padStart(8, '0');
