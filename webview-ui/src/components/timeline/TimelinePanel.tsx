// The conversation as it was at the timeline's event: status, mode, tokens and cost, the plan, and
// the files changed from the first checkpoint up to there, each with its diffs (start to here, here
// to now) and "Open files at this point". Everything shown is the host's answer for that event.
import type { TimelineFile, TimelinePoint } from '../../../../src/protocol/messages';
import { formatCost, formatTime, formatTokens, statusLook } from '../../lib/format';
import { shownConversation } from '../../state/store';
import { timelineError, timelinePoint, timelineSeq, timelineWaiting } from '../../state/timeline';
import { send } from '../../vscode-api';
import { Button } from '../Button';
import { Icon } from '../Icon';

const CHANGE_WORD: Record<TimelineFile['status'], string> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  T: 'type changed',
};

const PLAN_ICON: Record<string, string> = { done: 'pass', in_progress: 'circle-filled' };

function FileRow({ file, point }: { file: TimelineFile; point: TimelinePoint }) {
  const id = shownConversation();
  const at = point.seq + 1;
  const diff = (against: 'start' | 'now') =>
    id !== null &&
    send({ type: 'timelineDiff', conversationId: id, seq: point.seq, path: file.path, against });
  return (
    <li class="timeline-file">
      <span class={`timeline-change change-${file.status}`} title={CHANGE_WORD[file.status]}>
        {file.status}
        <span class="sr-only"> ({CHANGE_WORD[file.status]})</span>
      </span>
      <span class="timeline-path" title={file.from ? `${file.from} → ${file.path}` : file.path}>
        {file.path}
      </span>
      <button
        type="button"
        class="link-button"
        aria-label={`Diff of ${file.path} from the start to event ${at}`}
        title="From the start to this event"
        onClick={() => diff('start')}
      >
        Diff
      </button>
      <button
        type="button"
        class="link-button"
        aria-label={`Diff of ${file.path} at event ${at} vs now`}
        title="This event against the file now"
        onClick={() => diff('now')}
      >
        vs now
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
          <dt>Status</dt>
          <dd>
            <Icon name={look.icon === 'loading' ? 'sync' : look.icon} />
            {look.label}
          </dd>
        </div>
        <div>
          <dt>Mode</dt>
          <dd>{point.mode === 'plan' ? 'Plan' : 'Act'}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>
            {formatTokens(point.promptTokens)} in · {formatTokens(point.completionTokens)} out
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{formatCost(point.cost)}</dd>
        </div>
        {time && (
          <div>
            <dt>Time</dt>
            <dd>{time}</dd>
          </div>
        )}
      </dl>
      {point.plan.length > 0 && (
        <>
          <h3 class="timeline-heading">Plan</h3>
          <ul class="timeline-plan">
            {point.plan.map((t, i) => (
              <li key={i} class={`plan-${t.status}`}>
                <Icon name={PLAN_ICON[t.status] ?? 'circle-large-outline'} />
                <span>{t.title}</span>
                <span class="sr-only"> ({t.status.replace(/_/g, ' ')})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3 class="timeline-heading">Files changed so far</h3>
      <p class="timeline-note">{point.filesNote}</p>
      {point.files.length > 0 && (
        <ul class="timeline-files">
          {point.files.map((f) => (
            <FileRow key={f.path} file={f} point={point} />
          ))}
        </ul>
      )}
      {point.filesNotShown > 0 && <p class="timeline-note">and {point.filesNotShown} more</p>}
      {openable && (
        <Button
          kind="secondary"
          icon="go-to-file"
          onClick={() =>
            id !== null && send({ type: 'timelineOpenFiles', conversationId: id, seq: point.seq })
          }
        >
          Open files at this point
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
  return (
    <section
      class={`timeline-panel${waiting ? ' timeline-waiting' : ''}`}
      aria-label={`The conversation at event ${at + 1}`}
      aria-busy={waiting}
      data-seq={point?.seq}
    >
      <h2 class="timeline-title">
        At event {at + 1}
        {point && point.lastSeq > 0 && <span class="timeline-of"> of {point.lastSeq + 1}</span>}
      </h2>
      {error && (
        <p class="timeline-error" role="alert">
          <Icon name="error" />
          {error}
        </p>
      )}
      {point ? <PointView point={point} /> : !error && <p class="timeline-note">Reading the log…</p>}
    </section>
  );
}
