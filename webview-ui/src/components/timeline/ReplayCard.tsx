// What "Logbook: Replay Conversation" found, as a card above the feed: running, replayed the same,
// or the first divergence (the action, both results, the lines that differ) with a way to see the
// conversation at that event in the timeline.
import type { ReplayReport } from '../../../../src/protocol/messages';
import { plural } from '../../lib/format';
import { replayCard, seekTo } from '../../state/timeline';
import { Icon } from '../Icon';
import { IconButton } from '../IconButton';

function Diverged({ r }: { r: Extract<ReplayReport, { outcome: 'diverged' }> }) {
  return (
    <>
      <p class="replay-line">
        {r.branch !== undefined && (
          <>
            In the delegated agent <code class="replay-branch">{r.branch}</code> (event {r.index} of its
            log):{' '}
          </>
        )}
        Action {r.ordinal} of {r.actions} gave another result: <strong>{r.tool}</strong>{' '}
        <code class="replay-what">{r.what}</code>
      </p>
      <div class="replay-results">
        <span class="replay-label">Recorded</span>
        <pre class="replay-text">{r.recorded}</pre>
        <span class="replay-label">Replayed</span>
        {r.replayed === undefined ? (
          <p class="replay-line">No result: the replay stopped ({r.status.replace(/_/g, ' ')}) before it.</p>
        ) : (
          <pre class="replay-text">{r.replayed}</pre>
        )}
      </div>
      {r.diff.length > 0 && (
        <pre class="replay-diff" aria-label="Lines that differ (- recorded, + replayed)">
          {r.diff.map((l, i) => (
            <span key={i} class={l.startsWith('+') ? 'replay-add' : 'replay-del'}>
              {l}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
      {r.seq !== undefined && (
        <button type="button" class="link-button" onClick={() => seekTo(r.seq!)}>
          <Icon name="history" />
          Show event {r.seq + 1} in the timeline
        </button>
      )}
    </>
  );
}

function body(r: ReplayReport | null) {
  if (r === null) return { icon: 'loading', title: 'Replaying the conversation…', tone: 'busy' };
  switch (r.outcome) {
    case 'same':
      return {
        icon: 'pass',
        title: `Replayed identically: ${plural(r.actions, 'action')}, no divergence`,
        tone: 'ok',
      };
    case 'diverged':
      return { icon: 'warning', title: 'The replay diverged', tone: 'warn' };
    case 'error-end':
      return {
        icon: 'warning',
        title: `The replay stopped on an error the recording did not have (it ended ${r.recordedEnd.replace(/_/g, ' ')})`,
        tone: 'warn',
      };
    case 'failed':
      return { icon: 'error', title: `The replay could not run: ${r.message}`, tone: 'error' };
  }
}

export function ReplayCard() {
  const card = replayCard.value;
  if (!card) return null;
  const r = card.report;
  const b = body(r);
  return (
    <section class={`replay-card tone-${b.tone}`} aria-label="Replay" aria-live="polite">
      <div class="replay-head">
        <Icon name={b.icon} spin={b.icon === 'loading'} />
        <span class="replay-title">{b.title}</span>
        {r !== null && (
          <IconButton
            icon="close"
            label="Close the replay result"
            onClick={() => (replayCard.value = null)}
          />
        )}
      </div>
      {r?.outcome === 'diverged' && <Diverged r={r} />}
    </section>
  );
}
