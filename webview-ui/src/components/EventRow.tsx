// One row of the conversation: the event's view inside an error boundary, plus "Continue from here".
// Memoized on (row, rev): a row redraws only when its own content changed (e.g. its result arrived).
import type { ComponentChildren } from 'preact';
import { memo } from '../lib/memo';
import { brokenEvent, brokenRow, header, isPlanAction, restoredTo, rows, type Row } from '../state/store';
import { Icon } from './Icon';
import { PlanCard } from './PlanCard';
import { ActionCard } from './ActionCard';
import { CondensationView } from './CondensationView';
import { MessageView } from './MessageView';
import { Notice } from './Notice';
import { RowBoundary } from './RowBoundary';
import { RowTools } from './RowTools';
import { StandaloneResult } from './StandaloneResult';
import { SystemPromptView } from './SystemPromptView';
import { count, t } from '../lib/text';
import type { WebviewTextKey } from '../../../src/protocol/webview-text';

// `rev` is passed down although unused: components that read signals skip re-rendering when their
// props are shallow-equal, and rows are mutated in place, so the revision is what tells them apart.
// Cards take the row's tools into their head; other rows show them at their top right.
function Content({ row, rev, tools }: { row: Row; rev: number; tools: ComponentChildren }) {
  switch (row.view) {
    case 'message':
      return <MessageView row={row} />;
    case 'action':
      return isPlanAction(row.event) ? (
        <PlanCard row={row} rev={rev} tools={tools} />
      ) : (
        <ActionCard row={row} rev={rev} tools={tools} />
      );
    case 'result':
      return <StandaloneResult row={row} />;
    case 'condensation':
      return <CondensationView row={row} />;
    case 'system':
      return <SystemPromptView row={row} />;
    default:
      return <Notice row={row} rev={rev} />;
  }
}

/** A screen whose pointer cannot hover (a touch screen): what shows on hover must show anyway. */
const NO_HOVER = typeof matchMedia === 'function' && matchMedia('(hover: none)').matches;

const LABELS: Record<string, WebviewTextKey> = {
  message: 'rowMessage',
  action: 'rowToolCall',
  result: 'rowToolResult',
  condensation: 'rowCondensation',
  system: 'rowSystemPrompt',
};

interface Props {
  row: Row;
  rev: number;
  position: number;
  total: number;
}

function EventRowView({ row, position, total }: Props) {
  const conversationId = header.value?.id;
  const forkable = conversationId !== undefined && row.view !== 'corrupt';
  // The first event that is not as it was signed is marked on its row (or, when it has no row of
  // its own, on the row before it).
  const bad = brokenEvent.value;
  const at = bad ? brokenRow(bad) : null;
  const marked = bad !== null && at !== null && at.index >= 0 && rows[at.index] === row;
  const tools = forkable ? <RowTools row={row} conversationId={conversationId} /> : null;
  const inHead = row.view === 'action';
  // Without hover (touch), or on a restore's line (its Undo), the tools never hide.
  const shown = tools && (NO_HOVER || restoredTo(row.event) !== undefined);
  return (
    <article
      class={`row row-${row.view}${marked ? ' row-tampered' : ''}${tools ? ' has-tools' : ''}${shown ? ' tools-shown' : ''}`}
      aria-posinset={position}
      aria-setsize={total}
      aria-label={t(LABELS[row.view] ?? 'rowEvent', count(position), count(total))}
      data-kind={row.event.kind}
      data-seq={row.seq}
    >
      {marked && (
        <div class="tamper-note" role="alert">
          <Icon name="workspace-untrusted" />
          {at.exact ? t('notAsSigned', bad.reason, bad.seq) : t('notAsSignedAfter', bad.seq, bad.reason)}
        </div>
      )}
      <RowBoundary kind={row.event.kind} fallback={inHead ? tools : null}>
        <Content row={row} rev={row.rev} tools={inHead ? tools : null} />
      </RowBoundary>
      {!inHead && tools}
    </article>
  );
}

export const EventRow = memo(
  EventRowView,
  (a, b) => a.row === b.row && a.rev === b.rev && a.position === b.position && a.total === b.total,
);
