// A blocked Bloom filter over record-id hashes: "no record has this hash" answered from one cache
// line. Every append checks that its id is new; without the filter that check probed the id table,
// a random read in a table of megabytes at 100k events, which cost more than all the append's other
// bookkeeping together (W1). A "maybe" goes on to the exact lookup (the table, id-index.ts).
//
// At least 16 bits per hash: each hash sets 6 bits in one 512-bit block chosen by a separate mix of
// the hash; a new id gets a false "maybe" well under 1 time in 100 (the test checks it at 100k). The
// index rebuilds it, twice as big, from the hashes when it holds as many as it was sized for.

const BLOCK_WORDS = 16; // 512 bits: one cache line
const BITS_PER_HASH = 16;

export class IdFilter {
  private words: Int32Array;
  private blockMask: number;
  private count = 0;
  private capacity: number;

  /** A filter with room for `expected` hashes before it first grows. */
  constructor(expected: number) {
    let blocks = 64;
    while (blocks * BLOCK_WORDS * 32 < expected * BITS_PER_HASH) blocks *= 2;
    this.words = new Int32Array(blocks * BLOCK_WORDS);
    this.blockMask = blocks - 1;
    this.capacity = (blocks * BLOCK_WORDS * 32) / BITS_PER_HASH;
  }

  /** Builds a filter holding the first `n` of `hashes`. */
  static of(hashes: Uint32Array, n: number): IdFilter {
    // Room for as many again: rebuilt each time it fills, it costs O(1) per hash over time.
    const f = new IdFilter(2 * n + 1024);
    for (let i = 0; i < n; i++) f.add(hashes[i]!);
    return f;
  }

  /** True when more hashes were added than it was sized for: the caller rebuilds it bigger. */
  get full(): boolean {
    return this.count >= this.capacity;
  }

  add(h: number): void {
    const w = this.words;
    const base = (Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0) & this.blockMask;
    const at = base * BLOCK_WORDS;
    let m = Math.imul(h, 0x9e3779b1);
    w[at + ((m >>> 5) & 15)]! |= 1 << (m & 31);
    w[at + ((m >>> 14) & 15)]! |= 1 << ((m >>> 9) & 31);
    w[at + ((m >>> 23) & 15)]! |= 1 << ((m >>> 18) & 31);
    m = Math.imul(h ^ (h >>> 13), 0x85ebca77);
    w[at + ((m >>> 5) & 15)]! |= 1 << (m & 31);
    w[at + ((m >>> 14) & 15)]! |= 1 << ((m >>> 9) & 31);
    w[at + ((m >>> 23) & 15)]! |= 1 << ((m >>> 18) & 31);
    this.count++;
  }

  /** False: no hash added was `h`. True: one may have been. */
  mightHave(h: number): boolean {
    const w = this.words;
    const base = (Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0) & this.blockMask;
    const at = base * BLOCK_WORDS;
    let m = Math.imul(h, 0x9e3779b1);
    if ((w[at + ((m >>> 5) & 15)]! & (1 << (m & 31))) === 0) return false;
    if ((w[at + ((m >>> 14) & 15)]! & (1 << ((m >>> 9) & 31))) === 0) return false;
    if ((w[at + ((m >>> 23) & 15)]! & (1 << ((m >>> 18) & 31))) === 0) return false;
    m = Math.imul(h ^ (h >>> 13), 0x85ebca77);
    if ((w[at + ((m >>> 5) & 15)]! & (1 << (m & 31))) === 0) return false;
    if ((w[at + ((m >>> 14) & 15)]! & (1 << ((m >>> 9) & 31))) === 0) return false;
    return (w[at + ((m >>> 23) & 15)]! & (1 << ((m >>> 18) & 31))) !== 0;
  }
}
