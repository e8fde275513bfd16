// A compact line diff for file edits: the `diff` package's Myers diff over the lines (only its array
// diff is imported, to keep the webview's bundle small), given up for removed-then-added when the
// change is too large to be worth the search, and unchanged lines far from a change folded. Output
// is a list of lines ready to render.
import { diffArrays } from 'diff/lib/diff/array.js';

export type DiffLine =
  { t: 'ctx' | 'del' | 'add'; text: string; oldNo?: number; newNo?: number } | { t: 'fold'; count: number };

export interface Diff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** Edits past this many lines are shown as all removed, then all added. */
const MAX_EDIT_LINES = 500;

function splitLines(s: string): string[] {
  if (s === '') return [];
  const lines = s.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function lineDiff(before: string, after: string, context = 2): Diff {
  const a = splitLines(before);
  const b = splitLines(after);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_LINES }) ?? [
    { value: a, count: a.length, removed: true, added: false },
    { value: b, count: b.length, removed: false, added: true },
  ];
  const full: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    for (const text of change.value) {
      if (change.removed) {
        full.push({ t: 'del', text, oldNo: ++oldNo });
        removed++;
      } else if (change.added) {
        full.push({ t: 'add', text, newNo: ++newNo });
        added++;
      } else full.push({ t: 'ctx', text, oldNo: ++oldNo, newNo: ++newNo });
    }
  }
  return { lines: fold(full, context), added, removed };
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
