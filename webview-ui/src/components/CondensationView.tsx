// A condensation marker: how many earlier events the agent summarized, and the summary on demand.
import { arr, str } from '../lib/fields';
import type { Row } from '../state/store';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { Markdown } from './Markdown';
import { t, tn } from '../lib/text';

/** Ids listed, plus the events a range names by its ends (a long run, core/context/forgotten-range.ts). */
function forgottenCount(e: Row['event']): number {
  const range = e.forgotten_range as { count?: unknown } | undefined;
  return arr(e.forgotten_event_ids).length + (typeof range?.count === 'number' ? range.count : 0);
}

export function CondensationView({ row }: { row: Row }) {
  const e = row.event;
  const summary = str(e.summary)?.trim();
  const label =
    e.kind === 'Condensation'
      ? tn(forgottenCount(e), 'condensedOne', 'condensedMany')
      : t('condensedSummary');
  return (
    <div class="notice condensation">
      <Icon name="fold" />
      {summary ? (
        <Collapsible id={`${row.key}:summary`} row={row} label={label}>
          {() => <Markdown text={summary.slice(0, 100_000)} />}
        </Collapsible>
      ) : (
        <span>{label}</span>
      )}
    </div>
  );
}
