// Amounts as a person reads them, one way wherever they are shown (the chat header, the status bar,
// the Conversations view, the CLI and messages), so the same conversation never reads two ways.

/**
 * US dollars: two decimals from a dollar up; below it up to four, so the cents of a cheap model's
 * calls still show ($0.0042, $0.05). A cost too small for four decimals is "<$0.0001", never a
 * zero that is not one.
 */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return '$0.00';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd < 0.00005) return '<$0.0001';
  const four = usd.toFixed(4).replace(/0{1,2}$/, '');
  return `$${four}`;
}

/** "1 file", "2 files", "1,024 events": the count and the word in its number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
