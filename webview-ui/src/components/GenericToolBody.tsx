// Any other tool: its arguments as a short list (finish/think messages as markdown), then the result.
import { contentText, obj, str, type Json } from '../lib/fields';
import type { Row } from '../state/store';
import { Markdown } from './Markdown';
import { ResultView } from './ResultView';
import { t } from '../lib/text';

const PROSE_FIELDS = new Set(['message', 'thought', 'text']);

/** Marks of task_tracker statuses (todo, in_progress, done), as its own output writes them. */
const STATUS_MARK: Record<string, string> = { todo: '[ ]', in_progress: '[~]', done: '[x]' };

/** A list of items that have titles (task_tracker's plan): their titles, one a line, not raw JSON. */
function titledItems(v: unknown): string[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const lines: string[] = [];
  for (const item of v) {
    const o = obj(item);
    const title = str(o?.title);
    if (title === undefined) return undefined;
    const mark = STATUS_MARK[str(o?.status) ?? ''];
    lines.push(mark ? `${mark} ${title}` : title);
  }
  return lines;
}

function ArgValue({ value }: { value: unknown }) {
  const items = titledItems(value);
  if (!items) return <>{preview(value)}</>;
  return (
    <ul class="arg-items">
      {items.slice(0, 50).map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}

function preview(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 400 ? `${s.slice(0, 400)}…` : s;
}

export function GenericToolBody({ action, row }: { action: Json; row: Row }) {
  const entries = Object.entries(action).filter(
    ([k, v]) => k !== 'kind' && v !== null && v !== undefined && v !== '',
  );
  const prose = entries.filter(([k, v]) => PROSE_FIELDS.has(k) && typeof v === 'string');
  const args = entries.filter(([k, v]) => !(PROSE_FIELDS.has(k) && typeof v === 'string'));
  return (
    <div class="generic-tool">
      {prose.map(([k, v]) => (
        <Markdown key={k} text={(v as string).slice(0, 100_000)} />
      ))}
      {args.length > 0 && (
        <dl class="args">
          {args.map(([k, v]) => (
            <div class="arg" key={k}>
              <dt>{k}</dt>
              <dd>
                <ArgValue value={v} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {row.result && !repeatsProse(row.result, prose) && <ResultView result={row.result} row={row} />}
    </div>
  );
}

/** A result that only says again what the card shows as prose (finish's message) is not shown twice. */
function repeatsProse(result: Json, prose: [string, unknown][]): boolean {
  const obs = obj(result.observation);
  if (!obs || obs.is_error === true || result.kind !== 'ObservationEvent') return false;
  const text = contentText(obs.content).trim();
  return prose.some(([, v]) => (v as string).trim() === text);
}

/** An ActionEvent whose call could not be parsed into an action: show the raw arguments. */
export function InvalidCallBody({ row }: { row: Row }) {
  const raw = str(obj(row.event.tool_call)?.arguments) ?? '';
  return (
    <div class="generic-tool">
      <div class="note">{t('invalidCall')}</div>
      <pre class="code" tabIndex={0}>
        {raw.slice(0, 4_000)}
      </pre>
      {row.result && <ResultView result={row.result} row={row} />}
    </div>
  );
}
