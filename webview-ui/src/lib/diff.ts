// A compact line diff for file edits: common prefix and suffix are trimmed, the changed middle is
// diffed with an LCS table when small enough (else shown as removed-then-added), and unchanged lines
// far from a change are folded. Output is a list of lines ready to render.
// Hand-written, though the `diff` package is a dependency (the host's diffs use it): even its array
// diff alone adds 2.9 KB minified to dist/webview.js, which then passed its 280 KB budget (issue 49)
// by 0.9 KB; this table costs about 0.6 KB. Where the webview's budget allows, use the package.

export type DiffLine =
  { t: 'ctx' | 'del' | 'add'; text: string; oldNo?: number; newNo?: number } | { t: 'fold'; count: number };

export interface Diff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

const LCS_CELLS = 250_000;

function splitLines(s: string): string[] {
  if (s === '') return [];
  const lines = s.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function lineDiff(before: string, after: string, context = 2): Diff {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: ('ctx' | 'del' | 'add')[] = [];
  for (let i = 0; i < start; i++) ops.push('ctx');
  ops.push(...middleOps(a.slice(start, endA), b.slice(start, endB)));
  for (let i = endA; i < a.length; i++) ops.push('ctx');

  const full: DiffLine[] = [];
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op === 'ctx') {
      full.push({ t: 'ctx', text: a[i]!, oldNo: ++i, newNo: ++j });
    } else if (op === 'del') {
      full.push({ t: 'del', text: a[i]!, oldNo: ++i });
      removed++;
    } else {
      full.push({ t: 'add', text: b[j]!, newNo: ++j });
      added++;
    }
  }
  return { lines: fold(full, context), added, removed };
}

/** Edit script of the changed middle: LCS when the table fits, else all removed then all added. */
function middleOps(a: string[], b: string[]): ('ctx' | 'del' | 'add')[] {
  const n = a.length;
  const m = b.length;
  if (n * m > LCS_CELLS) return [...Array<'del'>(n).fill('del'), ...Array<'add'>(m).fill('add')];
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let x = n - 1; x >= 0; x--)
    for (let y = m - 1; y >= 0; y--)
      t[x * w + y] =
        a[x] === b[y] ? t[(x + 1) * w + y + 1]! + 1 : Math.max(t[(x + 1) * w + y]!, t[x * w + y + 1]!);
  const ops: ('ctx' | 'del' | 'add')[] = [];
  let x = 0;
  let y = 0;
  while (x < n && y < m) {
    if (a[x] === b[y]) {
      ops.push('ctx');
      x++;
      y++;
    } else if (t[(x + 1) * w + y]! >= t[x * w + y + 1]!) {
      ops.push('del');
      x++;
    } else {
      ops.push('add');
      y++;
    }
  }
  while (x++ < n) ops.push('del');
  while (y++ < m) ops.push('add');
  return ops;
}

function fold(lines: DiffLine[], context: number): DiffLine[] {
  const near = new Uint8Array(lines.length);
  lines.forEach((l, k) => {
    if (l.t === 'del' || l.t === 'add')
      for (let d = Math.max(0, k - context); d <= Math.min(lines.length - 1, k + context); d++) near[d] = 1;
  });
  const out: DiffLine[] = [];
  let hidden = 0;
  lines.forEach((l, k) => {
    if (near[k]) {
      if (hidden) out.push({ t: 'fold', count: hidden });
      hidden = 0;
      out.push(l);
    } else hidden++;
  });
  if (hidden) out.push({ t: 'fold', count: hidden });
  return out;
}
