// Tool output in a monospace block under a toggle that hides it; long output shows its first lines
// with "Show all", and even expanded it is capped so a multi-megabyte log cannot flood the DOM.
import { useMemo } from 'preact/hooks';
import { highlight } from '../lib/highlight';
import { isOpen, type Row, toggleOpen } from '../state/store';
import { Icon } from './Icon';
import { count, t, tn } from '../lib/text';

const HEAD_LINES = 12;
const HEAD_CHARS = 2_000;
const EXPANDED_CHARS = 100_000;

interface Props {
  text: string;
  id: string;
  row?: Row;
  lang?: string;
  tone?: 'normal' | 'error';
  label?: string;
}

function countLines(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function head(s: string): string {
  let end = 0;
  for (let k = 0; k < HEAD_LINES; k++) {
    const next = s.indexOf('\n', end);
    if (next === -1) return s.slice(0, HEAD_CHARS);
    end = next + 1;
  }
  return s.slice(0, Math.min(end - 1, HEAD_CHARS));
}

export function OutputBlock({ text, id, row, lang, tone = 'normal', label = t('output') }: Props) {
  const body = text.trimEnd();
  const { lines, short } = useMemo(() => {
    const lines = countLines(body);
    return { lines, short: head(body) };
  }, [body]);
  const truncated = short.length < body.length;
  const open = truncated && isOpen(id);
  const hidden = isOpen(`${id}:hidden`);
  const shown = open ? body.slice(0, EXPANDED_CHARS) : short;
  if (!body) return <div class="output-empty">{t('noOutput')}</div>;
  return (
    <div class={`output tone-${tone}`}>
      <button
        type="button"
        class="collapsible-toggle output-toggle"
        aria-expanded={!hidden}
        onClick={() => toggleOpen(`${id}:hidden`, row)}
      >
        <Icon name={hidden ? 'chevron-right' : 'chevron-down'} />
        {tn(lines, 'outputHeadOne', 'outputHeadMany', label)}
      </button>
      {!hidden && (
        <pre class="code" tabIndex={0}>
          <code dangerouslySetInnerHTML={{ __html: highlight(shown, lang) }} />
        </pre>
      )}
      {!hidden && truncated && (
        <button type="button" class="link-button" aria-expanded={open} onClick={() => toggleOpen(id, row)}>
          <Icon name={open ? 'fold' : 'unfold'} />
          {open ? t('showLess') : tn(lines, 'showAllLinesOne', 'showAllLinesMany')}
        </button>
      )}
      {!hidden && open && body.length > EXPANDED_CHARS && (
        <div class="note">{t('showingFirstChars', count(EXPANDED_CHARS), count(body.length))}</div>
      )}
    </div>
  );
}
