// A compact unified diff: changed lines with a little context, long stretches folded. Very long diffs
// show their first lines and a count of the rest (the full diff is one click away in "Open diff").
// No token colors here: on the tinted added/removed backgrounds they lose contrast in some themes.
import { useMemo } from 'preact/hooks';
import { type Diff, lineDiff } from '../lib/diff';
import { isOpen, type Row, toggleOpen } from '../state/store';
import { t, tn } from '../lib/text';

const SHOWN_LINES = 60;
const cache = new Map<string, { before: string; after: string; diff: Diff }>();

/**
 * The diff of a row, kept while its texts stay the same. A card first shows the action's own
 * old_str/new_str and then, once the result is in, the whole file: the diff (and its line numbers)
 * must follow, as a reload shows it.
 */
function cachedDiff(key: string, before: string, after: string): Diff {
  const kept = cache.get(key);
  if (kept && kept.before === before && kept.after === after) return kept.diff;
  if (!kept && cache.size > 200) cache.delete(cache.keys().next().value!);
  const diff = lineDiff(before, after);
  cache.set(key, { before, after, diff });
  return diff;
}

interface Props {
  id: string;
  row?: Row;
  before: string;
  after: string;
  numbered: boolean;
}

export function DiffView({ id, row, before, after, numbered }: Props) {
  const diff = useMemo(() => cachedDiff(id, before, after), [id, before, after]);
  const all = isOpen(`${id}:all`);
  const lines = all ? diff.lines : diff.lines.slice(0, SHOWN_LINES);
  const rest = diff.lines.length - lines.length;
  // One narrow gutter: the line's number in the file after the edit (before it, for a removed
  // line); the sign tells which. Two columns took a third of a 300 px sidebar.
  const digits = String(
    diff.lines.reduce((max, l) => (l.t === 'fold' ? max : Math.max(max, l.newNo ?? 0, l.oldNo ?? 0)), 0),
  ).length;
  return (
    <div class="diff">
      <div class="diff-stats">
        <span class="diff-added">+{diff.added}</span> <span class="diff-removed">−{diff.removed}</span>
      </div>
      <div class="diff-body code" tabIndex={0} data-digits={Math.min(digits, 6)}>
        {lines.map((l, i) =>
          l.t === 'fold' ? (
            <div class="diff-line diff-fold" key={i}>
              <span>{tn(l.count, 'unchangedLinesOne', 'unchangedLinesMany')}</span>
            </div>
          ) : (
            <div class={`diff-line diff-${l.t}`} key={i}>
              {numbered && <span class="diff-no">{l.t === 'del' ? l.oldNo : l.newNo}</span>}
              <span class="diff-sign">{l.t === 'add' ? '+' : l.t === 'del' ? '−' : ' '}</span>
              <span class="diff-text">{l.text || ' '}</span>
            </div>
          ),
        )}
      </div>
      {(rest > 0 || all) && diff.lines.length > SHOWN_LINES && (
        <button
          type="button"
          class="link-button"
          aria-expanded={all}
          onClick={() => toggleOpen(`${id}:all`, row)}
        >
          {all ? t('showLess') : tn(rest, 'showMoreLinesOne', 'showMoreLinesMany')}
        </button>
      )}
    </div>
  );
}
