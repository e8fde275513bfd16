// Fuzzy matching of a typed query against workspace paths, for mention completion: the query's
// characters must appear in order (case-insensitive); matches at the start of a name or a path part,
// runs of consecutive characters, and matches in the file's own name score higher; shorter paths win
// ties. One pass over each candidate, no allocation per candidate: 50,000 paths rank in milliseconds.

/** Score of `query` (already lower-cased) in `text`; -1 when it does not match. */
export function fuzzyScore(query: string, text: string, lower = text.toLowerCase()): number {
  if (query === '') return 0;
  const nameStart = lower.lastIndexOf('/', lower.length - 2) + 1;
  let score = 0;
  let qi = 0;
  let previous = -2;
  for (let i = 0; i < lower.length && qi < query.length; i++) {
    if (lower.charCodeAt(i) !== query.charCodeAt(qi)) continue;
    let s = 1;
    if (i === previous + 1) s += 5; // consecutive
    const before = i === 0 ? '/' : text[i - 1]!;
    if (before === '/' || before === '.' || before === '_' || before === '-' || before === ' ') s += 8;
    else if (text[i] !== lower[i] && before === before.toLowerCase()) s += 4; // camelCase hump
    if (i >= nameStart) s += 3;
    score += s;
    previous = i;
    qi++;
  }
  if (qi < query.length) return -1;
  // The whole query inside the file's name, or the name itself, is what users mostly mean.
  const name = lower.slice(nameStart);
  if (name.startsWith(query)) score += 20;
  else if (name.includes(query)) score += 10;
  return score;
}

export interface Ranked<T> {
  item: T;
  score: number;
}

/**
 * The best `limit` candidates for `query`, best first. `key` gives each candidate's text and
 * `lower` its lower-cased form (callers holding many candidates precompute it).
 */
export function rankFuzzy<T>(
  candidates: readonly T[],
  query: string,
  limit: number,
  key: (c: T) => string,
  lower: (c: T) => string = (c) => key(c).toLowerCase(),
): T[] {
  const q = query.toLowerCase();
  const best: Ranked<T>[] = [];
  let floor = -1; // the lowest score kept once `best` is full
  for (const c of candidates) {
    const text = key(c);
    let score = fuzzyScore(q, text, lower(c));
    if (score < 0) continue;
    score -= text.length / 100; // shorter paths first among equals
    if (best.length === limit && score <= floor) continue;
    best.push({ item: c, score });
    if (best.length > limit) {
      best.sort((a, b) => b.score - a.score);
      best.length = limit;
      floor = best[limit - 1]!.score;
    }
  }
  return best.sort((a, b) => b.score - a.score).map((r) => r.item);
}
