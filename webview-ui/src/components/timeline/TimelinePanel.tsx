// The conversation as it was at the timeline's event: status, mode, tokens and cost, the plan, and
// the files changed from the first checkpoint up to there, each with its diffs (start to here, here
// to now) and "Open files at this point". Everything shown is the host's answer for that event.
import type { TimelineFile, TimelinePoint } from '../../../../src/protocol/messages';
import { formatCost, formatTime, formatTokens, statusLook } from '../../lib/format';
import { firstSeqHeld, held, pointName, shownConversation } from '../../state/store';
import { pointLabel } from '../../lib/event-label';
import { timelineError, timelinePoint, timelineSeq, timelineWaiting } from '../../state/timeline';
import { send } from '../../vscode-api';
import { Button } from '../Button';
import { Icon } from '../Icon';
import { count, t } from '../../lib/text';
import type { WebviewTextKey } from '../../../../src/protocol/webview-text';

const CHANGE_WORD: Record<TimelineFile['status'], WebviewTextKey> = {
  A: 'changeAdded',
  M: 'changeModified',
  D: 'changeDeleted',
  R: 'changeRenamed',
  T: 'changeTypeChanged',
};

const PLAN_ICON: Record<string, string> = { done: 'pass', in_progress: 'circle-filled' };
const PLAN_WORD: Record<string, WebviewTextKey> = {
  done: 'planDone',
  in_progress: 'planInProgress',
  todo: 'planToDo',
};

function FileRow({ file, point }: { file: TimelineFile; point: TimelinePoint }) {
  const id = shownConversation();
  const at = point.seq + 1;
  const diff = (against: 'start' | 'now') =>
    id !== null &&
    send({ type: 'timelineDiff', conversationId: id, seq: point.seq, path: file.path, against });
  return (
    <li class="timeline-file">
      <span class={`timeline-change change-${file.status}`} title={t(CHANGE_WORD[file.status])}>
        {file.status}
        <span class="sr-only"> ({t(CHANGE_WORD[file.status])})</span>
      </span>
      <span class="timeline-path" title={file.from ? `${file.from} → ${file.path}` : file.path}>
        {file.path}
      </span>
      <button
        type="button"
        class="link-button"
        aria-label={t('diffFromStart', file.path, count(at))}
        title={t('diffFromStartTitle')}
        onClick={() => diff('start')}
      >
        {t('diffWord')}
      </button>
      <button
        type="button"
        class="link-button"
        aria-label={t('diffVsNow', file.path, count(at))}
        title={t('diffVsNowTitle')}
        onClick={() => diff('now')}
      >
        {t('vsNow')}
      </button>
    </li>
  );
}

function PointView({ point }: { point: TimelinePoint }) {
  const look = statusLook(point.status);
  const id = shownConversation();
  const time = formatTime(point.timestamp);
  const openable = point.files.some((f) => f.status !== 'D');
  return (
    <>
      <dl class="timeline-state">
        <div>
          <dt>{t('timelineStatus')}</dt>
          <dd>
            <Icon name={look.icon === 'loading' ? 'sync' : look.icon} />
            {look.label}
          </dd>
        </div>
        <div>
          <dt>{t('timelineMode')}</dt>
          <dd>{point.mode === 'plan' ? t('planMode') : t('actMode')}</dd>
        </div>
        <div>
          <dt>{t('timelineTokens')}</dt>
          <dd>
            {t('timelineTokensValue', formatTokens(point.promptTokens), formatTokens(point.completionTokens))}
          </dd>
        </div>
        <div>
          <dt>{t('timelineCost')}</dt>
          <dd>{formatCost(point.cost)}</dd>
        </div>
        {time && (
          <div>
            <dt>{t('timelineTime')}</dt>
            <dd>{time}</dd>
          </div>
        )}
      </dl>
      {point.plan.length > 0 && (
        <>
          <h3 class="timeline-heading">{t('plan')}</h3>
          <ul class="timeline-plan">
            {point.plan.map((item, i) => (
              <li key={i} class={`plan-${item.status}`}>
                <Icon name={PLAN_ICON[item.status] ?? 'circle-large-outline'} />
                <span>{item.title}</span>
                <span class="sr-only"> ({t(PLAN_WORD[item.status] ?? 'planToDo')})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3 class="timeline-heading">{t('filesChangedSoFar')}</h3>
      <p class="timeline-note">{point.filesNote}</p>
      {point.files.length > 0 && (
        <ul class="timeline-files">
          {point.files.map((f) => (
            <FileRow key={f.path} file={f} point={point} />
          ))}
        </ul>
      )}
      {point.filesNotShown > 0 && <p class="timeline-note">{t('andMore', count(point.filesNotShown))}</p>}
      {openable && (
        <Button
          kind="secondary"
          icon="go-to-file"
          onClick={() =>
            id !== null && send({ type: 'timelineOpenFiles', conversationId: id, seq: point.seq })
          }
        >
          {t('openFilesAtPoint')}
        </Button>
      )}
    </>
  );
}

export function TimelinePanel() {
  const at = timelineSeq.value;
  if (at === null) return null;
  const point = timelinePoint.value;
  const error = timelineError.value;
  const waiting = timelineWaiting.value;
  // What happened there, in the user's words ("before: npm test").
  const e = held[at - firstSeqHeld()]?.event;
  const what = e && pointLabel(e, pointName);
  return (
    <section
      class={`timeline-panel${waiting ? ' timeline-waiting' : ''}`}
      aria-label={t('timelineAt', count(at + 1))}
      aria-busy={waiting}
      data-seq={point?.seq}
    >
      <h2 class="timeline-title">
        {t('atEvent', count(at + 1))}
        {point && point.lastSeq > 0 && (
          <span class="timeline-of">{t('atEventOf', count(point.lastSeq + 1))}</span>
        )}
      </h2>
      {what && <p class="timeline-what">{what}</p>}
      {error && (
        <p class="timeline-error" role="alert">
          <Icon name="error" />
          {error}
        </p>
      )}
      {point ? <PointView point={point} /> : !error && <p class="timeline-note">{t('readingLog')}</p>}
    </section>
  );
}
